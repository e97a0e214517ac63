/// The columns and constraints of a table being created by `db.create(table:)`.
///
///     try db.create(table: "player") { t in
///         t.autoIncrementedPrimaryKey("id")
///         t.column("name", .text).notNull()
///         t.column("score", .integer).notNull().defaults(to: 0)
///     }
///     // CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL,
///     //                        "score" INTEGER NOT NULL DEFAULT 0)
public final class TableDefinition {
    let name: String
    let options: TableOptions
    var columns: [ColumnDefinition] = []
    var literalColumns: [String] = []
    var constraints: [String] = []
    var deferredBelongsTo: [(column: ColumnDefinition, table: String)] = []

    init(name: String, options: TableOptions) {
        self.name = name
        self.options = options
    }

    /// An auto-incremented rowid primary key: `"id" INTEGER PRIMARY KEY AUTOINCREMENT`.
    @discardableResult
    public func autoIncrementedPrimaryKey(
        _ name: String, onConflict conflictResolution: Database.ConflictResolution? = nil
    )
        -> ColumnDefinition
    {
        column(name, .integer).primaryKey(onConflict: conflictResolution, autoincrement: true)
    }

    /// A single-column primary key: `t.primaryKey("id", .text)` → `"id" TEXT PRIMARY KEY NOT NULL`.
    @discardableResult
    public func primaryKey(
        _ name: String, _ type: Database.ColumnType, onConflict conflictResolution: Database.ConflictResolution? = nil
    ) -> ColumnDefinition {
        let column = column(name, type).primaryKey(onConflict: conflictResolution)
        if type != .integer { column.notNull() }
        return column
    }

    /// A primary key on several columns: `PRIMARY KEY ("a", "b")`.
    public func primaryKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        var sql = "PRIMARY KEY (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))"
        if let conflictResolution { sql += " ON CONFLICT \(conflictResolution.rawValue)" }
        constraints.append(sql)
    }

    /// Defines primary key columns inside the closure and the composite key over them.
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, body: () throws -> Void)
        rethrows
    {
        let start = columns.count
        try body()
        let names = columns[start...].map(\.name)
        for column in columns[start...] where column.notNullConflict == nil { column.notNull() }
        primaryKey(names, onConflict: conflictResolution)
    }

    /// A column: `t.column("name", .text)`.
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        columns.append(column)
        return column
    }

    /// A column given as raw SQL: `t.column(sql: "name TEXT")`.
    public func column(sql: String) {
        literalColumns.append(sql)
    }

    /// A column given as an SQL literal.
    public func column(literal: SQL) {
        literalColumns.append(literal.build().sql)
    }

    /// `UNIQUE ("a", "b")`.
    public func uniqueKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        var sql = "UNIQUE (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))"
        if let conflictResolution { sql += " ON CONFLICT \(conflictResolution.rawValue)" }
        constraints.append(sql)
    }

    /// `FOREIGN KEY ("a") REFERENCES "t"("id")` with optional actions.
    public func foreignKey(
        _ columns: [String], references table: String, columns destinationColumns: [String]? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred: Bool = false
    ) {
        var sql = "FOREIGN KEY (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) REFERENCES "
        sql += table.quotedDatabaseIdentifier
        if let destinationColumns {
            sql += "(\(destinationColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))"
        }
        if let deleteAction { sql += " ON DELETE \(deleteAction.rawValue)" }
        if let updateAction { sql += " ON UPDATE \(updateAction.rawValue)" }
        if deferred { sql += " DEFERRABLE INITIALLY DEFERRED" }
        constraints.append(sql)
    }

    /// A foreign key column to a table with a single-column primary key, indexed:
    /// `t.belongsTo("team", onDelete: .cascade)` → `"teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE`.
    /// `inTable` names the referenced table when it differs: `t.belongsTo("author", inTable: "person")` →
    /// `"authorId" INTEGER REFERENCES "person"("id")`.
    @discardableResult
    public func belongsTo(
        _ name: String, inTable referencedTable: String? = nil, onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil
    ) -> ColumnDefinition {
        let table = referencedTable ?? name
        let column = ColumnDefinition(name: name + "Id", type: nil)
        column.reference = (table, nil, deleteAction, updateAction, false)
        column.isIndexed = true
        columns.append(column)
        deferredBelongsTo.append((column, table))
        return column
    }

    /// `CHECK (...)` over the table: `t.check(Column("a") < Column("b"))`.
    public func check(_ condition: some SQLExpressible) {
        constraints.append("CHECK (\(SQLLiteral.sql(condition.sqlExpression)))")
    }

    /// `CHECK (sql)`.
    public func check(sql: String) {
        constraints.append("CHECK (\(sql))")
    }

    /// A table constraint given as raw SQL.
    public func constraint(sql: String) {
        constraints.append(sql)
    }

    /// Resolves `belongsTo` columns against the referenced tables.
    func resolve(_ db: Database) throws {
        for (column, table) in deferredBelongsTo {
            let primaryKey = try db.primaryKey(table)
            guard primaryKey.columns.count == 1, let key = primaryKey.columns.first else {
                throw DatabaseError(message: "belongsTo(\(table)): table \(table) has no single-column primary key")
            }
            let type = try db.columns(in: table).first { $0.name == key }?.type ?? "INTEGER"
            let typed = ColumnDefinition(name: column.name, type: Database.ColumnType(type.isEmpty ? "INTEGER" : type))
            typed.reference = (table, key, column.reference?.onDelete, column.reference?.onUpdate, false)
            typed.notNullConflict = column.notNullConflict
            typed.isIndexed = true
            if let index = columns.firstIndex(where: { $0 === column }) { columns[index] = typed }
        }
        deferredBelongsTo = []
    }

    /// `CREATE TABLE "name" (...)`.
    var sql: String {
        var sql = "CREATE "
        if options.contains(.temporary) { sql += "TEMPORARY " }
        sql += "TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " ("
        sql += (columns.map(\.sql) + literalColumns + constraints).joined(separator: ", ")
        sql += ")"
        var tableOptions: [String] = []
        if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if options.contains(.strict) { tableOptions.append("STRICT") }
        if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }
        return sql
    }

    /// The CREATE INDEX statements of `indexed()` columns.
    var indexSQL: [String] {
        columns.compactMap { $0.indexSQL(table: name) }
    }
}

/// Changes to an existing table, for `db.alter(table:)`.
///
///     try db.alter(table: "player") { t in
///         t.add(column: "email", .text)
///         t.rename(column: "name", to: "fullName")
///         t.drop(column: "legacy")
///     }
public final class TableAlteration {
    let name: String
    var statements: [String] = []
    var addedColumns: [ColumnDefinition] = []

    init(name: String) { self.name = name }

    /// `ALTER TABLE ... ADD COLUMN`.
    @discardableResult
    public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        addedColumns.append(column)
        statements.append("")  // placeholder, rendered late so that constraints added after the call count
        return column
    }

    /// `ALTER TABLE ... ADD COLUMN sql`.
    public func addColumn(sql: String) {
        statements.append("ALTER TABLE \(name.quotedDatabaseIdentifier) ADD COLUMN \(sql)")
    }

    /// `ALTER TABLE ... RENAME COLUMN "a" TO "b"`.
    public func rename(column name: String, to newName: String) {
        statements.append(
            "ALTER TABLE \(self.name.quotedDatabaseIdentifier) RENAME COLUMN \(name.quotedDatabaseIdentifier) TO \(newName.quotedDatabaseIdentifier)"
        )
    }

    /// `ALTER TABLE ... DROP COLUMN "a"`.
    public func drop(column name: String) {
        statements.append(
            "ALTER TABLE \(self.name.quotedDatabaseIdentifier) DROP COLUMN \(name.quotedDatabaseIdentifier)")
    }

    var sql: [String] {
        var added = addedColumns[...]
        var result: [String] = []
        for statement in statements {
            if statement.isEmpty, let column = added.popFirst() {
                result.append("ALTER TABLE \(name.quotedDatabaseIdentifier) ADD COLUMN \(column.sql)")
                if let index = column.indexSQL(table: name) { result.append(index) }
            } else {
                result.append(statement)
            }
        }
        return result
    }
}
