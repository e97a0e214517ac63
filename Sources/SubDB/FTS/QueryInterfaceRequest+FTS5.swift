// Full-text matching in the query interface.

extension QueryInterfaceRequest {
    /// Keeps the rows of an FTS5 table that match the pattern: `WHERE "book" MATCH ?`. A nil pattern matches
    /// nothing, so that `matching(FTS5Pattern(matchingAllTokensIn: userInput))` is safe.
    public func matching(_ pattern: FTS5Pattern?) -> Self {
        guard let pattern else { return none() }
        return filter(
            SQLExpression(
                .binary(
                    op: "MATCH", lhs: SQLExpression(.column(name: tableName, table: nil)),
                    rhs: SQLExpression(.value(pattern.databaseValue)))))
    }
}

extension TableRecord {
    /// The rows of the record's FTS5 table that match the pattern: `Book.matching(pattern)`.
    public static func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }
}

extension SQLSpecificExpressible {
    /// `column MATCH pattern` on an FTS5 column; nil matches nothing.
    public func match(_ pattern: FTS5Pattern?) -> SQLExpression {
        guard let pattern else { return SQLExpression(.literal(sql: "0", arguments: [])) }
        return SQLExpression(
            .binary(op: "MATCH", lhs: sqlExpression, rhs: SQLExpression(.value(pattern.databaseValue))))
    }
}
