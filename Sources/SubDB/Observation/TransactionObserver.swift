/// An object told about the changes and the transactions of a connection, registered with
/// ``Database/add(transactionObserver:extent:)``.
///
///     final class PlayerChangeCounter: TransactionObserver {
///         var changes = 0
///         func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "player" }
///         func databaseDidChange(with event: DatabaseEvent) { changes += 1 }
///         func databaseDidCommit(_ db: Database) { print("\(changes) changes committed"); changes = 0 }
///         func databaseDidRollback(_ db: Database) { changes = 0 }
///     }
///
/// The methods run on the connection's queue. `databaseDidChange(with:)` and `databaseWillCommit()` run inside
/// SQLite's hooks and must not use the connection; `databaseDidCommit(_:)` and `databaseDidRollback(_:)` may.
/// Changes rolled back to a savepoint are reported as they happen, with no event undoing them.
public protocol TransactionObserver: AnyObject {
    /// Whether the observer wants the events of this kind (asked once per statement and table).
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool

    /// A row was inserted, updated or deleted. The corresponding C function is `sqlite3_update_hook`.
    func databaseDidChange(with event: DatabaseEvent)

    /// A transaction is about to commit; throwing rolls it back. The corresponding C function is
    /// `sqlite3_commit_hook`.
    func databaseWillCommit() throws

    /// A transaction has committed.
    func databaseDidCommit(_ db: Database)

    /// A transaction was rolled back. The corresponding C function is `sqlite3_rollback_hook`.
    func databaseDidRollback(_ db: Database)
}

extension TransactionObserver {
    /// Does nothing.
    public func databaseWillCommit() throws {}
}

/// How long a transaction observer stays registered.
public enum TransactionObservationExtent: Sendable {
    /// Until the observer is deallocated: the connection holds it weakly.
    case observerLifetime
    /// Until the end of the next transaction (commit or rollback): held strongly until then.
    case nextTransaction
    /// As long as the connection: held strongly.
    case databaseLifetime
}

/// The kind of a change, as `observes(eventsOfKind:)` receives it.
public enum DatabaseEventKind: Hashable, Sendable {
    /// Rows inserted into a table.
    case insert(tableName: String)
    /// Rows deleted from a table.
    case delete(tableName: String)
    /// Columns updated in a table; an empty set means the columns are unknown (a change made by a foreign key
    /// action): treat it as any column.
    case update(tableName: String, columnNames: Set<String>)

    /// The table of the change.
    public var tableName: String {
        switch self {
        case .insert(let tableName), .delete(let tableName), .update(let tableName, _): return tableName
        }
    }
}

/// A row change, as `databaseDidChange(with:)` receives it.
public struct DatabaseEvent: Hashable, Sendable, CustomStringConvertible {
    /// The kind of change.
    public enum Kind: Hashable, Sendable {
        /// `SQLITE_INSERT`.
        case insert
        /// `SQLITE_DELETE`.
        case delete
        /// `SQLITE_UPDATE`.
        case update
    }

    /// The kind of change.
    public let kind: Kind
    /// The database name: `main`, `temp`, or an attached database.
    public let databaseName: String
    /// The table name.
    public let tableName: String
    /// The rowid of the changed row.
    public let rowID: Int64
    /// The updated columns, from the authorizer (empty for inserts, deletes and unknown columns).
    let updatedColumns: Set<String>

    /// The event as a kind, for ``DatabaseRegion/isModified(byEventsOfKind:)``.
    public var eventKind: DatabaseEventKind {
        switch kind {
        case .insert: return .insert(tableName: tableName)
        case .delete: return .delete(tableName: tableName)
        case .update: return .update(tableName: tableName, columnNames: updatedColumns)
        }
    }

    /// A copy of the event, to keep beyond `databaseDidChange(with:)` (SubDB events are values already; GRDB's
    /// must be copied).
    public func copy() -> DatabaseEvent { self }

    /// `insert player(1)`.
    public var description: String { "\(kind) \(tableName)(\(rowID))" }
}

extension Database {
    /// Registers a transaction observer on this connection (for a ``DatabasePool``: the writer, in a `write`).
    ///
    ///     try dbQueue.writeWithoutTransaction { db in db.add(transactionObserver: observer) }
    public func add(
        transactionObserver: some TransactionObserver, extent: TransactionObservationExtent = .observerLifetime
    ) {
        observationBrokerCreatingIfNeeded().add(transactionObserver, extent: extent)
    }

    /// Unregisters a transaction observer.
    public func remove(transactionObserver: some TransactionObserver) {
        observationBroker?.remove(transactionObserver)
    }

    /// The broker of this connection, created on first use.
    func observationBrokerCreatingIfNeeded() -> DatabaseObservationBroker {
        if let observationBroker { return observationBroker }
        let broker = DatabaseObservationBroker(database: self)
        observationBroker = broker
        return broker
    }
}

extension DatabaseWriter {
    /// Registers a transaction observer on the writer connection (works from inside a write, too).
    ///
    ///     dbPool.add(transactionObserver: observer)
    public func add(
        transactionObserver: some TransactionObserver, extent: TransactionObservationExtent = .observerLifetime
    ) {
        // Only a closed connection could make the access fail, and there is nothing to observe then.
        try? unsafeReentrantWrite { db in db.add(transactionObserver: transactionObserver, extent: extent) }
    }

    /// Unregisters a transaction observer from the writer connection.
    public func remove(transactionObserver: some TransactionObserver) {
        try? unsafeReentrantWrite { db in db.remove(transactionObserver: transactionObserver) }
    }
}
