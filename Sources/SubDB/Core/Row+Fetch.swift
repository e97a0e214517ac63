import Foundation
internal import CSQLite

extension Row {
    // MARK: From a statement

    /// A cursor over the rows of a statement; its `next()` returns the same live row at each step.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> RowCursor {
        try RowCursor(statement: statement, arguments: arguments)
    }

    /// All rows of a statement, as independent copies.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Row] {
        try prepareForFetch(statement, arguments: arguments)
        var done = false
        let count = statement.columnCount
        let sqliteStatement = statement.sqliteStatement
        // All values go to one buffer; rows are made once it is complete.
        var values = ContiguousArray<DatabaseValue>()
        var rowCount = 0
        while try stepStatement(statement, done: &done) {
            for index in 0..<Int32(count) {
                values.append(DatabaseValue(sqliteStatement: sqliteStatement, index: index))
            }
            rowCount += 1
        }
        if count == 0 {
            return (0..<rowCount).map { _ in Row(layout: statement.layout, values: []) }
        }
        let block = RowBlock(layout: statement.layout, values: values)
        var rows: [Row] = []
        rows.reserveCapacity(rowCount)
        for offset in stride(from: 0, to: values.count, by: count) {
            rows.append(Row(block: block, offset: offset))
        }
        return rows
    }

    /// The distinct rows of a statement.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Row> {
        Set(try fetchAll(statement, arguments: arguments))
    }

    /// The first row of a statement, or nil.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Row? {
        try prepareForFetch(statement, arguments: arguments)
        var done = false
        guard try stepStatement(statement, done: &done) else { return nil }
        let row = Row(copying: statement)
        statement.reset()
        return row
    }

    // MARK: From SQL

    /// A cursor over the rows of a query; its `next()` returns the same live row at each step.
    ///
    ///     let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
    ///     while let row = try rows.next() { let name: String = row["name"] }
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> RowCursor {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// All rows of a query, as independent copies.
    ///
    ///     let rows = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE name = ?", arguments: ["Arthur"])
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> [Row] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The distinct rows of a query.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Set<Row> {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The first row of a query, or nil.
    ///
    ///     if let row = try Row.fetchOne(db, sql: "SELECT * FROM wine WHERE id = ?", arguments: [1]) { ... }
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Row? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
