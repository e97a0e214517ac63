internal import CSQLite
import Foundation

/// A compiled SQL statement, reusable with new arguments. The corresponding C type is `sqlite3_stmt`.
///
///     let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
///     for (name, score) in [("Arthur", 750), ("Barbara", 1000)] {
///         try statement.execute(arguments: [name, score])
///     }
///
/// A statement belongs to the connection that compiled it and is used only inside that connection's
/// `read`/`write` closures. It refers to its ``Database`` without retaining it (the connection caches
/// statements); the `sqlite3` handle stays valid while the statement lives (`sqlite3_close_v2`).
public final class Statement {
    /// The raw `sqlite3_stmt *`, finalized in `deinit`.
    public let sqliteStatement: OpaquePointer
    /// The `sqlite3 *` that compiled it.
    package let sqliteConnection: OpaquePointer
    /// The connection (not retained: the connection caches its statements).
    unowned let database: Database
    /// The connection's observation broker slot, read at each step.
    let observationSlot: ObservationSlot
    /// Number of parameters (`sqlite3_bind_parameter_count`).
    let parameterCount: Int32
    /// Parameter names without their `:`/`$`/`@` prefix, nil for `?` parameters, indexed from 0.
    let parameterNames: [String?]
    /// True for CREATE, DROP and ALTER statements, which invalidate the connection's schema cache.
    let changesSchema: Bool
    /// Set by `step`, cleared by `reset`.
    @exclusivity(unchecked) var isBusy = false
    /// What the statement reads and writes, from the authorizer (Observation/); nil until first needed.
    var authorization: StatementAuthorization?
    /// The record decoding state of the last record fetch (Record/RecordDecodingContext.swift).
    var cachedRecordDecodingContext: RecordDecodingContext?
    /// The arguments last bound.
    var boundArguments = BoundArguments.arguments(StatementArguments())

    /// The arguments last bound. Setting invalid arguments is a programmer error: use ``setArguments(_:)`` to
    /// get a thrown error instead.
    public var arguments: StatementArguments {
        get {
            switch boundArguments {
            case .arguments(let arguments): return arguments
            case .values(let values): return StatementArguments(values.map(\.databaseValue))
            }
        }
        set {
            do {
                try setArguments(newValue)
            } catch {
                preconditionFailure("\(error)")
            }
        }
    }
    /// The column count (`sqlite3_column_count`).
    public private(set) var columnCount: Int
    /// Column names, shared by every row this statement produces.
    lazy var layout = RowLayout(statement: sqliteStatement, count: columnCount)
    /// How many times SQLite recompiled the statement after a schema change, when `layout` was computed.
    private var prepareGeneration: Int32 = 0

    init(database: Database, sqliteStatement: OpaquePointer) {
        self.database = database
        self.sqliteStatement = sqliteStatement
        self.sqliteConnection = database.sqliteConnection
        self.observationSlot = database.observationSlot
        self.columnCount = Int(sqlite3_column_count(sqliteStatement))
        let count = sqlite3_bind_parameter_count(sqliteStatement)
        self.parameterCount = count
        var names: [String?] = []
        if count > 0 {
            for index in 1...count {
                if let cName = sqlite3_bind_parameter_name(sqliteStatement, index) {
                    let name = String(cString: cName)
                    names.append(name.hasPrefix("?") ? nil : String(name.dropFirst()))
                } else {
                    names.append(nil)
                }
            }
        }
        self.parameterNames = names
        if let cSQL = sqlite3_sql(sqliteStatement) {
            var p = cSQL
            while p.pointee == 0x20 || p.pointee == 0x0A || p.pointee == 0x09 || p.pointee == 0x0D { p += 1 }
            let head = String(cString: p).prefix(6).uppercased()
            changesSchema = head.hasPrefix("CREATE") || head.hasPrefix("DROP") || head.hasPrefix("ALTER")
        } else {
            changesSchema = false
        }
    }

    deinit {
        sqlite3_finalize(sqliteStatement)
    }

    /// The SQL of the statement. The corresponding C function is `sqlite3_sql`.
    public var sql: String {
        sqlite3_sql(sqliteStatement).map { String(cString: $0) } ?? ""
    }

    /// The SQL with its current arguments inlined. The corresponding C function is `sqlite3_expanded_sql`.
    public var expandedSQL: String {
        guard let cSQL = sqlite3_expanded_sql(sqliteStatement) else { return sql }
        defer { sqlite3_free(cSQL) }
        return String(cString: cSQL)
    }

    /// The names of the result columns, left to right.
    public var columnNames: [String] { layout.names }

    /// True when the statement does not write. The corresponding C function is `sqlite3_stmt_readonly`.
    public var isReadonly: Bool { sqlite3_stmt_readonly(sqliteStatement) != 0 }

    /// The 0-based index of the leftmost column named `name` (case-insensitive), or nil.
    public func index(ofColumn name: String) -> Int? { layout.index(of: name) }

    // MARK: Arguments

    /// Validates and binds arguments. Throws `SQLITE_MISUSE` on a wrong count or a missing name.
    public func setArguments(_ arguments: StatementArguments) throws {
        resetIfNeeded()
        var consumed = 0
        try bind(arguments, consumed: &consumed)
        if consumed != arguments.values.count {
            throw DatabaseError.misuse(
                "wrong number of statement arguments: \(arguments.values.count) (expected \(consumed))", sql: sql)
        }
    }

    /// Binds arguments without validating them, as GRDB's `setUncheckedArguments`: extra values are ignored and
    /// parameters without a value stay NULL.
    public func setUncheckedArguments(_ arguments: StatementArguments) {
        resetIfNeeded()
        sqlite3_clear_bindings(sqliteStatement)
        var position = 0
        for (offset, name) in parameterNames.enumerated() {
            let value: DatabaseValue
            if let name, let named = arguments.namedValues[name] {
                value = named
            } else if position < arguments.values.count {
                value = arguments.values[position]
                position += 1
            } else {
                continue
            }
            // Validation is what this method skips: a value that cannot be bound leaves NULL.
            _ = value.bind(to: sqliteStatement, at: Int32(offset + 1))
        }
        boundArguments = .arguments(arguments)
    }

    /// Throws if the arguments do not fit the statement, without binding them.
    public func validateArguments(_ arguments: StatementArguments) throws {
        var consumed = 0
        _ = try plan(arguments, consumed: &consumed)
        if consumed != arguments.values.count {
            throw DatabaseError.misuse(
                "wrong number of statement arguments: \(arguments.values.count) (expected \(consumed))", sql: sql)
        }
    }

    /// Which value goes to each parameter: named values by name, positional values from `consumed` on.
    private func plan(_ arguments: StatementArguments, consumed: inout Int) throws -> [DatabaseValue] {
        var result: [DatabaseValue] = []
        result.reserveCapacity(Int(parameterCount))
        var missingNames: [String] = []
        var missingPositional = false
        for name in parameterNames {
            if let name, let value = arguments.namedValues[name] {
                result.append(value)
            } else if consumed < arguments.values.count {
                result.append(arguments.values[consumed])
                consumed += 1
            } else if let name {
                missingNames.append(name)
            } else {
                missingPositional = true
            }
        }
        if !missingNames.isEmpty {
            throw DatabaseError.misuse(
                "missing statement argument(s): \(missingNames.joined(separator: ", "))", sql: sql)
        }
        if missingPositional {
            let positionalCount = parameterNames.count { $0 == nil }
            throw DatabaseError.misuse(
                "wrong number of statement arguments: \(arguments.values.count) (expected \(positionalCount))", sql: sql
            )
        }
        return result
    }

    /// Binds the parameters, consuming positional values from `consumed` on (several statements of one
    /// `execute(sql:)` share the arguments).
    func bind(_ arguments: StatementArguments, consumed: inout Int) throws {
        if arguments.namedValues.isEmpty && consumed == 0 && arguments.values.count == Int(parameterCount) {
            // Fast path: positional values, one per parameter.
            try arguments.values.withUnsafeBufferPointer { buffer in
                for index in buffer.indices {
                    try bind(buffer[index], at: Int32(index + 1))
                }
            }
            consumed = arguments.values.count
        } else {
            let values = try plan(arguments, consumed: &consumed)
            var index: Int32 = 1
            for value in values {
                try bind(value, at: index)
                index += 1
            }
        }
        boundArguments = .arguments(arguments)
    }

    /// Binds one value. The corresponding C functions are `sqlite3_bind_*`.
    @inline(__always)
    private func bind(_ value: DatabaseValue, at index: Int32) throws {
        let code = value.bind(to: sqliteStatement, at: index)
        if code != SQLITE_OK { throw bindError(code) }
    }

    /// The error for a failed `sqlite3_bind_*` call.
    private func bindError(_ code: Int32) -> DatabaseError {
        DatabaseError.connectionError(sqliteConnection, code: code, sql: sql)
    }

    // MARK: Executing

    /// Executes the statement, with new arguments if given (else the arguments last set).
    ///
    ///     try statement.execute(arguments: ["Arthur", 1000])
    public func execute(arguments: StatementArguments? = nil) throws {
        resetIfNeeded()
        if let arguments {
            var consumed = 0
            try bind(arguments, consumed: &consumed)
            if consumed != arguments.values.count {
                throw DatabaseError.misuse(
                    "wrong number of statement arguments: \(arguments.values.count) (expected \(consumed))",
                    sql: sql)
            }
        }
        try executeBound()
    }

    /// Executes the statement with positional arguments, each bound straight from its value
    /// (``StatementBinding``) without building ``StatementArguments`` first.
    ///
    ///     try statement.execute(arguments: [name, score])
    ///
    /// Same checks and errors as `execute(arguments: StatementArguments)`: a wrong number of values throws.
    public func execute(arguments values: [any DatabaseValueConvertible]) throws {
        guard values.count == Int(parameterCount) else {
            // The general path reports the error (or fills named parameters) exactly as for StatementArguments.
            try execute(arguments: StatementArguments(values.map(\.databaseValue)))
            return
        }
        resetIfNeeded()
        let sqliteStatement = self.sqliteStatement
        // `values[position]` borrows each value in place (iterating or an optional element would copy the
        // existential first, which costs more than binding it).
        for position in values.indices {
            let code = values[position].bind(to: sqliteStatement, at: Int32(truncatingIfNeeded: position + 1))
            if code != SQLITE_OK { throw bindError(code) }
        }
        boundArguments = .values(values)
        try executeBound()
    }

    /// Steps until done, then resets.
    package func executeBound() throws {
        defer { reset() }
        while true {
            let code = step()
            if code == SQLITE_DONE { break }
            if code != SQLITE_ROW { throw stepError(code) }
        }
        if changesSchema { database.clearSchemaCache() }
    }

    /// One `sqlite3_step`. The first step of an execution notices a recompilation after a schema change (the
    /// columns of `SELECT *` may have changed) and refreshes the column count and names.
    @inline(__always)
    func step() -> Int32 {
        if let broker = observationSlot.broker { return broker.step(self) }
        return stepWithoutObservation()
    }

    /// `step()` without the observation broker (which calls it around its own work).
    @inline(__always)
    func stepWithoutObservation() -> Int32 {
        if isBusy { return sqlite3_step(sqliteStatement) }
        if observationSlot.forbidsWrites && sqlite3_stmt_readonly(sqliteStatement) == 0 && !isPragmaQuery {
            return SQLITE_READONLY  // the read-only guard of `Database.readOnly`; nothing ran
        }
        isBusy = true
        let code = sqlite3_step(sqliteStatement)
        let generation = sqlite3_stmt_status(sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
        if generation != prepareGeneration {
            // Recompiled: after a schema change, or a pragma that expires all statements. Keep the layout object when the columns did not change: rows and record decoding
            // contexts compare layouts by identity.
            prepareGeneration = generation
            columnCount = Int(sqlite3_column_count(sqliteStatement))
            let newLayout = RowLayout(statement: sqliteStatement, count: columnCount)
            if newLayout.names != layout.names { layout = newLayout }
        }
        return code
    }

    /// True for a PRAGMA that reads (`PRAGMA journal_mode`), which SQLite does not call read-only; a PRAGMA that
    /// sets a value (`PRAGMA user_version = 3`) is a write.
    private var isPragmaQuery: Bool {
        let text = sql.drop { $0.isWhitespace }
        return text.prefix(6).uppercased() == "PRAGMA" && !text.contains("=")
    }

    /// The error for a failed step, with the SQL and arguments.
    func stepError(_ code: Int32) -> DatabaseError {
        DatabaseError.connectionError(
            sqliteConnection, code: code, sql: sql,
            arguments: database.configuration.publicStatementArguments ? arguments : nil)
    }

    /// Resets the statement for a new execution (bindings stay). The corresponding C function is `sqlite3_reset`.
    @inline(__always)
    func reset() {
        sqlite3_reset(sqliteStatement)
        isBusy = false
    }

    /// Resets a statement left running (an abandoned cursor).
    @inline(__always)
    package func resetIfNeeded() {
        if isBusy { reset() }
    }
}

/// The arguments a statement last bound: the ``StatementArguments`` it was given, or the values of
/// `execute(arguments: [...])`, converted to ``StatementArguments`` only when read.
enum BoundArguments {
    case arguments(StatementArguments)
    case values([any DatabaseValueConvertible])
}

/// The column names of a statement or row, with case-insensitive lookup of the leftmost match.
@usableFromInline
final class RowLayout {
    let names: [String]

    init(names: [String]) { self.names = names }

    init(statement: OpaquePointer, count: Int) {
        var names: [String] = []
        names.reserveCapacity(count)
        for index in 0..<Int32(count) {
            names.append(sqlite3_column_name(statement, index).map { String(cString: $0) } ?? "")
        }
        self.names = names
    }

    /// The leftmost column whose name matches, exactly first, then ignoring ASCII case.
    func index(of name: String) -> Int? {
        if let index = names.firstIndex(of: name) { return index }
        return names.firstIndex { $0.utf8.count == name.utf8.count && asciiCaseInsensitiveEqual($0, name) }
    }
}

/// Compares two strings ignoring ASCII case, as SQLite compares identifiers.
func asciiCaseInsensitiveEqual(_ a: String, _ b: String) -> Bool {
    var ia = a.utf8.makeIterator()
    var ib = b.utf8.makeIterator()
    while true {
        switch (ia.next(), ib.next()) {
        case (nil, nil): return true
        case let (ca?, cb?):
            let la = (ca >= 65 && ca <= 90) ? ca + 32 : ca
            let lb = (cb >= 65 && cb <= 90) ? cb + 32 : cb
            if la != lb { return false }
        default: return false
        }
    }
}
