/// A database table for the query interface, without a record type: `Table("player").filter(...)`.
///
///     let playerTable = Table("player")
///     let rows = try playerTable.filter(Column("score") > 1000).fetchAll(db)   // [Row]
///     try playerTable.deleteAll(db)
public struct Table<RowDecoder>: Sendable {
    /// The table name.
    public let tableName: String

    /// A table whose requests fetch `RowDecoder` values.
    public init(_ tableName: String, as type: RowDecoder.Type = RowDecoder.self) { self.tableName = tableName }

    /// A request for all rows: `SELECT * FROM "table"`.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(tableName: tableName, selection: [AllColumns().sqlSelection])
    }

    /// A request that fetches nothing.
    public func none() -> QueryInterfaceRequest<RowDecoder> { all().none() }

    /// Rows that match an expression.
    public func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(predicate)
    }

    /// Rows that match raw SQL.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<RowDecoder>
    {
        all().filter(sql: sql, arguments: arguments)
    }

    /// The row with a primary key.
    public func filter(key: (any DatabaseValueConvertible)?) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(key: key)
    }

    /// Rows of an FTS5 table that match a pattern.
    public func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<RowDecoder> { all().matching(pattern) }

    /// Sorted rows.
    public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> {
        all().order(orderings)
    }

    /// Rows sorted by primary key (the rowid for a table without one).
    public func orderByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> { all().orderByPrimaryKey() }

    /// Selects the given columns and expressions.
    public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection)
    }

    /// Selected columns, fetched as `T`.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type) -> QueryInterfaceRequest<T> {
        all().select(selection).asRequest(of: T.self)
    }

    /// At most `limit` rows.
    public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> {
        all().limit(limit, offset: offset)
    }

    /// The number of rows.
    public func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }

    /// Deletes all rows; returns the number of deleted rows.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }

    /// Updates all rows; returns the number of changed rows.
    @discardableResult
    public func updateAll(_ db: Database, _ assignments: [ColumnAssignment]) throws -> Int {
        try all().updateAll(db, assignments)
    }
}

extension Table where RowDecoder == Row {
    /// A table whose requests fetch rows.
    public init(_ tableName: String) { self.tableName = tableName }

    /// All rows.
    public func fetchAll(_ db: Database) throws -> [Row] { try all().fetchAll(db) }

    /// The first row.
    public func fetchOne(_ db: Database) throws -> Row? { try all().fetchOne(db) }

    /// A cursor over the rows.
    public func fetchCursor(_ db: Database) throws -> RowCursor { try all().fetchCursor(db) }
}

extension Table where RowDecoder: FetchableRecord {
    /// All records.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }

    /// The first record.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }

    /// A cursor over the records.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try all().fetchCursor(db) }
}
