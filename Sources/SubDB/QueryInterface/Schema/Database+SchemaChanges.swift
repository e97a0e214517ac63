import Foundation

// Schema changes with the query interface: create, alter, rename and drop tables and indexes.

extension Database {
    /// Creates a table: `try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") }`.
    public func create(table name: String, options: TableOptions = [], body: (TableDefinition) throws -> Void) throws {
        let definition = TableDefinition(name: name, options: options)
        try body(definition)
        try definition.resolve(self)
        try execute(sql: definition.sql)
        for sql in definition.indexSQL {
            try execute(
                sql: options.contains(.ifNotExists)
                    ? sql.replacingFirst("CREATE INDEX", with: "CREATE INDEX IF NOT EXISTS") : sql)
        }
    }

    /// Changes a table: add, rename and drop columns.
    public func alter(table name: String, body: (TableAlteration) throws -> Void) throws {
        let alteration = TableAlteration(name: name)
        try body(alteration)
        for sql in alteration.sql { try execute(sql: sql) }
    }

    /// `DROP TABLE "name"`.
    public func drop(table name: String) throws {
        try execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
    }

    /// `DROP TABLE IF EXISTS "name"`.
    public func dropIfExists(table name: String) throws {
        try execute(sql: "DROP TABLE IF EXISTS \(name.quotedDatabaseIdentifier)")
    }

    /// `ALTER TABLE "name" RENAME TO "newName"`.
    public func rename(table name: String, to newName: String) throws {
        try execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME TO \(newName.quotedDatabaseIdentifier)")
    }

    /// Creates an index: `CREATE UNIQUE INDEX IF NOT EXISTS "i" ON "t"("a", "b") WHERE ...`.
    public func create(
        index name: String, on table: String, columns: [String], options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil
    ) throws {
        var sql = "CREATE "
        if options.contains(.unique) { sql += "UNIQUE " }
        sql += "INDEX "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += "\(name.quotedDatabaseIdentifier) ON \(table.quotedDatabaseIdentifier)"
        sql += "(\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))"
        if let condition { sql += " WHERE " + SQLLiteral.sql(condition.sqlExpression) }
        try execute(sql: sql)
    }

    /// Creates an index, GRDB 5 style: `create(index:on:columns:unique:ifNotExists:)`.
    @_disfavoredOverload
    public func create(
        index name: String, on table: String, columns: [String], unique: Bool = false, ifNotExists: Bool = false,
        condition: (any SQLExpressible)? = nil
    ) throws {
        var options: IndexOptions = []
        if unique { options.insert(.unique) }
        if ifNotExists { options.insert(.ifNotExists) }
        try create(index: name, on: table, columns: columns, options: options, condition: condition)
    }

    /// `DROP INDEX "name"`.
    public func drop(index name: String) throws {
        try execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
