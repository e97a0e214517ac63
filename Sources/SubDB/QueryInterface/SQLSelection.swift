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
        /// The columns of the table but these (lowercased names), expanded with the schema before SQL is made.
        case allColumnsExcluding(Set<String>)
        case expression(SQLExpression)
        case aliased(SQLExpression, alias: String)
    }

    let impl: Impl

    /// The selection itself.
    public var sqlSelection: SQLSelection { self }

    func sql(_ context: inout SQLGenerationContext) -> String {
        switch impl {
        // Requests expand `allColumns(excluding:)` with the schema first (`expanded(_:tableName:)`); an SQL
        // literal, which has no database to ask, selects all columns.
        case .allColumns, .allColumnsExcluding: return "*"
        case .expression(let expression): return expression.sql(&context)
        case .aliased(let expression, let alias):
            return "\(expression.sql(&context)) AS \(alias.quotedDatabaseIdentifier)"
        }
    }

    /// The expression counted by `fetchCount`, nil for `*`.
    var countExpression: SQLExpression? {
        switch impl {
        case .allColumns, .allColumnsExcluding: return nil
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

/// All the columns of the requested table but some, as GRDB's: `Player.select(.allColumns(excluding: ["secret"]))`.
/// The columns come from the schema when the request makes its SQL, in table order, so the selection follows
/// columns added later; excluded names are compared without regard to case.
public struct AllColumnsExcluding: SQLSelectable, Sendable {
    /// The excluded column names, lowercased.
    let excludedColumns: Set<String>

    /// All columns but `excludedColumns`.
    public init(_ excludedColumns: some Collection<String>) {
        self.excludedColumns = Set(excludedColumns.map { $0.lowercased() })
    }

    /// The selection, expanded with the schema when SQL is made.
    public var sqlSelection: SQLSelection { SQLSelection(impl: .allColumnsExcluding(excludedColumns)) }
}

extension SQLSelectable where Self == AllColumnsExcluding {
    /// All columns of the requested table, excluding the named ones: `.allColumns(excluding: ["secret"])`.
    public static func allColumns(excluding excludedColumns: some Collection<String>) -> Self {
        AllColumnsExcluding(excludedColumns)
    }

    /// All columns of the requested table, excluding these: `.allColumns(excluding: [Columns.secret])`.
    public static func allColumns(excluding excludedColumns: some Collection<any ColumnExpression>) -> Self {
        AllColumnsExcluding(excludedColumns.map(\.name))
    }
}

extension Array where Element == SQLSelection {
    /// The selection with `allColumns(excluding:)` replaced by the remaining columns of `tableName`.
    func expanded(_ db: Database, tableName: String) throws -> [SQLSelection] {
        guard contains(where: { if case .allColumnsExcluding = $0.impl { true } else { false } }) else { return self }
        var result: [SQLSelection] = []
        for selection in self {
            guard case .allColumnsExcluding(let excluded) = selection.impl else {
                result.append(selection)
                continue
            }
            for column in try db.columns(in: tableName) where !excluded.contains(column.name.lowercased()) {
                result.append(Column(column.name).sqlSelection)
            }
        }
        return result
    }
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
        case .allColumns, .allColumnsExcluding: return SQLExpression(.literal(sql: "*", arguments: []))
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
