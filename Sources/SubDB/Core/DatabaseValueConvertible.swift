import Foundation

/// A type that converts to and from ``DatabaseValue``: Bool, integers, Double, String, Data, Date, UUID, URL,
/// Decimal, Swift enums with a convertible raw value (by empty conformance), and your own types.
///
///     enum Grape: String, DatabaseValueConvertible { case chardonnay, merlot }
///     try db.execute(sql: "INSERT INTO wine (grape) VALUES (?)", arguments: [Grape.merlot])
///     let grape = Grape.fromDatabaseValue(row["grape"])  // nil when the stored text is not a case
public protocol DatabaseValueConvertible: StatementBinding {
    /// The value stored in the database.
    var databaseValue: DatabaseValue { get }

    /// The value decoded from a database value, or nil when the conversion is not possible.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?
}

/// A type that reads itself straight from a column of an SQLite statement, without building a
/// ``DatabaseValue`` first: the fast path of `Int.fetchAll`, `row[0] as Int` and cursors.
///
/// `sqliteStatement` is the raw `sqlite3_stmt *`; `index` the 0-based column. Return nil when the column
/// cannot be converted (NULL for a non-optional type, an out-of-range integer).
public protocol StatementColumnConvertible {
    /// Reads the column, or returns nil when the conversion fails.
    init?(sqliteStatement: OpaquePointer, index: Int32)
}

extension DatabaseValueConvertible where Self: RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// The raw value's database value.
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    /// The case whose raw value is decoded from `dbValue`, or nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap { Self(rawValue: $0) }
    }
}

/// Optionals store NULL for nil. `Optional<Int>.fetchOne` returns `Int??`: nil when there is no row,
/// `.some(nil)` when the row holds NULL.
extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// NULL for nil, else the wrapped value's database value.
    public var databaseValue: DatabaseValue {
        switch self {
        case .none: return .null
        case .some(let value): return value.databaseValue
        }
    }

    /// `.some(nil)` for NULL, `.some(value)` for a convertible value, nil for an invalid conversion.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Wrapped?? {
        if dbValue.isNull {
            // `let value: DatabaseValue? = row["column"]` is nil only when the column is missing.
            if let value = dbValue as? Wrapped { return .some(.some(value)) }
            return .some(.none)
        }
        guard let value = Wrapped.fromDatabaseValue(dbValue) else { return nil }
        return .some(value)
    }
}

extension Optional: StatementColumnConvertible where Wrapped: StatementColumnConvertible {
    /// nil for NULL, else the wrapped value; fails when the wrapped conversion fails.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        if columnIsNull(sqliteStatement, index) {
            self = .none
            return
        }
        guard let value = Wrapped(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = .some(value)
    }
}
