// Insert, update, save, delete and exists for persistable records.

extension MutablePersistableRecord {
    // MARK: Save callbacks

    /// Runs `body` inside the save callbacks: `willSave`, `aroundSave` (on a copy, so `body` may change the
    /// record), then `didSave` on the record as `body` left it.
    mutating func withSaveCallbacks(_ db: Database, _ body: (inout Self) throws -> PersistenceSuccess) throws {
        try willSave(db)
        var saved: PersistenceSuccess?
        let callbacks = self
        try callbacks.aroundSave(db) {
            let success = try body(&self)
            saved = success
            return success
        }
        guard let saved else { throw persistenceCallbackMisuse("aroundSave") }
        didSave(saved)
    }

    /// The save callbacks around `body`, for the operations that do not change the record.
    func withSaveCallbacks(_ db: Database, _ body: () throws -> PersistenceSuccess) throws {
        var record = self
        try record.withSaveCallbacks(db) { _ in try body() }
    }

    // MARK: Insert

    /// Inserts the record: `INSERT INTO "player" ("id","name") VALUES (?,?)`. Calls `willSave`, `aroundSave`,
    /// `willInsert`, `aroundInsert`, `didInsert` and `didSave`.
    public mutating func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
        throws
    {
        try withSaveCallbacks(db) { record in
            PersistenceSuccess(try record.mutatingInsertWithCallbacks(db, onConflict: conflictResolution))
        }
    }

    /// Inserts a copy of the record and returns it, with `didInsert` applied.
    public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
        -> Self
    {
        var result = self
        try result.insert(db, onConflict: conflictResolution)
        return result
    }

    /// Inserts the record and returns the inserted row as a new `Self`; the record itself is not modified (as in
    /// GRDB: use `inserted(_:)` for the record with its new id).
    public func insertAndFetch(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil
    ) throws -> Self where Self: FetchableRecord {
        try insertAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Inserts the record and returns the inserted row as another record type; the record is not modified.
    public func insertAndFetch<T: FetchableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type
    ) throws -> T {
        var copy = self
        try copy.insert(db, onConflict: conflictResolution)
        let table = Self.databaseTableName.quotedDatabaseIdentifier
        guard
            let record = try T.fetchOne(
                db, sql: "SELECT * FROM \(table) WHERE rowid = ?",
                arguments: [db.lastInsertedRowID])
        else {
            throw DatabaseError(message: "inserted row of table \(Self.databaseTableName) could not be fetched")
        }
        return record
    }

    mutating func mutatingInsertWithCallbacks(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?
    ) throws -> InsertionSuccess {
        try willInsert(db)
        var inserted: InsertionSuccess?
        let callbacks = self
        try callbacks.aroundInsert(db) {
            let success = try insertWithoutCallbacks(db, onConflict: conflictResolution)
            inserted = success
            return success
        }
        guard let inserted else { throw persistenceCallbackMisuse("aroundInsert") }
        didInsert(inserted)
        return inserted
    }

    /// Encodes and inserts, without callbacks.
    func insertWithoutCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws
        -> InsertionSuccess
    {
        var container = try persistenceContainer()
        let table = Self.databaseTableName
        let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForInsert
        let statement = try db.subdbInsertStatement(table: table, columns: container.columns, onConflict: conflict)
        try statement.execute(arguments: StatementArguments(container.databaseValues))
        let rowID = db.lastInsertedRowID
        let rowIDColumn = try db.subdbPrimaryKey(table).rowIDColumn
        if let rowIDColumn {
            container[caseInsensitive: rowIDColumn] = rowID
        }
        return InsertionSuccess(rowID: rowID, rowIDColumn: rowIDColumn, persistenceContainer: container)
    }

    // MARK: Update

    /// Updates all columns of the record's row: `UPDATE "player" SET "name"=?, "score"=? WHERE "id"=?`.
    /// Throws ``RecordError/recordNotFound(databaseTableName:key:)`` when no row has the record's key.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performUpdate(db, onConflict: conflictResolution, columns: nil)
    }

    /// Updates the given columns of the record's row.
    public func update(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<String>
    ) throws {
        try performUpdate(db, onConflict: conflictResolution, columns: Set(columns.map { $0.lowercased() }))
    }

    /// Updates the given columns of the record's row: `update(db, columns: [Column("score")])`.
    public func update(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>
    ) throws {
        try performUpdate(db, onConflict: conflictResolution, columns: Set(columns.map { $0.name.lowercased() }))
    }

    func performUpdate(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>?
    )
        throws
    {
        try withSaveCallbacks(db) {
            try updateWithCallbacks(db, onConflict: conflictResolution, columns: columns)
        }
    }

    func updateWithCallbacks(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>?
    ) throws -> PersistenceSuccess {
        let columnSet = try columns ?? Set(persistenceContainer().columns.map { $0.lowercased() })
        try willUpdate(db, columns: columnSet)
        var updated: PersistenceSuccess?
        try aroundUpdate(db, columns: columnSet) {
            let success = try updateWithoutCallbacks(db, onConflict: conflictResolution, columns: columns)
            updated = success
            return success
        }
        guard let updated else { throw persistenceCallbackMisuse("aroundUpdate") }
        didUpdate(updated)
        return updated
    }

    func updateWithoutCallbacks(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>?
    ) throws -> PersistenceSuccess {
        let container = try persistenceContainer()
        let table = Self.databaseTableName
        let primaryKey = try db.subdbPrimaryKey(table)
        let key = try primaryKeyValues(container, primaryKey.columns)
        guard key.contains(where: { !$0.1.isNull }) else {
            throw RecordError.recordNotFound(
                databaseTableName: table, key: Dictionary(key, uniquingKeysWith: { $1 }))
        }
        let primaryKeyNames = Set(primaryKey.columns.map { $0.lowercased() })
        var updated: [(String, DatabaseValue)] = []
        for (column, value) in zip(container.columns, container.databaseValues) {
            let lowercased = column.lowercased()
            if primaryKeyNames.contains(lowercased) { continue }
            if let columns, !columns.contains(lowercased) { continue }
            updated.append((column, value))
        }
        if updated.isEmpty {
            // Nothing to change, but the row must exist: SET the primary key to itself.
            updated = key
        }
        var sql = "UPDATE "
        let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForUpdate
        if let conflict { sql += "OR \(conflict.rawValue) " }
        sql += table.quotedDatabaseIdentifier + " SET "
        sql += updated.map { "\($0.0.quotedDatabaseIdentifier)=?" }.joined(separator: ", ")
        sql += " WHERE " + key.map { "\($0.0.quotedDatabaseIdentifier)=?" }.joined(separator: " AND ")
        let statement = try db.cachedStatement(sql: sql)
        try statement.execute(arguments: StatementArguments(updated.map(\.1) + key.map(\.1)))
        if db.changesCount == 0 {
            throw RecordError.recordNotFound(
                databaseTableName: table, key: Dictionary(key, uniquingKeysWith: { $1 }))
        }
        return PersistenceSuccess(persistenceContainer: container)
    }

    /// Updates the columns that differ from `record`; returns whether a change was saved.
    @discardableResult
    public func updateChanges(_ db: Database, from record: some EncodableRecord) throws -> Bool {
        let changes = try databaseChanges(from: record)
        if changes.isEmpty { return false }
        try performUpdate(db, onConflict: nil, columns: Set(changes.keys.map { $0.lowercased() }))
        return true
    }

    /// Modifies the record and updates the changed columns: `try player.updateChanges(db) { $0.score = 10 }`.
    /// Returns whether a change was saved.
    @discardableResult
    public mutating func updateChanges(_ db: Database, modify: (inout Self) throws -> Void) throws -> Bool {
        let old = self
        try modify(&self)
        return try updateChanges(db, from: old)
    }

    // MARK: Save

    /// Inserts or updates: an update when the primary key is set and a row has it, an insert otherwise.
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
        throws
    {
        try withSaveCallbacks(db) { record in try record.mutatingUpdateOrInsert(db, onConflict: conflictResolution) }
    }

    /// Saves a copy of the record and returns it.
    public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
        -> Self
    {
        var result = self
        try result.save(db, onConflict: conflictResolution)
        return result
    }

    mutating func mutatingUpdateOrInsert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?)
        throws -> PersistenceSuccess
    {
        do {
            return try updateWithCallbacks(db, onConflict: conflictResolution, columns: nil)
        } catch RecordError.recordNotFound {
            return PersistenceSuccess(try mutatingInsertWithCallbacks(db, onConflict: conflictResolution))
        }
    }

    // MARK: Delete

    /// Deletes the record's row; returns whether a row was deleted.
    @discardableResult
    public func delete(_ db: Database) throws -> Bool {
        try willDelete(db)
        var deleted: Bool?
        try aroundDelete(db) {
            let result = try deleteWithoutCallbacks(db)
            deleted = result
            return result
        }
        guard let deleted else { throw persistenceCallbackMisuse("aroundDelete") }
        didDelete(deleted: deleted)
        return deleted
    }

    func deleteWithoutCallbacks(_ db: Database) throws -> Bool {
        let table = Self.databaseTableName
        let key = try primaryKeyValues(try persistenceContainer(), try db.subdbPrimaryKey(table).columns)
        guard key.contains(where: { !$0.1.isNull }) else { return false }
        let sql =
            "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE "
            + key.map { "\($0.0.quotedDatabaseIdentifier)=?" }.joined(separator: " AND ")
        try db.execute(sql: sql, arguments: StatementArguments(key.map(\.1)))
        return db.changesCount > 0
    }

    /// Whether a row has the record's primary key.
    public func exists(_ db: Database) throws -> Bool {
        let table = Self.databaseTableName
        let key = try primaryKeyValues(try persistenceContainer(), try db.subdbPrimaryKey(table).columns)
        guard key.contains(where: { !$0.1.isNull }) else { return false }
        let sql =
            "SELECT 1 FROM \(table.quotedDatabaseIdentifier) WHERE "
            + key.map { "\($0.0.quotedDatabaseIdentifier)=?" }.joined(separator: " AND ")
        return try Row.fetchOne(db, sql: sql, arguments: StatementArguments(key.map(\.1))) != nil
    }

    /// The primary key columns and values of the record.
    func primaryKeyValues(_ container: PersistenceContainer, _ columns: [String]) throws -> [(String, DatabaseValue)] {
        try columns.map { column in
            guard let value = container.databaseValue(caseInsensitive: column) else {
                throw DatabaseError(
                    message:
                        "\(Self.self) does not encode the primary key column \(column) of table \(Self.databaseTableName)"
                )
            }
            return (column, value)
        }
    }
}

extension PersistableRecord {
    /// Inserts the record; see ``MutablePersistableRecord/insert(_:onConflict:)``.
    public func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try withSaveCallbacks(db) {
            PersistenceSuccess(try insertWithCallbacks(db, onConflict: conflictResolution))
        }
    }

    /// Inserts or updates; see ``MutablePersistableRecord/save(_:onConflict:)``.
    public func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try withSaveCallbacks(db) {
            do {
                return try updateWithCallbacks(db, onConflict: conflictResolution, columns: nil)
            } catch RecordError.recordNotFound {
                return PersistenceSuccess(try insertWithCallbacks(db, onConflict: conflictResolution))
            }
        }
    }

    func insertWithCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws
        -> InsertionSuccess
    {
        try willInsert(db)
        var inserted: InsertionSuccess?
        try aroundInsert(db) {
            let success = try insertWithoutCallbacks(db, onConflict: conflictResolution)
            inserted = success
            return success
        }
        guard let inserted else { throw persistenceCallbackMisuse("aroundInsert") }
        didInsert(inserted)
        return inserted
    }
}
