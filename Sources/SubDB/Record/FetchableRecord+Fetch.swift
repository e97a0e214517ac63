// Fetching records from SQL and from prepared statements.

/// A cursor of records decoded from the rows of a statement.
///
///     let players = try Player.fetchCursor(db, sql: "SELECT * FROM player")
///     while let player = try players.next() { print(player.name) }
public final class RecordCursor<Record: FetchableRecord>: DatabaseCursor {
    /// The statement being stepped.
    public var statement: Statement { rows.statement }
    private let rows: RowCursor
    private let context: RecordDecodingContext

    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        rows = try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
        context = RecordDecodingContext(layout: rows.adaptedRowMaker?.layout ?? statement.layout)
    }

    /// The next record, or nil.
    public func next() throws -> Record? {
        guard let row = try rows.next() else { return nil }
        return try context.decode(Record.self, row: row)
    }
}

extension FetchableRecord {
    /// A cursor over records decoded from a prepared statement.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws
        -> RecordCursor<Self>
    {
        try RecordCursor(statement: statement, arguments: arguments)
    }

    /// Records decoded from a prepared statement.
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let context = statement.recordDecodingContext()
        defer { context.detachRows() }
        return try context.withCurrent {
            var records: [Self] = []
            while let row = try rows.next() {
                records.append(try Self(row: row))
            }
            return records
        }
    }

    /// Records decoded from a prepared statement, as a set.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Self>
    where Self: Hashable {
        Set(try fetchAll(statement, arguments: arguments))
    }

    /// The first record decoded from a prepared statement.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        guard let row = try rows.next() else { return nil }
        let context = statement.recordDecodingContext()
        defer { context.detachRows() }
        return try context.decode(Self.self, row: row)
    }

    /// A cursor over records decoded from SQL: `Player.fetchCursor(db, sql: "SELECT * FROM player")`.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> RecordCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// Records decoded from SQL: `Player.fetchAll(db, sql: "SELECT * FROM player")`.
    @inlinable
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments())
        throws -> [Self]
    {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// Records decoded from SQL, as a set.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments())
        throws -> Set<Self> where Self: Hashable
    {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The first record decoded from SQL.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments())
        throws -> Self?
    {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
