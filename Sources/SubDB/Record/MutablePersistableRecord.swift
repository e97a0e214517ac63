/// A record that can be inserted, updated and deleted, whose insertion may change it (to store a new rowid).
///
///     struct Player: Codable, MutablePersistableRecord {
///         var id: Int64?
///         var name: String
///         mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
///     }
///     var player = Player(id: nil, name: "Arthur")
///     try player.insert(db)   // player.id is now set
public protocol MutablePersistableRecord: EncodableRecord, TableRecord {
    /// The conflict policy of inserts and updates.
    static var persistenceConflictPolicy: PersistenceConflictPolicy { get }

    /// Called before the record is inserted (before encoding): set a creation date here.
    mutating func willInsert(_ db: Database) throws
    /// Wraps the insertion; call `insert()` exactly once.
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws
    /// Called after a successful insertion: store `inserted.rowID` here.
    mutating func didInsert(_ inserted: InsertionSuccess)

    /// Called before the record is updated.
    func willUpdate(_ db: Database, columns: Set<String>) throws
    /// Wraps the update; call `update()` exactly once.
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws
    /// Called after a successful update.
    func didUpdate(_ updated: PersistenceSuccess)

    /// Called before the record is inserted or updated.
    func willSave(_ db: Database) throws
    /// Wraps insertions and updates; call `save()` exactly once.
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws
    /// Called after a successful insertion or update.
    func didSave(_ saved: PersistenceSuccess)

    /// Called before the record is deleted.
    func willDelete(_ db: Database) throws
    /// Wraps the deletion; call `delete()` exactly once.
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws
    /// Called after the deletion, telling whether a row was deleted.
    func didDelete(deleted: Bool)
}

extension MutablePersistableRecord {
    /// SQLite's default conflict handling.
    public static var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }
    /// Does nothing.
    public mutating func willInsert(_ db: Database) throws {}
    /// Calls `insert()`.
    public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws { _ = try insert() }
    /// Does nothing.
    public mutating func didInsert(_ inserted: InsertionSuccess) {}
    /// Does nothing.
    public func willUpdate(_ db: Database, columns: Set<String>) throws {}
    /// Calls `update()`.
    public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        _ = try update()
    }
    /// Does nothing.
    public func didUpdate(_ updated: PersistenceSuccess) {}
    /// Does nothing.
    public func willSave(_ db: Database) throws {}
    /// Calls `save()`.
    public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws { _ = try save() }
    /// Does nothing.
    public func didSave(_ saved: PersistenceSuccess) {}
    /// Does nothing.
    public func willDelete(_ db: Database) throws {}
    /// Calls `delete()`.
    public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { _ = try delete() }
    /// Does nothing.
    public func didDelete(deleted: Bool) {}
}

/// A record whose insertion does not change it (its primary key is not auto-generated, or it is a class).
///
///     struct Player: Codable, PersistableRecord { var id: String; var name: String }
///     try Player(id: "1", name: "Arthur").insert(db)
public protocol PersistableRecord: MutablePersistableRecord {
    /// Called before the record is inserted.
    func willInsert(_ db: Database) throws
    /// Called after a successful insertion.
    func didInsert(_ inserted: InsertionSuccess)
}

extension PersistableRecord {
    /// Does nothing.
    public func willInsert(_ db: Database) throws {}
    /// Does nothing.
    public func didInsert(_ inserted: InsertionSuccess) {}
}

/// Thrown when an `around...` callback does not call its body.
func persistenceCallbackMisuse(_ callback: String) -> DatabaseError {
    DatabaseError(message: "\(callback) must call its body exactly once")
}
