// SQL functions and aggregates of the query interface: `Player.select(max(Column("score")))`.

private func function(_ name: String, _ arguments: SQLExpression...) -> SQLExpression {
    SQLExpression(.function(name: name, arguments: arguments))
}

/// `COUNT(expression)`: `Player.select(count(Column("id")))`.
public func count(_ expression: some SQLSelectable) -> SQLExpression {
    if expression is AllColumns { return SQLExpression(.countAll) }
    return function("COUNT", expression.selectionExpression)
}

/// `COUNT(DISTINCT expression)`.
public func count(distinct expression: some SQLSpecificExpressible) -> SQLExpression {
    function("COUNT", SQLExpression(.distinct(expression.sqlExpression)))
}

/// `MAX(expression)`.
public func max(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    function("MAX", expression.sqlExpression)
}

/// `MIN(expression)`.
public func min(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    function("MIN", expression.sqlExpression)
}

/// `SUM(expression)`.
public func sum(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    function("SUM", expression.sqlExpression)
}

/// `TOTAL(expression)`.
public func total(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    function("TOTAL", expression.sqlExpression)
}

/// `AVG(expression)`.
public func average(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    function("AVG", expression.sqlExpression)
}

/// `LENGTH(expression)`.
public func length(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    function("LENGTH", expression.sqlExpression)
}

/// `ABS(expression)`.
public func abs(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    function("ABS", expression.sqlExpression)
}

/// `IFNULL(expression, value)`: `Column("nickname") ?? Column("name")`.
public func ?? (lhs: some SQLSpecificExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    function("IFNULL", lhs.sqlExpression, expressionOf(rhs))
}

/// `IFNULL(lhs, rhs)` between expressions.
public func ?? (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    function("IFNULL", lhs.sqlExpression, rhs.sqlExpression)
}

extension SQLSpecificExpressible {
    /// `swiftUppercaseString(self)`: Swift's `uppercased()`, as in GRDB (SQLite's `UPPER` only knows ASCII).
    public var uppercased: SQLExpression { DatabaseFunction.uppercase(sqlExpression) }
    /// `swiftLowercaseString(self)`: Swift's `lowercased()`, as in GRDB.
    public var lowercased: SQLExpression { DatabaseFunction.lowercase(sqlExpression) }
    /// `swiftCapitalizedString(self)`: Swift's `capitalized`, as in GRDB.
    public var capitalized: SQLExpression { DatabaseFunction.capitalize(sqlExpression) }
    /// `swiftLocalizedUppercaseString(self)`: Swift's `localizedUppercase`.
    public var localizedUppercased: SQLExpression { DatabaseFunction.localizedUppercase(sqlExpression) }
    /// `swiftLocalizedLowercaseString(self)`: Swift's `localizedLowercase`.
    public var localizedLowercased: SQLExpression { DatabaseFunction.localizedLowercase(sqlExpression) }
    /// `swiftLocalizedCapitalizedString(self)`: Swift's `localizedCapitalized`.
    public var localizedCapitalized: SQLExpression { DatabaseFunction.localizedCapitalize(sqlExpression) }
}

/// An SQL function call of your own: `SQLFunction("bm25")(Column("book"))`.
public struct SQLFunction: Sendable {
    /// The function name.
    public let name: String
    /// Creates a function by name.
    public init(_ name: String) { self.name = name }
    /// The function applied to arguments.
    public func callAsFunction(_ arguments: any SQLExpressible...) -> SQLExpression {
        SQLExpression(.function(name: name, arguments: arguments.map(\.sqlExpression)))
    }
}
