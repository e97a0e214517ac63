// SQL generation of query interface requests.

extension QueryInterfaceRequest {
    /// The SQL of the request and its arguments, as executed: `SELECT * FROM "player" WHERE "score" > ?`.
    public func sqlAndArguments(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        var context = SQLGenerationContext()
        let sql = try selectSQL(db, &context)
        return (sql, context.statementArguments)
    }

    /// The SQL of `fetchOne`, as GRDB: `LIMIT 1` (keeping an offset), except for a lookup of one primary or
    /// unique key, which selects one row at most already.
    public func sqlAndArguments(_ db: Database, forSingleResult singleResult: Bool) throws
        -> (sql: String, arguments: StatementArguments)
    {
        guard singleResult, !isSingleKeyLookup, (limitCount ?? 1) > 0 else { return try sqlAndArguments(db) }
        var request = self
        request.limitCount = 1
        return try request.sqlAndArguments(db)
    }

    /// True when a filter keeps the row of one primary key or one unique key.
    var isSingleKeyLookup: Bool {
        filters.contains { filter in
            switch filter {
            case .expression: false
            case .keys(let keys): keys.count <= 1
            case .uniqueKeys(let keys): keys.count <= 1
            }
        }
    }

    /// The SQL that counts the results: `SELECT COUNT(*) FROM "player" WHERE ...`.
    public func countSQLAndArguments(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        var context = SQLGenerationContext()
        let table = tableName.quotedDatabaseIdentifier
        let selection = try self.selection.expanded(db, tableName: tableName)
        if groupBy.isEmpty && limitCount == nil && offsetCount == nil && !hasSQLJoins {
            if !isDistinct {
                var sql = "SELECT COUNT(*) FROM \(table)"
                sql += try whereClause(db, &context)
                return (sql, context.statementArguments)
            }
            if selection.count == 1, let expression = selection[0].countExpression {
                var sql = "SELECT COUNT(DISTINCT \(expression.sql(&context))) FROM \(table)"
                sql += try whereClause(db, &context)
                return (sql, context.statementArguments)
            }
        }
        let sql = try selectSQL(db, &context, forCount: true)
        return ("SELECT COUNT(*) FROM (\(sql))", context.statementArguments)
    }

    func selectSQL(_ db: Database, _ context: inout SQLGenerationContext, forCount: Bool = false) throws -> String {
        if hasSQLJoins { return try joinedSelectSQL(db, &context, forCount: forCount) }
        var sql = isDistinct ? "SELECT DISTINCT " : "SELECT "
        sql.reserveCapacity(128)
        let selection = try self.selection.expanded(db, tableName: tableName)
        sql += selection.isEmpty ? "*" : selection.map { $0.sql(&context) }.joined(separator: ", ")
        sql += " FROM \(tableName.quotedDatabaseIdentifier)"
        sql += try whereClause(db, &context)
        if !groupBy.isEmpty {
            sql += " GROUP BY " + groupBy.map { $0.sql(&context) }.joined(separator: ", ")
        }
        if !havings.isEmpty {
            sql += " HAVING " + SQLExpression(.associative(op: "AND", operands: havings, empty: "1")).sql(&context)
        }
        if !forCount || limitCount != nil {
            let orderings = try effectiveOrderings(db)
            if !orderings.isEmpty {
                sql += " ORDER BY " + orderings.map { $0.sql(&context) }.joined(separator: ", ")
            }
        }
        sql += limitClause
        return sql
    }

    var limitClause: String {
        guard let limitCount else {
            if let offsetCount { return " LIMIT -1 OFFSET \(offsetCount)" }
            return ""
        }
        if let offsetCount { return " LIMIT \(limitCount) OFFSET \(offsetCount)" }
        return " LIMIT \(limitCount)"
    }

    func effectiveOrderings(_ db: Database) throws -> [SQLOrdering] {
        var orderings = orderings
        if ordersByPrimaryKey {
            orderings = try primaryKeyColumns(db).map { Column($0).sqlOrdering } + thenOrderings
        }
        if hasStableOrder && !(ordersByPrimaryKey && thenOrderings.isEmpty) {
            orderings += try primaryKeyColumns(db).map { Column($0).sqlOrdering }
        }
        guard isReversed else { return orderings }
        if orderings.isEmpty {
            return try primaryKeyColumns(db).map { Column($0).desc }
        }
        return orderings.map(\.reversed)
    }

    func primaryKeyColumns(_ db: Database) throws -> [String] {
        try db.subdbPrimaryKeyColumns(tableName)
    }

    /// ` WHERE ...`, or the empty string.
    func whereClause(_ db: Database, _ context: inout SQLGenerationContext) throws -> String {
        guard let predicate = try wherePredicate(db) else { return "" }
        return " WHERE " + predicate.sql(&context)
    }

    func wherePredicate(_ db: Database) throws -> SQLExpression? {
        if filters.isEmpty { return nil }
        if filters.count == 1, case .expression(let expression) = filters[0] { return expression }
        var predicates: [SQLExpression] = []
        for filter in filters {
            switch filter {
            case .expression(let expression):
                predicates.append(expression)
            case .keys(let keys):
                let columns = try primaryKeyColumns(db)
                predicates.append(try keysPredicate(columns: columns, keys: keys))
            case .uniqueKeys(let keys):
                let alternatives = keys.map { key in
                    SQLExpression(
                        .associative(
                            op: "AND",
                            operands: key.sorted { $0.key < $1.key }.map { column, value in
                                Column(column) == value
                            }, empty: "1"))
                }
                predicates.append(SQLExpression(.associative(op: "OR", operands: alternatives, empty: "0")))
            }
        }
        return SQLExpression(.associative(op: "AND", operands: predicates, empty: "1"))
    }

    private func keysPredicate(columns: [String], keys: [[DatabaseValue]]) throws -> SQLExpression {
        if columns.count == 1 {
            let column = Column(columns[0])
            if keys.count == 1, let value = keys[0].first { return column == value }
            return SQLExpression(
                .inList(column.sqlExpression, keys.compactMap { $0.first?.sqlExpression }, negated: false))
        }
        let alternatives = try keys.map { key in
            guard key.count == columns.count else {
                throw DatabaseError(
                    message: "invalid key for table \(tableName): expected \(columns.count) values, got \(key.count)")
            }
            return SQLExpression(
                .associative(
                    op: "AND", operands: zip(columns, key).map { Column($0) == $1 }, empty: "1"))
        }
        return SQLExpression(.associative(op: "OR", operands: alternatives, empty: "0"))
    }

    // MARK: Batch updates and deletes

    /// Deletes the rows of the request and returns how many were deleted: `DELETE FROM "player" WHERE ...`.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        var context = SQLGenerationContext()
        var sql: String
        if groupBy.isEmpty && havings.isEmpty && limitCount == nil && !isDistinct && !hasSQLJoins {
            sql = "DELETE FROM \(tableName.quotedDatabaseIdentifier)" + (try whereClause(db, &context))
        } else {
            let inner = try asRequest(of: Row.self).select(Column.rowID).selectSQL(db, &context)
            sql = "DELETE FROM \(tableName.quotedDatabaseIdentifier) WHERE rowid IN (\(inner))"
        }
        try db.execute(sql: sql, arguments: context.statementArguments)
        return db.changesCount
    }

    /// Updates the rows of the request and returns how many were changed:
    /// `Player.filter(...).updateAll(db, Column("score").set(to: 0))`.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> Int {
        if assignments.isEmpty { return 0 }
        var context = SQLGenerationContext()
        var sql = "UPDATE "
        if let conflictResolution { sql += "OR \(conflictResolution.rawValue) " }
        sql += tableName.quotedDatabaseIdentifier + " SET "
        sql += assignments.map { $0.sql(&context) }.joined(separator: ", ")
        if groupBy.isEmpty && havings.isEmpty && limitCount == nil && !isDistinct && !hasSQLJoins {
            sql += try whereClause(db, &context)
        } else {
            let inner = try asRequest(of: Row.self).select(Column.rowID).selectSQL(db, &context)
            sql += " WHERE rowid IN (\(inner))"
        }
        try db.execute(sql: sql, arguments: context.statementArguments)
        return db.changesCount
    }

    /// Updates the rows of the request with the given assignments.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignment: ColumnAssignment, _ otherAssignments: ColumnAssignment...
    ) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, [assignment] + otherAssignments)
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Updates the rows of the request with assignments built from the record's columns:
    /// `Player.all().updateAll(db) { $0.score += 10 }`.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: (RowDecoder.DatabaseComponents) -> [ColumnAssignment]
    ) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// Updates the rows of the request with one assignment built from the record's columns.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignment: (RowDecoder.DatabaseComponents) -> ColumnAssignment
    ) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.databaseComponents)])
    }
}
