import Foundation

// Fetching values of the leftmost column: `Int.fetchOne`, `String.fetchAll`, `Optional<Int>.fetchOne`.
// Types that are also StatementColumnConvertible (Int, String, Double...) take the fast path below.

extension DatabaseValueConvertible {
    /// A cursor over the values of a statement's leftmost column.
    @inlinable
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws
        -> DatabaseValueCursor<Self>
    {
        try DatabaseValueCursor(statement: statement, arguments: arguments)
    }

    /// The values of a statement's leftmost column; NULL for a non-optional type throws.
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
        try Array(fetchCursor(statement, arguments: arguments))
    }

    /// The distinct values of a statement's leftmost column.
    @inlinable
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Self>
    where Self: Hashable {
        try Set(fetchCursor(statement, arguments: arguments))
    }

    /// The value of the first row: nil when there is no row, or (for non-optional types) when it is NULL.
    @inlinable
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
        try prepareForFetch(statement, arguments: arguments, requiresColumn: true)
        var done = false
        guard try stepStatement(statement, done: &done) else { return nil }
        let dbValue = DatabaseValue(sqliteStatement: statement.sqliteStatement, index: 0)
        if let value = Self.fromDatabaseValue(dbValue) {
            finishFetchOne(statement)
            return value
        }
        if dbValue.isNull {
            finishFetchOne(statement)
            return nil
        }
        let error = decodingError(dbValue, Self.self, statement)
        finishFetchOne(statement)
        throw error
    }

    /// A cursor over the values of a query's leftmost column.
    ///
    ///     let urls = try URL.fetchCursor(db, sql: "SELECT url FROM link")
    @inlinable
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> DatabaseValueCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The values of a query's leftmost column.
    ///
    ///     let names = try String.fetchAll(db, sql: "SELECT name FROM player")
    @inlinable
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The distinct values of a query's leftmost column.
    @inlinable
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Set<Self> where Self: Hashable {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The value of the first row of a query: nil for no row (and, for non-optional types, for NULL).
    ///
    ///     let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
    ///     let value = try Optional<Int>.fetchOne(db, sql: "SELECT NULL")   // .some(nil)
    @inlinable
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over a statement's leftmost column, read with `sqlite3_column_*`.
    @inlinable
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws
        -> FastDatabaseValueCursor<Self>
    {
        try FastDatabaseValueCursor(statement: statement, arguments: arguments)
    }

    /// The values of a statement's leftmost column, read with `sqlite3_column_*`.
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
        try prepareForFetch(statement, arguments: arguments, requiresColumn: true)
        var done = false
        var values: [Self] = []
        let sqliteStatement = statement.sqliteStatement
        while try stepStatement(statement, done: &done) {
            guard let value = Self(sqliteStatement: sqliteStatement, index: 0) else {
                throw fastDecodingError(statement, Self.self)
            }
            values.append(value)
        }
        return values
    }

    /// The distinct values of a statement's leftmost column.
    @inlinable
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Self>
    where Self: Hashable {
        Set(try fetchAll(statement, arguments: arguments))
    }

    /// The value of the first row: nil when there is no row, or (for non-optional types) when it is NULL.
    @inlinable
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
        try prepareForFetch(statement, arguments: arguments, requiresColumn: true)
        var done = false
        guard try stepStatement(statement, done: &done) else { return nil }
        let sqliteStatement = statement.sqliteStatement
        if let value = Self(sqliteStatement: sqliteStatement, index: 0) {
            finishFetchOne(statement)
            return value
        }
        if columnIsNull(sqliteStatement, 0) {
            finishFetchOne(statement)
            return nil
        }
        throw fastDecodingError(statement, Self.self)
    }

    /// A cursor over a query's leftmost column, read with `sqlite3_column_*`.
    @inlinable
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> FastDatabaseValueCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The values of a query's leftmost column, read with `sqlite3_column_*`.
    @inlinable
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The distinct values of a query's leftmost column.
    @inlinable
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Set<Self> where Self: Hashable {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The value of the first row of a query: nil for no row (and, for non-optional types, for NULL).
    @inlinable
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
