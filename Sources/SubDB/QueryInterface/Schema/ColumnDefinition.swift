/// A column of `db.create(table:)` or `db.alter(table:)`, refined with constraints.
///
///     t.column("name", .text).notNull().unique().collate(.nocase)
///     t.column("teamId", .integer).references("team", onDelete: .cascade).indexed()
public final class ColumnDefinition {
    let name: String
    let type: Database.ColumnType?
    var primaryKey: (conflict: Database.ConflictResolution?, autoincrement: Bool)?
    var notNullConflict: Database.ConflictResolution??
    var uniqueConflict: Database.ConflictResolution??
    var checks: [String] = []
    var defaultSQL: String?
    var collation: String?
    var reference:
        (
            table: String, column: String?, onDelete: Database.ForeignKeyAction?,
            onUpdate: Database.ForeignKeyAction?, deferred: Bool
        )?
    var generated: (sql: String, stored: Bool)?
    var isIndexed = false

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
    }

    /// `PRIMARY KEY`, optionally `AUTOINCREMENT`.
    @discardableResult
    public func primaryKey(
        onConflict conflictResolution: Database.ConflictResolution? = nil, autoincrement: Bool = false
    )
        -> Self
    {
        primaryKey = (conflictResolution, autoincrement)
        return self
    }

    /// `NOT NULL`.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflict = .some(conflictResolution)
        return self
    }

    /// `UNIQUE`.
    @discardableResult
    public func unique(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        uniqueConflict = .some(conflictResolution)
        return self
    }

    /// `CHECK (...)` built from the column: `.check { $0 > 0 }`.
    @discardableResult
    public func check(_ condition: (Column) -> some SQLExpressible) -> Self {
        checks.append(SQLLiteral.sql(condition(Column(name)).sqlExpression))
        return self
    }

    /// `CHECK (sql)`.
    @discardableResult
    public func check(sql: String) -> Self {
        checks.append(sql)
        return self
    }

    /// `DEFAULT value`: `.defaults(to: 0)`.
    @discardableResult
    public func defaults(to value: some DatabaseValueConvertible) -> Self {
        defaultSQL = SQLLiteral.sql(value.databaseValue)
        return self
    }

    /// `DEFAULT sql`: `.defaults(sql: "CURRENT_TIMESTAMP")`.
    @discardableResult
    public func defaults(sql: String) -> Self {
        let isSimple = sql.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "'" || $0 == "." || $0 == "-" }
        defaultSQL = isSimple ? sql : "(\(sql))"
        return self
    }

    /// `COLLATE name`: `.collate(.nocase)`.
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        self.collation = collation.rawValue
        return self
    }

    /// `REFERENCES table(column)` with optional actions: `.references("team", onDelete: .cascade)`.
    @discardableResult
    public func references(
        _ table: String, column: String? = nil, onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil, deferred: Bool = false
    ) -> Self {
        reference = (table, column, deleteAction, updateAction, deferred)
        return self
    }

    /// `GENERATED ALWAYS AS (sql)`, `VIRTUAL` or `STORED`.
    @discardableResult
    public func generatedAs(sql: String, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generated = (sql, qualification == .stored)
        return self
    }

    /// Creates an index on the column after the table: `CREATE INDEX "player_on_name" ON "player"("name")`.
    @discardableResult
    public func indexed() -> Self {
        isIndexed = true
        return self
    }

    /// Whether a generated column is computed on read or stored.
    public enum GeneratedColumnQualification: Sendable {
        /// `VIRTUAL`
        case virtual
        /// `STORED`
        case stored
    }

    /// The column definition SQL: `"name" TEXT NOT NULL UNIQUE`.
    var sql: String {
        var parts = [name.quotedDatabaseIdentifier]
        if let type { parts.append(type.rawValue) }
        if let primaryKey {
            parts.append("PRIMARY KEY")
            if let conflict = primaryKey.conflict { parts.append("ON CONFLICT \(conflict.rawValue)") }
            if primaryKey.autoincrement { parts.append("AUTOINCREMENT") }
        }
        if let notNullConflict {
            parts.append("NOT NULL")
            if let conflict = notNullConflict { parts.append("ON CONFLICT \(conflict.rawValue)") }
        }
        if let uniqueConflict {
            parts.append("UNIQUE")
            if let conflict = uniqueConflict { parts.append("ON CONFLICT \(conflict.rawValue)") }
        }
        for check in checks { parts.append("CHECK (\(check))") }
        if let defaultSQL { parts.append("DEFAULT \(defaultSQL)") }
        if let collation { parts.append("COLLATE \(collation)") }
        if let reference {
            var sql = "REFERENCES \(reference.table.quotedDatabaseIdentifier)"
            if let column = reference.column { sql += "(\(column.quotedDatabaseIdentifier))" }
            if let action = reference.onDelete { sql += " ON DELETE \(action.rawValue)" }
            if let action = reference.onUpdate { sql += " ON UPDATE \(action.rawValue)" }
            if reference.deferred { sql += " DEFERRABLE INITIALLY DEFERRED" }
            parts.append(sql)
        }
        if let generated {
            parts.append("GENERATED ALWAYS AS (\(generated.sql)) \(generated.stored ? "STORED" : "VIRTUAL")")
        }
        return parts.joined(separator: " ")
    }

    /// `CREATE INDEX "table_on_column" ON "table"("column")` when `indexed()`.
    func indexSQL(table: String) -> String? {
        guard isIndexed else { return nil }
        return
            "CREATE INDEX \("\(table)_on_\(name)".quotedDatabaseIdentifier) ON \(table.quotedDatabaseIdentifier)(\(name.quotedDatabaseIdentifier))"
    }
}
