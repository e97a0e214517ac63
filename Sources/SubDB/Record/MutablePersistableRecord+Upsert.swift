// Upserts: insert, or update the row that has the same primary key or unique key.

extension MutablePersistableRecord {
    /// Inserts the record, or updates the conflicting row (`INSERT ... ON CONFLICT DO UPDATE SET ...`), then
    /// calls `didInsert` with the rowid of the inserted or updated row, as GRDB does. Columns of the primary
    /// key are not updated.
    ///
    ///     var player = Player(id: 1, name: "Arthur", score: 1000)
    ///     try player.upsert(db)   // inserts, or overwrites the name and score of player 1
    public mutating func upsert(_ db: Database) throws {
        try mutatingUpsert(db)
    }

    mutating func mutatingUpsert(_ db: Database) throws {
        try willSave(db)
        var saved: PersistenceSuccess?
        let callbacks = self
        try callbacks.aroundSave(db) {
            try willInsert(db)
            var inserted: InsertionSuccess?
            let insertCallbacks = self
            try insertCallbacks.aroundInsert(db) {
                let success = try upsertWithoutCallbacks(db)
                inserted = success
                return success
            }
            guard let inserted else { throw persistenceCallbackMisuse("aroundInsert") }
            didInsert(inserted)
            let success = PersistenceSuccess(inserted)
            saved = success
            return success
        }
        guard let saved else { throw persistenceCallbackMisuse("aroundSave") }
        didSave(saved)
    }

    func upsertWithoutCallbacks(_ db: Database) throws -> InsertionSuccess {
        var container = try persistenceContainer()
        let table = Self.databaseTableName
        let primaryKey = try db.primaryKey(table)
        let keyColumns = Set(primaryKey.columns.map { $0.lowercased() })
        let columns = container.columns
        var sql = "INSERT INTO \(table.quotedDatabaseIdentifier) ("
        sql += columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ") VALUES ("
        sql += Array(repeating: "?", count: columns.count).joined(separator: ",") + ")"
        let updated = columns.filter { !keyColumns.contains($0.lowercased()) }
        if updated.isEmpty {
            sql += " ON CONFLICT DO NOTHING"
        } else {
            sql += " ON CONFLICT DO UPDATE SET "
            sql += updated.map { "\($0.quotedDatabaseIdentifier) = excluded.\($0.quotedDatabaseIdentifier)" }
                .joined(separator: ", ")
        }
        let hasRowID = primaryKey.rowIDColumn != nil
        if hasRowID { sql += " RETURNING rowid" }
        let arguments = StatementArguments(container.databaseValues)
        var rowID = db.lastInsertedRowID
        if hasRowID {
            if let returned = try Int64.fetchOne(db, sql: sql, arguments: arguments) { rowID = returned }
        } else {
            try db.execute(sql: sql, arguments: arguments)
            rowID = db.lastInsertedRowID
        }
        let rowIDColumn = primaryKey.rowIDColumn
        if let rowIDColumn,
            rowIDColumn.lowercased() != "rowid" || container.databaseValue(caseInsensitive: "rowid") != nil
        {
            container[caseInsensitive: rowIDColumn] = rowID
        }
        return InsertionSuccess(rowID: rowID, rowIDColumn: rowIDColumn, persistenceContainer: container)
    }
}

extension PersistableRecord {
    /// Inserts the record, or updates the conflicting row; see ``MutablePersistableRecord/upsert(_:)``.
    public func upsert(_ db: Database) throws {
        var copy = self
        try copy.mutatingUpsert(db)
    }
}
