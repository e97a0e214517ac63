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

    /// A request from raw SQL and arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        literal = SQL(sql: sql, arguments: arguments)
    }

    /// A request from an SQL literal.
    public init(literal: SQL) { self.literal = literal }

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

    /// The same request, fetching another type.
    public func asRequest<T>(of type: T.Type) -> SQLRequest<T> { SQLRequest<T>(literal: literal) }
}
