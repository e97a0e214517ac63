// Query interface values inside SQL literals: `"SELECT * FROM \(Player.self) WHERE \(Column("score")) > \(1000)"`.

extension SQL.StringInterpolation {
    /// The quoted table name of a record type: `\(Player.self)` → `"player"`.
    public mutating func appendInterpolation<T: TableRecord>(_ table: T.Type) {
        appendRawSQL(T.databaseTableName.quotedDatabaseIdentifier)
    }

    /// A column or expression, its values bound as arguments: `\(Column("score") + 10)`.
    public mutating func appendInterpolation(_ expression: some SQLSpecificExpressible) {
        var context = SQLGenerationContext()
        let sql = expression.sqlExpression.sql(&context)
        appendRawSQL(sql, arguments: context.statementArguments)
    }

    /// An ordering term: `\(Column("score").desc)`.
    public mutating func appendInterpolation(_ ordering: SQLOrdering) {
        var context = SQLGenerationContext()
        let sql = ordering.sql(&context)
        appendRawSQL(sql, arguments: context.statementArguments)
    }

    /// A selected expression, with its alias: `\(max(Column("score")).forKey("best"))`.
    public mutating func appendInterpolation(_ selection: SQLSelection) {
        var context = SQLGenerationContext()
        let sql = selection.sql(&context)
        appendRawSQL(sql, arguments: context.statementArguments)
    }

    /// A quoted identifier: `\(identifier: "my table")` → `"my table"`.
    public mutating func appendInterpolation(identifier: String) {
        appendRawSQL(identifier.quotedDatabaseIdentifier)
    }
}

/// A request from SQL, that fetches `RowDecoder` values.
///
///     let request: SQLRequest<Player> = "SELECT * FROM player WHERE score > \(1000)"
///     let players = try request.fetchAll(db)
///     let names = try SQLRequest<String>(sql: "SELECT name FROM player").fetchAll(db)
public struct SQLRequest<RowDecoder>: FetchRequest, ExpressibleByStringInterpolation, Sendable {
    /// The SQL literal.
    public let literal: SQL

    /// The adapter of the fetched rows, as GRDB's `SQLRequest.adapter`: it lets a request that joins tables
    /// feed records from scopes, or pick columns.
    ///
    ///     let request = SQLRequest<Row>(
    ///         sql: "SELECT player.*, team.* FROM player JOIN team ON team.id = player.teamId",
    ///         adapter: ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 3)]))
    public var adapter: (any RowAdapter)?

    /// A request from raw SQL and arguments. `cached` is accepted for GRDB's signature: SubDB's fetches always
    /// reuse the connection's compiled statement for the same SQL.
    public init(
        sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil,
        cached: Bool = false
    ) {
        literal = SQL(sql: sql, arguments: arguments)
        self.adapter = adapter
    }

    /// A request from an SQL literal, with an optional row adapter (`cached` as in ``init(sql:arguments:adapter:cached:)``).
    public init(literal: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.literal = literal
        self.adapter = adapter
    }

    /// A request from a string literal without interpolation.
    public init(stringLiteral value: String) { literal = SQL(stringLiteral: value) }

    /// A request from an interpolated string: values become arguments.
    public init(stringInterpolation: SQL.StringInterpolation) {
        literal = SQL(stringInterpolation: stringInterpolation)
    }

    /// The SQL and arguments.
    public func sqlAndArguments(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        literal.build()
    }

    /// The adapter given to the request.
    public func rowAdapter(_ db: Database) throws -> (any RowAdapter)? { adapter }

    /// The same request, fetching another type (the adapter stays).
    public func asRequest<T>(of type: T.Type) -> SQLRequest<T> { SQLRequest<T>(literal: literal, adapter: adapter) }
}

extension SQLRequest where RowDecoder == Row {
    /// A request of rows, as in GRDB: `SQLRequest(sql: "SELECT * FROM player")` is an `SQLRequest<Row>`.
    public init(
        sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil,
        cached: Bool = false
    ) {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter)
    }

    /// A request of rows from an SQL literal: `SQLRequest(literal: "SELECT * FROM player WHERE id = \(id)")`.
    public init(literal: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.literal = literal
        self.adapter = adapter
    }
}
