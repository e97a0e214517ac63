import Foundation

extension Database {
    /// A column type for `t.column("name", .text)`: the declared type written in CREATE TABLE.
    ///
    ///     t.column("score", .integer).notNull()
    public struct ColumnType: RawRepresentable, Hashable, Sendable {
        /// The SQL type name.
        public let rawValue: String
        /// Creates a column type from its SQL name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a column type from its SQL name.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// `TEXT`
        public static let text = ColumnType("TEXT")
        /// `INTEGER`
        public static let integer = ColumnType("INTEGER")
        /// `DOUBLE`
        public static let double = ColumnType("DOUBLE")
        /// `REAL`
        public static let real = ColumnType("REAL")
        /// `NUMERIC`
        public static let numeric = ColumnType("NUMERIC")
        /// `BOOLEAN`
        public static let boolean = ColumnType("BOOLEAN")
        /// `BLOB`
        public static let blob = ColumnType("BLOB")
        /// `DATE`
        public static let date = ColumnType("DATE")
        /// `DATETIME`
        public static let datetime = ColumnType("DATETIME")
        /// `ANY` (STRICT tables)
        public static let any = ColumnType("ANY")
        /// `JSONTEXT`: text affinity, for JSON values.
        public static let jsonText = ColumnType("JSONTEXT")
    }

    /// A foreign key action: `ON DELETE CASCADE`.
    public enum ForeignKeyAction: String, Sendable {
        /// `CASCADE`
        case cascade = "CASCADE"
        /// `RESTRICT`
        case restrict = "RESTRICT"
        /// `SET NULL`
        case setNull = "SET NULL"
        /// `SET DEFAULT`
        case setDefault = "SET DEFAULT"
    }
}

/// Options of `db.create(table:options:)`.
public struct TableOptions: OptionSet, Sendable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `CREATE TABLE IF NOT EXISTS`
    public static let ifNotExists = TableOptions(rawValue: 1 << 0)
    /// `CREATE TEMPORARY TABLE`
    public static let temporary = TableOptions(rawValue: 1 << 1)
    /// `WITHOUT ROWID`
    public static let withoutRowID = TableOptions(rawValue: 1 << 2)
    /// `STRICT`
    public static let strict = TableOptions(rawValue: 1 << 3)
}

/// Options of `db.create(index:on:columns:options:)`.
public struct IndexOptions: OptionSet, Sendable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `CREATE INDEX IF NOT EXISTS`
    public static let ifNotExists = IndexOptions(rawValue: 1 << 0)
    /// `CREATE UNIQUE INDEX`
    public static let unique = IndexOptions(rawValue: 1 << 1)
}

/// SQL literals for DDL, where statement arguments are not allowed.
enum SQLLiteral {
    /// `NULL`, `42`, `1.5`, `'text'`, `X'0102'`.
    static func sql(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let int): return String(int)
        case .double(let double): return String(double)
        case .string(let string): return "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    /// An expression rendered with its values inlined.
    static func sql(_ expression: SQLExpression) -> String {
        var context = SQLGenerationContext(inlineValues: true)
        return expression.sql(&context)
    }
}
