/// A column of a database table, for the query interface: `Player.filter(Column("score") > 1000)`.
///
///     let score = Column("score")
///     let name = Column(CodingKeys.name)
public struct Column: SQLSpecificExpressible, Sendable, Hashable {
    /// The hidden rowid column.
    public static let rowID = Column("rowid")

    /// The column name.
    public var name: String

    /// Creates a column from its name.
    public init(_ name: String) { self.name = name }

    /// Creates a column from a coding key, as records do: `Column(CodingKeys.name)`.
    public init(_ codingKey: some CodingKey) { self.name = codingKey.stringValue }

    /// The column as an expression.
    public var sqlExpression: SQLExpression { SQLExpression(.column(name: name, table: nil)) }

    /// The column of a given table, for joined SQL: `Column("id").qualified(with: "player")`.
    public func qualified(with tableName: String) -> SQLExpression {
        SQLExpression(.column(name: name, table: tableName))
    }
}

extension Column: ExpressibleByStringLiteral {
    /// A column from a string literal: `let c: Column = "score"`.
    public init(stringLiteral value: String) { self.name = value }
}
