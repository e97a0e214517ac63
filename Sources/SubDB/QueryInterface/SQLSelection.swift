/// Something that can be selected: `*`, a column, an expression, or an aliased expression.
///
///     Player.select(Column("name"), max(Column("score")).forKey("maxScore"))
public protocol SQLSelectable {
    /// The selection.
    var sqlSelection: SQLSelection { get }
}

/// A selected result column.
public struct SQLSelection: SQLSelectable, Sendable {
    enum Impl: Sendable {
        case allColumns
        case expression(SQLExpression)
        case aliased(SQLExpression, alias: String)
    }

    let impl: Impl

    /// The selection itself.
    public var sqlSelection: SQLSelection { self }

    func sql(_ context: inout SQLGenerationContext) -> String {
        switch impl {
        case .allColumns: return "*"
        case .expression(let expression): return expression.sql(&context)
        case .aliased(let expression, let alias):
            return "\(expression.sql(&context)) AS \(alias.quotedDatabaseIdentifier)"
        }
    }

    /// The expression counted by `fetchCount`, nil for `*`.
    var countExpression: SQLExpression? {
        switch impl {
        case .allColumns: return nil
        case .expression(let expression), .aliased(let expression, _): return expression
        }
    }
}

/// `*`, all columns: `Player.select(AllColumns())`.
public struct AllColumns: SQLSelectable, Sendable {
    /// Creates the `*` selection.
    public init() {}
    /// The `*` selection.
    public var sqlSelection: SQLSelection { SQLSelection(impl: .allColumns) }
}

extension SQLSelectable where Self == SQLSelection {
    /// `*`, all columns, for leading-dot syntax: `Player.select(.allColumns, .rowID)`.
    public static var allColumns: SQLSelection { SQLSelection(impl: .allColumns) }

    /// The `rowid` column, for leading-dot syntax: `Player.select(.allColumns, .rowID)`.
    public static var rowID: SQLSelection { Column.rowID.sqlSelection }
}

extension SQLSelectable {
    /// The selection as an expression, for `count(_:)`.
    var selectionExpression: SQLExpression {
        switch sqlSelection.impl {
        case .allColumns: return SQLExpression(.literal(sql: "*", arguments: []))
        case .expression(let expression), .aliased(let expression, _): return expression
        }
    }
}

extension SQLSpecificExpressible {
    /// The expression as a selected column.
    public var sqlSelection: SQLSelection { SQLSelection(impl: .expression(sqlExpression)) }

    /// The expression selected under a name: `max(Column("score")).forKey("maxScore")`.
    public func forKey(_ key: String) -> SQLSelection { SQLSelection(impl: .aliased(sqlExpression, alias: key)) }

    /// The expression selected under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> SQLSelection { forKey(key.stringValue) }

    /// The expression selected under a name (`AS alias`), same as `forKey(_:)`.
    public func aliased(_ alias: String) -> SQLSelection { forKey(alias) }
}
