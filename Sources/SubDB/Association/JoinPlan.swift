// SQL generation for requests that join associations: aliases, JOIN clauses, qualified columns, and the
// layout of row scopes.

/// The parts of a query interface request, independent of the type it fetches.
struct RequestParts {
    let tableName: String
    let selection: [SQLSelection]
    let predicate: SQLExpression?
    let groupBy: [SQLExpression]
    let havings: [SQLExpression]
    let orderings: [SQLOrdering]
    let limitClause: String
    let isDistinct: Bool
    let joins: [AssociationJoin]
    let alias: TableAlias?
}

extension QueryInterfaceRequest {
    /// True when the SQL of the request has JOIN clauses or qualified columns (prefetches do not count: they
    /// run their own queries).
    var hasSQLJoins: Bool {
        tableAlias != nil
            || associationJoins.contains {
                if case .prefetch = $0 { return false }
                return true
            }
    }

    func parts(_ db: Database) throws -> RequestParts {
        RequestParts(
            tableName: tableName, selection: try selection.expanded(db, tableName: tableName),
            predicate: try wherePredicate(db), groupBy: groupBy,
            havings: havings, orderings: try effectiveOrderings(db), limitClause: limitClause,
            isDistinct: isDistinct, joins: associationJoins, alias: tableAlias)
    }

    /// The SELECT statement of a request with joins.
    func joinedSelectSQL(_ db: Database, _ context: inout SQLGenerationContext, forCount: Bool) throws -> String {
        try JoinPlan(db, parts(db)).sql(&context, forCount: forCount)
    }
}

/// The columns of a fetched row that belong to the request's table or to an included association, in
/// selection order: the base columns, then each included association depth-first.
struct ScopeLayout {
    var key: String
    var columnCount: Int
    var children: [ScopeLayout] = []
}

/// A request with joins, planned: table aliases, joined tables, and the scope layout of its rows.
struct JoinPlan {
    struct Node {
        let alias: String
        let tableName: String
        let isRequired: Bool
        /// (column of this table, alias of the joined-to table, column of that table).
        let conditions: [(own: String, otherAlias: String, other: String)]
        var filter: SQLExpression?
        /// The selection, when the node is an included association's destination.
        let selection: [SQLSelection]?
        let orderings: [SQLOrdering]
    }

    let base: RequestParts
    let baseAlias: String
    private(set) var nodes: [Node] = []
    private(set) var keySelections: [SQLExpression] = []
    private(set) var extraPredicates: [SQLExpression] = []
    private(set) var scope: ScopeLayout
    private var usedAliases: Set<String>
    private let db: Database

    init(_ db: Database, _ base: RequestParts) throws {
        self.db = db
        self.base = base
        baseAlias = base.alias?.name ?? base.tableName
        base.alias?.resolve(baseAlias)
        usedAliases = [baseAlias.lowercased()]
        scope = ScopeLayout(key: "", columnCount: try JoinPlan.columnCount(db, base.selection, base.tableName))
        var root = scope
        for join in base.joins {
            try add(
                join, parentTable: base.tableName, parentAlias: baseAlias, parentRequired: true,
                selectable: true, scope: &root)
        }
        scope = root
    }

    static func columnCount(_ db: Database, _ selection: [SQLSelection], _ tableName: String) throws -> Int {
        if selection.isEmpty { return try db.columns(in: tableName).count }
        var count = 0
        for item in selection {
            if case .allColumns = item.impl {
                count += try db.columns(in: tableName).count
            } else {
                count += 1
            }
        }
        return count
    }

    /// The alias of a joined table: the name of its ``TableAlias``, or a free one made from the table name.
    private mutating func allocateAlias(_ tableName: String, for tableAlias: TableAlias? = nil) -> String {
        if let name = tableAlias?.name {
            usedAliases.insert(name.lowercased())
            return name
        }
        var alias = tableName
        var index = 1
        while usedAliases.contains(alias.lowercased()) {
            index += 1
            alias = "\(tableName)\(index)"
        }
        usedAliases.insert(alias.lowercased())
        tableAlias?.resolve(alias)
        return alias
    }

    private mutating func add(
        _ join: AssociationJoin, parentTable: String, parentAlias: String, parentRequired: Bool,
        selectable: Bool, scope: inout ScopeLayout
    ) throws {
        switch join {
        case .prefetch(let association):
            // Prefetches of the request itself run after it; nested under a join they have no rows to attach to.
            if parentAlias != baseAlias {
                throw DatabaseError(
                    message: "including(all: \(association.key)) is not supported inside a joined association; "
                        + "prefetch from the request's own records instead")
            }
        case .join(let isRequired, let isIncluded, let association):
            let required = parentRequired && isRequired
            var originTable = parentTable
            var originAlias = parentAlias
            for (index, step) in association.steps.enumerated() {
                let pairs = try step.columnPairs(db, originTable: originTable)
                let alias = allocateAlias(step.tableName, for: step.request.tableAlias)
                let parts = try step.request.parts(db)
                let isLast = index == association.steps.count - 1
                let included = isLast && isIncluded && selectable
                nodes.append(
                    Node(
                        alias: alias, tableName: step.tableName, isRequired: required,
                        conditions: pairs.map { (own: $0.destination, otherAlias: originAlias, other: $0.origin) },
                        filter: parts.predicate, selection: included ? parts.selection : nil,
                        // A pivot's ordering (`hasMany(Role.self).order(...)` in a through association) orders the
                        // rows too, after the destination's, as in GRDB.
                        orderings: parts.orderings))
                if isLast {
                    // A joined (not included) association selects no column, but the associations included in it
                    // are selected, in its scope, which is then empty (as in GRDB).
                    var child = ScopeLayout(
                        key: association.key,
                        columnCount: included ? try JoinPlan.columnCount(db, parts.selection, step.tableName) : 0)
                    for nested in parts.joins {
                        try add(
                            nested, parentTable: step.tableName, parentAlias: alias, parentRequired: required,
                            selectable: selectable, scope: &child)
                    }
                    if included || !child.children.isEmpty { scope.children.append(child) }
                }
                originTable = step.tableName
                originAlias = alias
            }
        case .originKeys(let origin):
            try addOrigin(origin)
        }
    }

    /// Walks the association backwards from the request's table (its destination) to the table next to the
    /// origin, then filters on the origin's key: in the ON clause of that table's JOIN for a chained association
    /// (as GRDB filters the pivot), in WHERE for a direct one.
    private mutating func addOrigin(_ origin: OriginKeys) throws {
        let steps = origin.steps
        var currentAlias = baseAlias
        for index in stride(from: steps.count - 1, to: 0, by: -1) {
            let table = steps[index - 1].tableName
            let pairs = try steps[index].columnPairs(db, originTable: table)
            let alias = allocateAlias(table, for: steps[index - 1].request.tableAlias)
            let parts = try steps[index - 1].request.parts(db)
            nodes.append(
                Node(
                    alias: alias, tableName: table, isRequired: true,
                    conditions: pairs.map { (own: $0.origin, otherAlias: currentAlias, other: $0.destination) },
                    filter: parts.predicate, selection: nil, orderings: parts.orderings))
            currentAlias = alias
        }
        let pairs = try origin.firstStepPairs ?? steps[0].columnPairs(db, originTable: origin.originTable)
        let keyColumns = pairs.map { Column($0.destination).qualified(with: currentAlias) }
        if origin.selectsKeys {
            keySelections = keyColumns
        }
        var keyPredicates: [SQLExpression] = []
        if let tuples = origin.keyTuples {
            if keyColumns.count == 1 {
                keyPredicates.append(
                    SQLExpression(
                        .inList(
                            keyColumns[0], tuples.map { SQLExpression(.value($0[0])) }, negated: false)))
            } else {
                var sql = "("
                sql += pairs.map {
                    "\(currentAlias.quotedDatabaseIdentifier).\($0.destination.quotedDatabaseIdentifier)"
                }
                .joined(separator: ", ")
                let placeholders = "(" + Array(repeating: "?", count: keyColumns.count).joined(separator: ", ") + ")"
                sql += ") IN (VALUES " + Array(repeating: placeholders, count: tuples.count).joined(separator: ", ")
                sql += ")"
                keyPredicates.append(SQLExpression(.literal(sql: sql, arguments: tuples.flatMap { $0 })))
            }
        } else {
            for (pair, column) in zip(pairs, keyColumns) {
                let value = origin.originValues[pair.origin.lowercased()] ?? .null
                keyPredicates.append(SQLExpression(.binary(op: "=", lhs: column, rhs: SQLExpression(.value(value)))))
            }
        }
        if steps.count > 1, let last = nodes.indices.last {
            let existing = nodes[last].filter.map { [$0] } ?? []
            nodes[last].filter = SQLExpression(.associative(op: "AND", operands: existing + keyPredicates, empty: "1"))
        } else {
            extraPredicates += keyPredicates
        }
    }

    /// The SELECT statement.
    func sql(_ context: inout SQLGenerationContext, forCount: Bool) -> String {
        var columns: [String] = []
        for (index, key) in keySelections.enumerated() {
            columns.append("\(key.sql(&context)) AS \("subdb_key_\(index)".quotedDatabaseIdentifier)")
        }
        let baseSelection = base.selection.isEmpty ? [AllColumns().sqlSelection] : base.selection
        columns += baseSelection.map { $0.qualifiedSQL(baseAlias, &context) }
        for node in nodes {
            guard let selection = node.selection else { continue }
            let items = selection.isEmpty ? [AllColumns().sqlSelection] : selection
            columns += items.map { $0.qualifiedSQL(node.alias, &context) }
        }
        var sql = base.isDistinct ? "SELECT DISTINCT " : "SELECT "
        sql += columns.joined(separator: ", ")
        sql += " FROM " + tableSQL(base.tableName, baseAlias)
        for node in nodes {
            sql += node.isRequired ? " JOIN " : " LEFT JOIN "
            sql += tableSQL(node.tableName, node.alias) + " ON "
            var conditions = node.conditions.map { condition in
                SQLExpression(
                    .binary(
                        op: "=", lhs: Column(condition.own).qualified(with: node.alias),
                        rhs: Column(condition.other).qualified(with: condition.otherAlias)))
            }
            if let filter = node.filter {
                if case .associative("AND", let operands, _) = filter.impl {
                    conditions += operands.map { $0.qualifiedDeep(node.alias) }
                } else {
                    conditions.append(filter.qualifiedDeep(node.alias))
                }
            }
            sql += SQLExpression(.associative(op: "AND", operands: conditions, empty: "1")).sql(&context)
        }
        var predicates = extraPredicates
        if let predicate = base.predicate { predicates.insert(predicate.qualifiedDeep(baseAlias), at: 0) }
        if !predicates.isEmpty {
            sql += " WHERE " + SQLExpression(.associative(op: "AND", operands: predicates, empty: "1")).sql(&context)
        }
        if !base.groupBy.isEmpty {
            sql += " GROUP BY " + base.groupBy.map { $0.qualifiedDeep(baseAlias).sql(&context) }.joined(separator: ", ")
        }
        if !base.havings.isEmpty {
            let having = SQLExpression(
                .associative(
                    op: "AND", operands: base.havings.map { $0.qualifiedDeep(baseAlias) }, empty: "1"))
            sql += " HAVING " + having.sql(&context)
        }
        if !forCount || !base.limitClause.isEmpty {
            var orderings = base.orderings.map { $0.qualified(baseAlias) }
            for node in nodes { orderings += node.orderings.map { $0.qualified(node.alias) } }
            if !orderings.isEmpty {
                sql += " ORDER BY " + orderings.map { $0.sql(&context) }.joined(separator: ", ")
            }
        }
        sql += base.limitClause
        return sql
    }

    private func tableSQL(_ tableName: String, _ alias: String) -> String {
        if alias == tableName { return tableName.quotedDatabaseIdentifier }
        return "\(tableName.quotedDatabaseIdentifier) \(alias.quotedDatabaseIdentifier)"
    }
}

extension SQLExpression {
    /// The expression with every unqualified column qualified with `alias`.
    func qualifiedDeep(_ alias: String) -> SQLExpression {
        switch impl {
        case .column(let name, nil): return SQLExpression(.column(name: name, table: alias))
        case .column, .aliasedColumn, .value, .literal, .countAll, .subquery: return self
        case .binary(let op, let lhs, let rhs):
            return SQLExpression(.binary(op: op, lhs: lhs.qualifiedDeep(alias), rhs: rhs.qualifiedDeep(alias)))
        case .associative(let op, let operands, let empty):
            return SQLExpression(.associative(op: op, operands: operands.map { $0.qualifiedDeep(alias) }, empty: empty))
        case .prefix(let op, let operand):
            return SQLExpression(.prefix(op: op, operand: operand.qualifiedDeep(alias)))
        case .function(let name, let arguments):
            return SQLExpression(.function(name: name, arguments: arguments.map { $0.qualifiedDeep(alias) }))
        case .distinct(let expression):
            return SQLExpression(.distinct(expression.qualifiedDeep(alias)))
        case .isNull(let expression, let negated):
            return SQLExpression(.isNull(expression.qualifiedDeep(alias), negated: negated))
        case .inList(let expression, let list, let negated):
            return SQLExpression(
                .inList(
                    expression.qualifiedDeep(alias), list.map { $0.qualifiedDeep(alias) }, negated: negated))
        case .between(let expression, let low, let high, let negated):
            return SQLExpression(
                .between(
                    expression.qualifiedDeep(alias), low: low.qualifiedDeep(alias), high: high.qualifiedDeep(alias),
                    negated: negated))
        case .collated(let expression, let collation):
            return SQLExpression(.collated(expression.qualifiedDeep(alias), collation: collation))
        }
    }
}

extension SQLSelection {
    /// The selection with its columns qualified: `"book".*`, `"book"."title"`.
    func qualifiedSQL(_ alias: String, _ context: inout SQLGenerationContext) -> String {
        switch impl {
        case .allColumns, .allColumnsExcluding: return "\(alias.quotedDatabaseIdentifier).*"
        case .expression(let expression): return expression.qualifiedDeep(alias).sql(&context)
        case .aliased(let expression, let name):
            return "\(expression.qualifiedDeep(alias).sql(&context)) AS \(name.quotedDatabaseIdentifier)"
        }
    }
}

extension SQLOrdering {
    /// The ordering with its columns qualified.
    func qualified(_ alias: String) -> SQLOrdering {
        SQLOrdering(expression: expression.qualifiedDeep(alias), direction: direction)
    }
}
