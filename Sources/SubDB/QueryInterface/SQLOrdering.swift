/// A term of an ORDER BY clause: an expression, or an expression with a direction (`Column("score").desc`).
public protocol SQLOrderingTerm {
    /// The ordering term.
    var sqlOrdering: SQLOrdering { get }
}

/// An ordering term: an expression followed by `ASC`, `DESC`, and `NULLS FIRST/LAST`.
///
///     Player.order(Column("score").desc, Column("name"))
public struct SQLOrdering: SQLOrderingTerm, Sendable {
    enum Direction: String, Sendable {
        case none = ""
        case asc = " ASC"
        case desc = " DESC"
        case ascNullsLast = " ASC NULLS LAST"
        case descNullsFirst = " DESC NULLS FIRST"

        var reversed: Direction {
            switch self {
            case .none, .asc: return .desc
            case .desc: return .asc
            case .ascNullsLast: return .descNullsFirst
            case .descNullsFirst: return .ascNullsLast
            }
        }
    }

    let expression: SQLExpression
    let direction: Direction

    /// The ordering itself.
    public var sqlOrdering: SQLOrdering { self }

    /// The ordering in the opposite direction.
    public var reversed: SQLOrdering { SQLOrdering(expression: expression, direction: direction.reversed) }

    func sql(_ context: inout SQLGenerationContext) -> String {
        let sql = expression.sql(&context)
        return direction == .none ? sql : (expression.isAtomic ? sql : "(\(sql))") + direction.rawValue
    }
}

/// An ordering given as raw SQL: `Player.order(sql: "score DESC")`.
struct SQLLiteralOrdering: SQLOrderingTerm {
    let sql: String
    let arguments: [DatabaseValue]
    var sqlOrdering: SQLOrdering {
        SQLOrdering(expression: SQLExpression(.literal(sql: sql, arguments: arguments)), direction: .none)
    }
}

extension SQLSpecificExpressible {
    /// The expression as an ordering term.
    public var sqlOrdering: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: .none) }
    /// `expression ASC`.
    public var asc: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: .asc) }
    /// `expression DESC`.
    public var desc: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: .desc) }
    /// `expression ASC NULLS LAST`.
    public var ascNullsLast: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: .ascNullsLast) }
    /// `expression DESC NULLS FIRST`.
    public var descNullsFirst: SQLOrdering { SQLOrdering(expression: sqlExpression, direction: .descNullsFirst) }
}
