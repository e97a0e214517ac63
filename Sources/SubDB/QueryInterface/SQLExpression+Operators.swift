// Operators that build SQL from columns and values: `Column("score") > 1000`, `Column("name") == nil`.

private func binary(_ op: String, _ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
    SQLExpression(.binary(op: op, lhs: lhs, rhs: rhs))
}

private func equality(_ lhs: SQLExpression, _ rhs: SQLExpression, negated: Bool) -> SQLExpression {
    if case .value(let value) = rhs.impl, value.isNull { return SQLExpression(.isNull(lhs, negated: negated)) }
    if case .value(let value) = lhs.impl, value.isNull { return SQLExpression(.isNull(rhs, negated: negated)) }
    return binary(negated ? "<>" : "=", lhs, rhs)
}

// MARK: Equality

/// `lhs = rhs`, or `lhs IS NULL` when rhs is nil.
public func == (lhs: some SQLSpecificExpressible, rhs: (any DatabaseValueConvertible)?) -> SQLExpression {
    equality(lhs.sqlExpression, expressionOf(rhs), negated: false)
}
/// `lhs = rhs`, or `rhs IS NULL` when lhs is nil.
public func == (lhs: (any DatabaseValueConvertible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equality(expressionOf(lhs), rhs.sqlExpression, negated: false)
}
/// `lhs = rhs` between two expressions.
public func == (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equality(lhs.sqlExpression, rhs.sqlExpression, negated: false)
}
/// `lhs <> rhs`, or `lhs IS NOT NULL` when rhs is nil.
public func != (lhs: some SQLSpecificExpressible, rhs: (any DatabaseValueConvertible)?) -> SQLExpression {
    equality(lhs.sqlExpression, expressionOf(rhs), negated: true)
}
/// `lhs <> rhs`, or `rhs IS NOT NULL` when lhs is nil.
public func != (lhs: (any DatabaseValueConvertible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equality(expressionOf(lhs), rhs.sqlExpression, negated: true)
}
/// `lhs <> rhs` between two expressions.
public func != (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equality(lhs.sqlExpression, rhs.sqlExpression, negated: true)
}
/// `lhs IS rhs`.
public func === (lhs: some SQLSpecificExpressible, rhs: (any DatabaseValueConvertible)?) -> SQLExpression {
    binary("IS", lhs.sqlExpression, expressionOf(rhs))
}
/// `lhs IS NOT rhs`.
public func !== (lhs: some SQLSpecificExpressible, rhs: (any DatabaseValueConvertible)?) -> SQLExpression {
    binary("IS NOT", lhs.sqlExpression, expressionOf(rhs))
}

// MARK: Comparison

/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    binary("<", lhs.sqlExpression, expressionOf(rhs))
}
/// `lhs < rhs`.
public func < (lhs: any DatabaseValueConvertible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("<", expressionOf(lhs), rhs.sqlExpression)
}
/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("<", lhs.sqlExpression, rhs.sqlExpression)
}
/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    binary("<=", lhs.sqlExpression, expressionOf(rhs))
}
/// `lhs <= rhs`.
public func <= (lhs: any DatabaseValueConvertible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("<=", expressionOf(lhs), rhs.sqlExpression)
}
/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("<=", lhs.sqlExpression, rhs.sqlExpression)
}
/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    binary(">", lhs.sqlExpression, expressionOf(rhs))
}
/// `lhs > rhs`.
public func > (lhs: any DatabaseValueConvertible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary(">", expressionOf(lhs), rhs.sqlExpression)
}
/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary(">", lhs.sqlExpression, rhs.sqlExpression)
}
/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    binary(">=", lhs.sqlExpression, expressionOf(rhs))
}
/// `lhs >= rhs`.
public func >= (lhs: any DatabaseValueConvertible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary(">=", expressionOf(lhs), rhs.sqlExpression)
}
/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary(">=", lhs.sqlExpression, rhs.sqlExpression)
}

// MARK: Logic

/// `lhs AND rhs`.
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.associative(op: "AND", operands: [lhs.sqlExpression, rhs.sqlExpression], empty: "1"))
}
/// `lhs AND rhs`.
public func && (lhs: some SQLSpecificExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    SQLExpression(.associative(op: "AND", operands: [lhs.sqlExpression, expressionOf(rhs)], empty: "1"))
}
/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.associative(op: "OR", operands: [lhs.sqlExpression, rhs.sqlExpression], empty: "0"))
}
/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    SQLExpression(.associative(op: "OR", operands: [lhs.sqlExpression, expressionOf(rhs)], empty: "0"))
}
/// `NOT value`.
public prefix func ! (value: some SQLSpecificExpressible) -> SQLExpression {
    let expression = value.sqlExpression
    switch expression.impl {
    case .isNull(let operand, let negated): return SQLExpression(.isNull(operand, negated: !negated))
    case .inList(let operand, let list, let negated): return SQLExpression(.inList(operand, list, negated: !negated))
    case .between(let operand, let low, let high, let negated):
        return SQLExpression(.between(operand, low: low, high: high, negated: !negated))
    default: return SQLExpression(.prefix(op: "NOT ", operand: expression))
    }
}

// MARK: Arithmetic

/// `lhs + rhs`.
public func + (lhs: some SQLSpecificExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    binary("+", lhs.sqlExpression, expressionOf(rhs))
}
/// `lhs + rhs`.
public func + (lhs: any DatabaseValueConvertible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("+", expressionOf(lhs), rhs.sqlExpression)
}
/// `lhs + rhs`.
public func + (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("+", lhs.sqlExpression, rhs.sqlExpression)
}
/// `lhs - rhs`.
public func - (lhs: some SQLSpecificExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    binary("-", lhs.sqlExpression, expressionOf(rhs))
}
/// `lhs - rhs`.
public func - (lhs: any DatabaseValueConvertible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("-", expressionOf(lhs), rhs.sqlExpression)
}
/// `lhs - rhs`.
public func - (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("-", lhs.sqlExpression, rhs.sqlExpression)
}
/// `lhs * rhs`.
public func * (lhs: some SQLSpecificExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    binary("*", lhs.sqlExpression, expressionOf(rhs))
}
/// `lhs * rhs`.
public func * (lhs: any DatabaseValueConvertible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("*", expressionOf(lhs), rhs.sqlExpression)
}
/// `lhs * rhs`.
public func * (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("*", lhs.sqlExpression, rhs.sqlExpression)
}
/// `lhs / rhs`.
public func / (lhs: some SQLSpecificExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    binary("/", lhs.sqlExpression, expressionOf(rhs))
}
/// `lhs / rhs`.
public func / (lhs: any DatabaseValueConvertible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("/", expressionOf(lhs), rhs.sqlExpression)
}
/// `lhs / rhs`.
public func / (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    binary("/", lhs.sqlExpression, rhs.sqlExpression)
}
/// `-value`.
public prefix func - (value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.prefix(op: "-", operand: value.sqlExpression))
}

// MARK: Methods

extension SQLSpecificExpressible {
    /// `self LIKE pattern`: `Column("name").like("%ar%")`.
    public func like(_ pattern: any DatabaseValueConvertible) -> SQLExpression {
        binary("LIKE", sqlExpression, expressionOf(pattern))
    }

    /// `self LIKE pattern ESCAPE escape`.
    public func like(_ pattern: any DatabaseValueConvertible, escape: any DatabaseValueConvertible) -> SQLExpression {
        binary("ESCAPE", binary("LIKE", sqlExpression, expressionOf(pattern)), expressionOf(escape))
    }

    /// `self GLOB pattern`.
    public func glob(_ pattern: any DatabaseValueConvertible) -> SQLExpression {
        binary("GLOB", sqlExpression, expressionOf(pattern))
    }

    /// `self COLLATE collation`: `Column("name").collating(.nocase)`.
    public func collating(_ collation: Database.CollationName) -> SQLExpression {
        SQLExpression(.collated(sqlExpression, collation: collation.rawValue))
    }
}

extension Sequence where Element: DatabaseValueConvertible {
    /// `expression IN (values)`: `[1, 2, 3].contains(Column("id"))`.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(
            .inList(expression.sqlExpression, map { SQLExpression(.value($0.databaseValue)) }, negated: false))
    }
}

extension Sequence where Element == any DatabaseValueConvertible {
    /// `expression IN (values)` over heterogeneous values.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(
            .inList(expression.sqlExpression, map { SQLExpression(.value($0.databaseValue)) }, negated: false))
    }
}

extension ClosedRange where Bound: DatabaseValueConvertible {
    /// `expression BETWEEN lower AND upper`: `(1...10).contains(Column("score"))`.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(
            .between(
                expression.sqlExpression, low: SQLExpression(.value(lowerBound.databaseValue)),
                high: SQLExpression(.value(upperBound.databaseValue)), negated: false))
    }
}

extension Range where Bound: DatabaseValueConvertible {
    /// `expression >= lower AND expression < upper`: `(1..<10).contains(Column("score"))`.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        (expression >= lowerBound) && (expression < upperBound)
    }
}

extension Database {
    /// A collation name for `collating(_:)`.
    public struct CollationName: RawRepresentable, Hashable, Sendable {
        /// The collation name as used in SQL.
        public var rawValue: String
        /// Creates a collation name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a collation name.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The built-in `BINARY` collation.
        public static let binary = CollationName("BINARY")
        /// The built-in `NOCASE` collation.
        public static let nocase = CollationName("NOCASE")
        /// The built-in `RTRIM` collation.
        public static let rtrim = CollationName("RTRIM")
    }
}
