import Foundation

/// A type that can be turned into an SQL expression: columns, expressions, and (through overloads) values.
///
///     let expression: SQLExpression = Column("score").sqlExpression
public protocol SQLExpressible {
    /// The SQL expression for this value.
    var sqlExpression: SQLExpression { get }
}

/// An ``SQLExpressible`` that is not a plain value, so that operators such as `==` build SQL instead of
/// comparing Swift values: `Column("score") > 1000`.
public protocol SQLSpecificExpressible: SQLExpressible, SQLSelectable, SQLOrderingTerm {}

/// An SQL expression, built by the query interface: `Column("score") > 1000`, `count(Column("id"))`.
///
///     let expression = Column("score") >= 1000 && Column("name") != nil
public struct SQLExpression: SQLSpecificExpressible, Sendable {
    indirect enum Impl: Sendable {
        case column(name: String, table: String?)
        /// A column of a ``TableAlias``, qualified with the alias's name once the request names it.
        case aliasedColumn(name: String, alias: TableAlias)
        case value(DatabaseValue)
        case literal(sql: String, arguments: [DatabaseValue])
        case binary(op: String, lhs: SQLExpression, rhs: SQLExpression)
        case associative(op: String, operands: [SQLExpression], empty: String)
        case prefix(op: String, operand: SQLExpression)
        case function(name: String, arguments: [SQLExpression])
        case countAll
        case distinct(SQLExpression)
        case isNull(SQLExpression, negated: Bool)
        case inList(SQLExpression, [SQLExpression], negated: Bool)
        case between(SQLExpression, low: SQLExpression, high: SQLExpression, negated: Bool)
        case collated(SQLExpression, collation: String)
        case subquery(sql: String, arguments: [DatabaseValue])
    }

    let impl: Impl

    init(_ impl: Impl) { self.impl = impl }

    /// An expression from raw SQL and its arguments: `SQLExpression(sql: "score + ?", arguments: [1])`.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        impl = .literal(sql: sql, arguments: arguments.subdbValues)
    }

    /// An expression from an SQL literal: `SQLExpression(literal: "score + \(bonus)")`.
    public init(literal: SQL) {
        let (sql, arguments) = literal.build()
        impl = .literal(sql: sql, arguments: arguments.values)
    }

    /// An expression made of a single value, bound as a statement argument.
    public init(value: (any DatabaseValueConvertible)?) {
        impl = .value(value?.databaseValue ?? .null)
    }

    /// The expression itself.
    public var sqlExpression: SQLExpression { self }

    /// True when the expression is a plain column (used to name selected columns).
    var columnName: String? {
        switch impl {
        case .column(let name, _), .aliasedColumn(let name, _): return name
        default: break
        }
        return nil
    }

    /// Expressions that bind as a whole without parentheses.
    var isAtomic: Bool {
        switch impl {
        case .column, .aliasedColumn, .value, .function, .countAll, .subquery: return true
        case .literal(let sql, _): return !sql.contains(" ")
        default: return false
        }
    }

    /// Renders the expression as SQL, appending its arguments to `context`.
    func sql(_ context: inout SQLGenerationContext) -> String {
        switch impl {
        case .column(let name, let table):
            if let table { return "\(table.quotedDatabaseIdentifier).\(name.quotedDatabaseIdentifier)" }
            return name.quotedDatabaseIdentifier
        case .aliasedColumn(let name, let alias):
            guard let table = alias.sqlName else { return name.quotedDatabaseIdentifier }
            return "\(table.quotedDatabaseIdentifier).\(name.quotedDatabaseIdentifier)"
        case .value(let value):
            if value.isNull { return "NULL" }
            if context.inlineValues { return SQLLiteral.sql(value) }
            context.arguments.append(value)
            return "?"
        case .literal(let sql, let arguments):
            if context.inlineValues && !arguments.isEmpty {
                return inlined(sql, arguments)
            }
            context.arguments.append(contentsOf: arguments)
            return sql
        case .subquery(let sql, let arguments):
            context.arguments.append(contentsOf: arguments)
            return "(\(sql))"
        case .binary(let op, let lhs, let rhs):
            return "\(lhs.operandSQL(&context)) \(op) \(rhs.operandSQL(&context))"
        case .associative(let op, let operands, let empty):
            if operands.isEmpty { return empty }
            if operands.count == 1 { return operands[0].sql(&context) }
            return operands.map { $0.operandSQL(&context) }.joined(separator: " \(op) ")
        case .prefix(let op, let operand):
            return op.hasSuffix(" ") || !operand.isAtomic
                ? "\(op)\(operand.operandSQL(&context))" : "\(op)\(operand.sql(&context))"
        case .function(let name, let arguments):
            return "\(name)(\(arguments.map { $0.sql(&context) }.joined(separator: ", ")))"
        case .countAll:
            return "COUNT(*)"
        case .distinct(let expression):
            return "DISTINCT \(expression.sql(&context))"
        case .isNull(let expression, let negated):
            return "\(expression.operandSQL(&context)) IS \(negated ? "NOT " : "")NULL"
        case .inList(let expression, let list, let negated):
            if list.isEmpty { return negated ? "1" : "0" }
            let lhs = expression.operandSQL(&context)
            let items = list.map { $0.sql(&context) }.joined(separator: ", ")
            return "\(lhs) \(negated ? "NOT IN" : "IN") (\(items))"
        case .between(let expression, let low, let high, let negated):
            let lhs = expression.operandSQL(&context)
            return
                "\(lhs) \(negated ? "NOT BETWEEN" : "BETWEEN") \(low.operandSQL(&context)) AND \(high.operandSQL(&context))"
        case .collated(let expression, let collation):
            return "\(expression.operandSQL(&context)) COLLATE \(collation)"
        }
    }

    /// Replaces the `?` of raw SQL with literals, for DDL.
    private func inlined(_ sql: String, _ arguments: [DatabaseValue]) -> String {
        var result = ""
        var remaining = arguments[...]
        for character in sql {
            if character == "?", let value = remaining.popFirst() {
                result += SQLLiteral.sql(value)
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Renders the expression, wrapped in parentheses unless it is atomic.
    func operandSQL(_ context: inout SQLGenerationContext) -> String {
        isAtomic ? sql(&context) : "(\(sql(&context)))"
    }

    /// The expression qualified with a table name, for columns.
    func qualified(with table: String) -> SQLExpression {
        if case .column(let name, nil) = impl { return SQLExpression(.column(name: name, table: table)) }
        return self
    }
}

/// Accumulates the statement arguments of the SQL the query interface generates.
struct SQLGenerationContext {
    var arguments: [DatabaseValue] = []
    /// Values written as SQL literals instead of `?` (DDL such as CHECK constraints).
    var inlineValues = false

    var statementArguments: StatementArguments { StatementArguments(arguments) }
}

extension SQLExpressible {
    /// Renders any expressible as SQL.
    func sql(_ context: inout SQLGenerationContext) -> String { sqlExpression.sql(&context) }
}

extension String {
    /// The string quoted as an SQL identifier: `"player"`.
    public var quotedDatabaseIdentifier: String {
        if !utf8.contains(UInt8(ascii: "\"")) { return "\"" + self + "\"" }
        var result = "\""
        for character in self {
            if character == "\"" { result += "\"\"" } else { result.append(character) }
        }
        return result + "\""
    }
}

extension DatabaseValue: SQLExpressible {
    /// The value as an expression bound as a statement argument.
    public var sqlExpression: SQLExpression { SQLExpression(.value(self)) }
}

/// Turns an optional value into an expression, NULL for nil.
func expressionOf(_ value: (any DatabaseValueConvertible)?) -> SQLExpression {
    if let expressible = value as? any SQLExpressible { return expressible.sqlExpression }
    return SQLExpression(.value(value?.databaseValue ?? .null))
}
