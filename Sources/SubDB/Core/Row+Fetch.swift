internal import CSQLite
import Foundation

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
        var rows: [Row] = []
        // Columns are known after the first step (SQLite may recompile the statement then).
        guard try stepStatement(statement, done: &done) else { return rows }
        let count = statement.columnCount
        let layout = statement.layout
        let sqliteStatement = statement.sqliteStatement
        guard count > 0 else {
            repeat { rows.append(Row(layout: layout, values: [])) } while try stepStatement(statement, done: &done)
            return rows
        }
        // Values go to blocks of up to `rowsPerBlock` rows: one allocation per row (the Row) instead of two.
        let rowsPerBlock = 1024
        var values = ContiguousArray<DatabaseValue>()
        values.reserveCapacity(count * 16)
        repeat {
            for index in 0..<Int32(count) {
                values.append(DatabaseValue(sqliteStatement: sqliteStatement, index: index))
            }
            if values.count == rowsPerBlock * count {
                appendRows(of: &values, layout: layout, count: count, to: &rows)
                values.reserveCapacity(rowsPerBlock * count)
            }
        } while try stepStatement(statement, done: &done)
        if !values.isEmpty { appendRows(of: &values, layout: layout, count: count, to: &rows) }
        return rows
    }

    /// Moves `values` into a block and appends one row per `count` values.
    static func appendRows(
        of values: inout ContiguousArray<DatabaseValue>, layout: RowLayout, count: Int, to rows: inout [Row]
    ) {
        let block = RowBlock(layout: layout, values: values)
        values = ContiguousArray()
        for offset in stride(from: 0, to: block.values.count, by: count) {
            rows.append(Row(block: block, offset: offset))
        }
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
