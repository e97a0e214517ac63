import Foundation

/// GRDB's `Record` base class: a class record that subclasses override, with change tracking
/// (``hasDatabaseChanges``, ``databaseChanges``, ``updateChanges(_:)``).
///
///     final class Place: Record {
///         var id: Int64?
///         var title: String
///         override class var databaseTableName: String { "place" }
///         required init(row: Row) throws {
///             id = row["id"]
///             title = row["title"]
///             try super.init(row: row)
///         }
///         override func encode(to container: inout PersistenceContainer) throws {
///             container["id"] = id
///             container["title"] = title
///         }
///         override func didInsert(_ inserted: InsertionSuccess) {
///             super.didInsert(inserted)
///             id = inserted.rowID
///         }
///     }
///
/// A record is not `Sendable`: like any class with mutable state, keep it on one thread at a time.
open class Record: FetchableRecord, TableRecord, PersistableRecord {
    /// The values the record had when it was fetched or last saved; nil when it was never (or deleted). Changes
    /// are computed against it.
    private var referenceRow: Row?

    /// A record that is not in the database yet: every column counts as changed.
    public init() {}

    /// A record decoded from a row. A fetched row becomes the reference for change tracking; a row built by
    /// hand (`Row(["id": 1, ...])`) does not, so every column counts as changed, as in GRDB. Subclasses decode
    /// their properties, then call `super.init(row:)`.
    public required init(row: Row) throws {
        if row.isFetched { referenceRow = row.copy() }
    }

    /// The table name; by default derived from the class name as for every ``TableRecord`` (`Place` → `place`).
    open class var databaseTableName: String { defaultDatabaseTableName(String(describing: self)) }

    /// The conflict policy of inserts and updates; SQLite's by default.
    open class var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }

    /// The columns selected by requests; all columns by default.
    open class var databaseSelection: [any SQLSelectable] { [AllColumns()] }

    /// Stores the record's values in `container`; subclasses override it (the base class stores nothing).
    open func encode(to container: inout PersistenceContainer) throws {}

    // MARK: Persistence callbacks (override them, calling super)

    /// Called before the record is inserted.
    open func willInsert(_ db: Database) throws {}

    /// Wraps the insertion; call `insert()` exactly once.
    open func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws { _ = try insert() }

    /// Called after a successful insertion: store `inserted.rowID` here, after calling super.
    open func didInsert(_ inserted: InsertionSuccess) {}

    /// Called before the record is updated.
    open func willUpdate(_ db: Database, columns: Set<String>) throws {}

    /// Wraps the update; call `update()` exactly once.
    open func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        _ = try update()
    }

    /// Called after a successful update.
    open func didUpdate(_ updated: PersistenceSuccess) {}

    /// Called before the record is inserted or updated.
    open func willSave(_ db: Database) throws {}

    /// Wraps insertions and updates; call `save()` exactly once.
    open func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws { _ = try save() }

    /// Called after a successful insertion or update: the saved values become the reference for changes.
    open func didSave(_ saved: PersistenceSuccess) {
        let container = saved.persistenceContainer
        referenceRow = Row(columnNames: container.columns, databaseValues: container.databaseValues)
    }

    /// Called before the record is deleted.
    open func willDelete(_ db: Database) throws {}

    /// Wraps the deletion; call `delete()` exactly once.
    open func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { _ = try delete() }

    /// Called after the deletion: every column counts as changed again.
    open func didDelete(deleted: Bool) {
        referenceRow = nil
    }

    // MARK: Changes

    /// A copy of the record, with the same reference for change tracking. A record that cannot be decoded from
    /// its own encoded values is a programmer error.
    open func copy() -> Self {
        do {
            let container = try persistenceContainer()
            let copy = try Self(row: Row(columnNames: container.columns, databaseValues: container.databaseValues))
            copy.referenceRow = referenceRow
            return copy
        } catch {
            preconditionFailure("\(Self.self).copy(): the record cannot be decoded from its own values: \(error)")
        }
    }

    /// True when the record has values that differ from the row it was fetched from or last saved to (always
    /// true for a record that was never fetched or saved). Setting false makes the current values the reference;
    /// setting true forgets the reference.
    public var hasDatabaseChanges: Bool {
        get { !databaseChanges.isEmpty }
        set {
            if newValue {
                referenceRow = nil
            } else if let container = try? persistenceContainer() {
                referenceRow = Row(columnNames: container.columns, databaseValues: container.databaseValues)
            }
        }
    }

    /// The changed columns, with their old values (nil when there is no reference row).
    public var databaseChanges: [String: DatabaseValue?] {
        guard let container = try? persistenceContainer() else { return [:] }
        var changes: [String: DatabaseValue?] = [:]
        for (column, value) in zip(container.columns, container.databaseValues) {
            guard let referenceRow else {
                changes[column] = .some(nil)
                continue
            }
            let old: DatabaseValue? = referenceRow.hasColumn(column) ? referenceRow[column] : nil
            if old != value { changes[column] = .some(old) }
        }
        return changes
    }

    /// Updates the changed columns only, and returns whether there was a change to save.
    ///
    ///     place.title = "Paris"
    ///     try place.updateChanges(db)   // UPDATE "place" SET "title" = ? WHERE "id" = ?
    @discardableResult
    public final func updateChanges(_ db: Database) throws -> Bool {
        let changedColumns = Set(databaseChanges.keys)
        if changedColumns.isEmpty { return false }
        // Through the dynamic type: called from here, the protocol method would see `Record` (and its table name)
        // instead of the subclass.
        let dynamicType: any MutablePersistableRecord.Type = type(of: self)
        try update(as: dynamicType, db, columns: changedColumns)
        return true
    }

    private func update<T: MutablePersistableRecord>(as type: T.Type, _ db: Database, columns: Set<String>) throws {
        guard let record = self as? T else { return }
        try record.update(db, columns: columns)
    }
}
