internal import CSQLite
import Foundation

/// A custom SQL function or aggregate, registered on a connection with `db.add(function:)`.
///
///     let reverse = DatabaseFunction("reverse", argumentCount: 1, pure: true) { (values: [DatabaseValue]) in
///         guard let string = String.fromDatabaseValue(values[0]) else { return nil }
///         return String(string.reversed())
///     }
///     db.add(function: reverse)
///     try String.fetchOne(db, sql: "SELECT reverse('foo')")  // "oof"
///
/// A function that throws makes the statement fail with its message (`DatabaseError.message`, or the error's
/// description for other errors). The corresponding C function is `sqlite3_create_function_v2`.
public final class DatabaseFunction: Sendable {
    enum Kind: Sendable {
        case function(@Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
        case aggregate(@Sendable () -> any DatabaseAggregate)
    }

    /// The SQL name.
    public let name: String
    /// The number of arguments, nil for any number.
    public let argumentCount: Int32?
    /// True when the result depends only on the arguments (`SQLITE_DETERMINISTIC`).
    public let isPure: Bool
    let kind: Kind

    /// A scalar function. `argumentCount` nil accepts any number of arguments.
    public init(
        _ name: String, argumentCount: Int32? = nil, pure: Bool = false,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?
    ) {
        self.name = name
        self.argumentCount = argumentCount
        self.isPure = pure
        self.kind = .function(function)
    }

    /// The function applied to arguments, in the query interface: `DatabaseFunction.capitalize(Column("name"))`.
    public func callAsFunction(_ arguments: any SQLExpressible...) -> SQLExpression {
        SQLExpression(.function(name: name, arguments: arguments.map(\.sqlExpression)))
    }

    /// `swiftCapitalizedString(x)`: Swift's `capitalized`, which SQLite lacks. Registered on every connection.
    public static let capitalize = DatabaseFunction("swiftCapitalizedString", argumentCount: 1, pure: true) {
        String.fromDatabaseValue($0[0]).map(\.capitalized)
    }

    /// `swiftLowercaseString(x)`: Swift's `lowercased()`, Unicode-aware unlike SQLite's `LOWER`.
    public static let lowercase = DatabaseFunction("swiftLowercaseString", argumentCount: 1, pure: true) {
        String.fromDatabaseValue($0[0])?.lowercased()
    }

    /// `swiftUppercaseString(x)`: Swift's `uppercased()`, Unicode-aware unlike SQLite's `UPPER`.
    public static let uppercase = DatabaseFunction("swiftUppercaseString", argumentCount: 1, pure: true) {
        String.fromDatabaseValue($0[0])?.uppercased()
    }

    /// `swiftLocalizedCapitalizedString(x)`: Swift's `localizedCapitalized`.
    public static let localizedCapitalize = DatabaseFunction(
        "swiftLocalizedCapitalizedString", argumentCount: 1, pure: true
    ) { String.fromDatabaseValue($0[0]).map(\.localizedCapitalized) }

    /// `swiftLocalizedLowercaseString(x)`: Swift's `localizedLowercase`.
    public static let localizedLowercase = DatabaseFunction(
        "swiftLocalizedLowercaseString", argumentCount: 1, pure: true
    ) { String.fromDatabaseValue($0[0]).map(\.localizedLowercase) }

    /// `swiftLocalizedUppercaseString(x)`: Swift's `localizedUppercase`.
    public static let localizedUppercase = DatabaseFunction(
        "swiftLocalizedUppercaseString", argumentCount: 1, pure: true
    ) { String.fromDatabaseValue($0[0]).map(\.localizedUppercase) }

    /// The functions GRDB adds to every connection (the string functions of the query interface).
    static let defaultFunctions: [DatabaseFunction] = [
        .capitalize, .lowercase, .uppercase, .localizedCapitalize, .localizedLowercase, .localizedUppercase,
    ]

    /// An aggregate function: a fresh `Aggregate()` steps through each group, then finalizes.
    ///
    ///     let maxLength = DatabaseFunction("maxLength", argumentCount: 1, pure: true, aggregate: MaxLength.self)
    public init<Aggregate: DatabaseAggregate>(
        _ name: String, argumentCount: Int32? = nil, pure: Bool = false, aggregate: Aggregate.Type
    ) {
        self.name = name
        self.argumentCount = argumentCount
        self.isPure = pure
        self.kind = .aggregate { Aggregate() }
    }

    var key: FunctionKey { FunctionKey(name: name.lowercased(), argumentCount: argumentCount ?? -1) }

    /// Text encoding and determinism flags for `sqlite3_create_function_v2`.
    var flags: Int32 { SQLITE_UTF8 | (isPure ? SQLITE_DETERMINISTIC : 0) }
}

/// A custom aggregate: `init()`, then `step` for each row of a group, then `finalize`.
///
///     struct MaxLength: DatabaseAggregate {
///         var maxLength = 0
///         mutating func step(_ dbValues: [DatabaseValue]) {
///             if let string = String.fromDatabaseValue(dbValues[0]) { maxLength = max(maxLength, string.count) }
///         }
///         func finalize() -> (any DatabaseValueConvertible)? { maxLength }
///     }
public protocol DatabaseAggregate: SendableMetatype {
    /// A fresh aggregate.
    init()
    /// Accumulates one row.
    mutating func step(_ dbValues: [DatabaseValue]) throws
    /// The result.
    func finalize() throws -> (any DatabaseValueConvertible)?
}

/// Identifies a registered function: SQLite keys functions by name and argument count.
struct FunctionKey: Hashable {
    let name: String
    let argumentCount: Int32
}

/// The aggregate state of one group, boxed for `sqlite3_aggregate_context`.
private final class AggregateBox {
    var aggregate: any DatabaseAggregate
    /// True once `step` threw: SQLite still calls xFinal to clean up, but `finalize` is not called, as in GRDB.
    var stepFailed = false
    init(_ aggregate: any DatabaseAggregate) { self.aggregate = aggregate }
}

extension Database {
    /// Registers (or replaces) a function or aggregate on this connection. Use `Configuration.prepareDatabase`
    /// to register it on every connection of a pool.
    public func add(function: DatabaseFunction) {
        functions[function.key] = function
        let context = Unmanaged.passRetained(function).toOpaque()
        let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
            if let pointer { Unmanaged<DatabaseFunction>.fromOpaque(pointer).release() }
        }
        let code: Int32
        switch function.kind {
        case .function:
            code = sqlite3_create_function_v2(
                sqliteConnection, function.name, function.argumentCount ?? -1, function.flags, context,
                { context, argc, argv in
                    guard let context else { return }
                    let function = Unmanaged<DatabaseFunction>.fromOpaque(sqlite3_user_data(context))
                        .takeUnretainedValue()
                    guard case .function(let body) = function.kind else { return }
                    do {
                        let result = try body(functionArguments(argc, argv))
                        setFunctionResult(context, result?.databaseValue ?? .null)
                    } catch {
                        reportFunctionError(context, error)
                    }
                }, nil, nil, destroy)
        case .aggregate:
            code = sqlite3_create_function_v2(
                sqliteConnection, function.name, function.argumentCount ?? -1, function.flags, context, nil,
                { context, argc, argv in
                    guard let context, let box = aggregateBox(context, create: true), !box.stepFailed else { return }
                    do {
                        try box.aggregate.step(functionArguments(argc, argv))
                    } catch {
                        box.stepFailed = true
                        reportFunctionError(context, error)
                    }
                },
                { context in
                    guard let context else { return }
                    let box = aggregateBox(context, create: true)
                    defer { releaseAggregateBox(context) }
                    guard let box, !box.stepFailed else { return }
                    do {
                        setFunctionResult(context, try box.aggregate.finalize()?.databaseValue ?? .null)
                    } catch {
                        reportFunctionError(context, error)
                    }
                }, destroy)
        }
        precondition(code == SQLITE_OK, "could not register SQL function \(function.name): code \(code)")
    }

    /// An alias of ``add(function:)`` for aggregates.
    public func add(aggregate: DatabaseFunction) { add(function: aggregate) }

    /// Unregisters a function or aggregate.
    public func remove(function: DatabaseFunction) {
        functions[function.key] = nil
        sqlite3_create_function_v2(
            sqliteConnection, function.name, function.argumentCount ?? -1, function.flags, nil, nil, nil, nil, nil)
    }
}

/// The arguments of a function call as database values.
private func functionArguments(_ argc: Int32, _ argv: UnsafeMutablePointer<OpaquePointer?>?) -> [DatabaseValue] {
    guard let argv, argc > 0 else { return [] }
    return (0..<Int(argc)).map { index in
        guard let value = argv[index] else { return .null }
        return DatabaseValue(sqliteValue: value)
    }
}

/// Sets the result of a function call. The corresponding C functions are `sqlite3_result_*`.
private func setFunctionResult(_ context: OpaquePointer, _ value: DatabaseValue) {
    switch value.storage {
    case .null: sqlite3_result_null(context)
    case .int64(let v): sqlite3_result_int64(context, v)
    case .double(let v): sqlite3_result_double(context, v)
    case .string(let v):
        var string = v
        string.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                if let base = $0.baseAddress {
                    sqlite3_result_text(context, base, Int32($0.count), csqlite_transient())
                } else {
                    sqlite3_result_text(context, "", 0, csqlite_static())
                }
            }
        }
    case .blob(let v):
        v.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress, buffer.count > 0 {
                sqlite3_result_blob(context, base, Int32(buffer.count), csqlite_transient())
            } else {
                sqlite3_result_zeroblob(context, 0)
            }
        }
    }
}

/// Makes the statement fail with the error's message. The corresponding C function is `sqlite3_result_error`.
private func reportFunctionError(_ context: OpaquePointer, _ error: any Error) {
    let message: String
    if let error = error as? DatabaseError {
        message = error.message ?? "\(error)"
        sqlite3_result_error(context, message, -1)
        sqlite3_result_error_code(context, error.extendedResultCode.rawValue)
    } else {
        message = "\(error)"
        sqlite3_result_error(context, message, -1)
    }
}

/// The aggregate of the current group, stored as a retained pointer in `sqlite3_aggregate_context`.
private func aggregateBox(_ context: OpaquePointer, create: Bool) -> AggregateBox? {
    let size = Int32(MemoryLayout<UnsafeMutableRawPointer?>.size)
    guard let slot = sqlite3_aggregate_context(context, create ? size : 0) else { return nil }
    let pointer = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    if let existing = pointer.pointee {
        return Unmanaged<AggregateBox>.fromOpaque(existing).takeUnretainedValue()
    }
    guard create else { return nil }
    let function = Unmanaged<DatabaseFunction>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
    guard case .aggregate(let make) = function.kind else { return nil }
    let box = AggregateBox(make())
    pointer.pointee = Unmanaged.passRetained(box).toOpaque()
    return box
}

/// Releases the aggregate of the current group.
private func releaseAggregateBox(_ context: OpaquePointer) {
    guard let slot = sqlite3_aggregate_context(context, 0) else { return }
    let pointer = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    if let existing = pointer.pointee {
        Unmanaged<AggregateBox>.fromOpaque(existing).release()
        pointer.pointee = nil
    }
}
