internal import CSQLite
import Foundation

/// A cursor that steps a compiled statement. It resets the statement when exhausted or released.
public protocol DatabaseCursor<Element>: Cursor {
    /// The statement being stepped.
    var statement: Statement { get }
}

/// Steps a statement: true for a row, false when done (statement reset), throws on error (statement reset).
@usableFromInline
func stepStatement(_ statement: Statement, done: inout Bool) throws -> Bool {
    if done { return false }
    let code = statement.step()
    if code == SQLITE_ROW { return true }
    done = true
    if code == SQLITE_DONE {
        statement.reset()
        if statement.changesSchema { statement.database.clearSchemaCache() }
        return false
    }
    let error = statement.stepError(code)
    statement.reset()
    throw error
}

/// Binds the arguments of a statement about to be fetched from.
@usableFromInline
func prepareForFetch(_ statement: Statement, arguments: StatementArguments?, requiresColumn: Bool = false) throws {
    statement.resetIfNeeded()
    if let arguments { try statement.setArguments(arguments) }
    if requiresColumn && statement.columnCount == 0 {
        throw DatabaseError.misuse("SQL does not return any column", sql: statement.sql)
    }
}

/// Ends a fetch that stopped after its first row.
@usableFromInline
func finishFetchOne(_ statement: Statement) {
    statement.reset()
}

/// The error for a leftmost value that the fast path cannot convert; resets the statement.
@usableFromInline
func fastDecodingError<T>(_ statement: Statement, _ type: T.Type) -> RowDecodingError {
    let error = decodingError(DatabaseValue(sqliteStatement: statement.sqliteStatement, index: 0), type, statement)
    statement.reset()
    return error
}

/// A cursor of rows. `next()` returns the same ``Row`` instance at each step, a live view over the statement:
/// use `row.copy()` to keep a row beyond the step.
///
///     let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
///     while let row = try rows.next() {
///         let name: String = row["name"]
///     }
public final class RowCursor: DatabaseCursor {
    /// The statement being stepped.
    public let statement: Statement
    /// The live row.
    @usableFromInline var row: Row
    @exclusivity(unchecked) @usableFromInline var done = false
    @exclusivity(unchecked) @usableFromInline var isFirstStep = true
    /// Makes the adapted copy of each row, when the cursor was made with a ``RowAdapter``.
    @usableFromInline let adaptedRowMaker: AdaptedRowMaker?

    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        try prepareForFetch(statement, arguments: arguments)
        self.statement = statement
        self.row = Row(statement: statement)
        self.adaptedRowMaker = try adapter.map {
            AdaptedRowMaker(try $0.rowAdapterLayout(columnNames: statement.columnNames))
        }
    }

    deinit {
        if !done { statement.reset() }
    }

    /// The column names of the rows.
    public var columnNames: [String] { statement.columnNames }

    /// The SQL of the statement, as GRDB's `RowCursor.sql`.
    public var sql: String { statement.sql }

    /// The next row (the same instance, now showing the next step), or nil. With an adapter, each row is an
    /// adapted copy.
    @inlinable
    public func next() throws -> Row? {
        guard try stepStatement(statement, done: &done) else { return nil }
        let row = isFirstStep ? firstRow() : self.row
        if let adaptedRowMaker { return adaptedRowMaker.adapt(row) }
        return row
    }

    /// The live row after the first step, made again when a schema change recompiled the statement with other
    /// columns.
    @usableFromInline
    func firstRow() -> Row {
        isFirstStep = false
        if row.layout !== statement.layout { row = Row(statement: statement) }
        return row
    }
}

/// A cursor of values decoded with `fromDatabaseValue` from the leftmost column.
public final class DatabaseValueCursor<Value: DatabaseValueConvertible>: DatabaseCursor {
    /// The statement being stepped.
    public let statement: Statement
    @exclusivity(unchecked) @usableFromInline var done = false
    /// The column read: 0, or the column a row adapter shows first.
    @usableFromInline let columnIndex: Int32

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        try prepareForFetch(statement, arguments: arguments, requiresColumn: true)
        self.statement = statement
        if let adapter {
            guard let first = try adapter.rowAdapterLayout(columnNames: statement.columnNames).columns.first else {
                throw DatabaseError.misuse("the row adapter selects no column", sql: statement.sql)
            }
            columnIndex = Int32(first.index)
        } else {
            columnIndex = 0
        }
    }

    deinit {
        if !done { statement.reset() }
    }

    /// The next value; NULL for a non-optional type, or a failed conversion, throws ``RowDecodingError``.
    @inlinable
    public func next() throws -> Value? {
        guard try stepStatement(statement, done: &done) else { return nil }
        let dbValue = DatabaseValue(sqliteStatement: statement.sqliteStatement, index: columnIndex)
        if let value = Value.fromDatabaseValue(dbValue) { return value }
        throw decodingError(dbValue, Value.self, statement)
    }
}

/// A cursor of values read straight from the leftmost column with `sqlite3_column_*`.
public final class FastDatabaseValueCursor<Value: DatabaseValueConvertible & StatementColumnConvertible>:
    DatabaseCursor
{
    /// The statement being stepped.
    public let statement: Statement
    @usableFromInline let sqliteStatement: OpaquePointer
    @exclusivity(unchecked) @usableFromInline var done = false

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments?) throws {
        try prepareForFetch(statement, arguments: arguments, requiresColumn: true)
        self.statement = statement
        self.sqliteStatement = statement.sqliteStatement
    }

    deinit {
        if !done { statement.reset() }
    }

    /// The next value; NULL for a non-optional type, or a failed conversion, throws ``RowDecodingError``.
    @inlinable
    public func next() throws -> Value? {
        guard try stepStatement(statement, done: &done) else { return nil }
        if let value = Value(sqliteStatement: sqliteStatement, index: 0) { return value }
        throw decodingError(DatabaseValue(sqliteStatement: sqliteStatement, index: 0), Value.self, statement)
    }
}

/// The error for a value of the leftmost column that cannot be decoded. Resets the statement.
@usableFromInline
func decodingError<T>(_ dbValue: DatabaseValue, _ type: T.Type, _ statement: Statement) -> RowDecodingError {
    let row = Row(copying: statement)
    let error = RowDecodingError.conversion(
        dbValue, to: type, index: 0, column: statement.columnNames.first, row: row, statement: statement)
    return error
}

/// A cursor that steps a statement and produces nothing: each `next()` is one `sqlite3_step`, as the cursor of
/// GRDB's `Statement.makeCursor(arguments:)`. Read the current row from the statement between steps, or just
/// run a statement step by step.
///
///     let cursor = try statement.makeCursor()
///     while try cursor.next() != nil { stepCount += 1 }
public final class StatementCursor: DatabaseCursor {
    /// The statement being stepped.
    public let statement: Statement
    @exclusivity(unchecked) var done = false

    init(statement: Statement, arguments: StatementArguments?) throws {
        try prepareForFetch(statement, arguments: arguments)
        self.statement = statement
    }

    deinit {
        if !done { statement.reset() }
    }

    /// Steps the statement: `()` for a row, nil when it is done (the statement is then reset).
    public func next() throws -> Void? {
        try stepStatement(statement, done: &done) ? () : nil
    }
}

extension Statement {
    /// A cursor whose `next()` steps the statement once (`sqlite3_step`), with new arguments if given; see
    /// ``StatementCursor``.
    public func makeCursor(arguments: StatementArguments? = nil) throws -> StatementCursor {
        try StatementCursor(statement: self, arguments: arguments)
    }
}
