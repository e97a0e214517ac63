internal import CSQLite
import Foundation

/// What a compiled statement reads and writes, as SQLite's authorizer reports it while the statement
/// compiles (`SQLITE_READ`, `SQLITE_INSERT`, `SQLITE_DELETE`, `SQLITE_UPDATE`).
struct StatementAuthorization {
    /// Tables and columns read.
    var readRegion = DatabaseRegion()
    /// Lower-cased table → lower-cased updated columns.
    var updatedColumns: [String: Set<String>] = [:]
    /// Lower-cased tables written by INSERT.
    var insertedTables: Set<String> = []
    /// Lower-cased tables written by DELETE.
    var deletedTables: Set<String> = []
    /// Changes to virtual tables (FTS5...), which the update hook does not report: one event per kind is
    /// reported after each statement that changed rows.
    var virtualTableChanges: [(kind: DatabaseEvent.Kind, table: String, columns: Set<String>)] = []
    /// `SQLITE_STMTSTATUS_REPREPARE` of the statement when analyzed: SQLite recompiles statements after
    /// schema changes, and the analysis is then redone.
    var reprepareCount: Int32 = 0
    /// What a `SAVEPOINT`, `RELEASE` or `ROLLBACK TO` statement does to the savepoint stack, applied when it
    /// succeeds.
    var savepoint: (operation: SavepointOperation, name: String)?
}

/// The savepoint statements, as the authorizer names them (`SQLITE_SAVEPOINT`).
enum SavepointOperation: String {
    case begin = "BEGIN"
    case release = "RELEASE"
    case rollback = "ROLLBACK"
}

/// The observation side of one connection: transaction observers and the SQLite hooks that feed them
/// (`sqlite3_update_hook`, `sqlite3_commit_hook`, `sqlite3_rollback_hook`), the authorizer
/// (`sqlite3_set_authorizer`) that tells what statements read and update, and region tracking for
/// ``ValueObservation``.
///
/// Owned by its ``Database`` and used only on that connection's queue. The C hooks receive it unretained: the
/// connection, which owns it, is closed before it is released.
final class DatabaseObservationBroker {
    private struct Entry {
        weak var weakObserver: (any TransactionObserver)?
        var strongObserver: (any TransactionObserver)?
        let identifier: ObjectIdentifier
        let extent: TransactionObservationExtent
        var observer: (any TransactionObserver)? { strongObserver ?? weakObserver }
    }

    unowned let database: Database
    private let sqliteConnection: OpaquePointer
    private var entries: [Entry] = []
    private var hooksInstalled = false
    /// True while observers exist: the authorizer stays installed so that DELETE statements compile without
    /// the truncate optimization (which would skip the update hook).
    private var authorizerIsPermanent = false
    /// Filled by the authorizer while `authorization(sql:)` compiles.
    private var recording: StatementAuthorization?
    /// The region read by the statements of a tracked fetch, nil outside of one.
    private var trackingRegion: DatabaseRegion?
    /// The authorization of the statement being stepped, for the columns of update events.
    private var currentAuthorization: StatementAuthorization?
    /// Observers interested in each event kind during the current statement.
    private var interest: [DatabaseEventKind: [any TransactionObserver]] = [:]
    /// The action of the previous authorizer call, to recognize the delete that follows a drop.
    private var lastAuthorizedAction: Int32 = 0
    /// Authorizer actions a DROP statement reports just before the delete of the object it drops.
    private static let dropActions: Set<Int32> = [
        SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_VTABLE,
    ]
    private var pendingCommit = false
    private var pendingRollback = false
    /// Open savepoints, innermost last, with the number of buffered events when each began. While one is open,
    /// events wait in `savepointEvents`: a `ROLLBACK TO` drops those of the savepoint, the release of the
    /// outermost one or the commit delivers the rest, as GRDB does.
    private var savepointStack: [(name: String, eventCount: Int)] = []
    private var savepointEvents: [DatabaseEvent] = []

    init(database: Database) {
        self.database = database
        self.sqliteConnection = database.sqliteConnection
    }

    private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: Observers

    func add(_ observer: some TransactionObserver, extent: TransactionObservationExtent) {
        var entry = Entry(identifier: ObjectIdentifier(observer), extent: extent)
        if extent == .observerLifetime {
            entry.weakObserver = observer
        } else {
            entry.strongObserver = observer
        }
        entries.append(entry)
        interest.removeAll()
        if !hooksInstalled { installHooks() }
        if !authorizerIsPermanent {
            authorizerIsPermanent = true
            installAuthorizer()
            // Recompile cached statements with the authorizer, so that DELETEs skip the truncate optimization.
            database.statementCache = database.statementCache.filter { $0.value.isBusy }
        }
    }

    func remove(_ observer: some TransactionObserver) {
        let identifier = ObjectIdentifier(observer)
        entries.removeAll { $0.identifier == identifier }
        interest.removeAll()
    }

    /// Live observers, after dropping the deallocated ones.
    private var observers: [any TransactionObserver] {
        var result: [any TransactionObserver] = []
        var sawDeallocated = false
        for entry in entries {
            if let observer = entry.observer { result.append(observer) } else { sawDeallocated = true }
        }
        if sawDeallocated { entries.removeAll { $0.observer == nil } }
        return result
    }

    private var hasObservers: Bool { !entries.isEmpty }

    // MARK: Stepping statements

    /// `sqlite3_step` with observation around it: the statement's region joins the tracked region, update
    /// events learn their columns, and commits and rollbacks are reported once the step is over.
    func step(_ statement: Statement) -> Int32 {
        if !statement.isBusy && (trackingRegion != nil || hasObservers) {
            statementWillStart(statement)
        }
        let code = statement.stepWithoutObservation()
        if code == SQLITE_DONE, hasObservers, let savepoint = statement.authorization?.savepoint {
            savepointDidChange(savepoint.operation, name: savepoint.name)
        }
        if code == SQLITE_DONE, hasObservers, let changes = statement.authorization?.virtualTableChanges,
            !changes.isEmpty, sqlite3_changes(sqliteConnection) > 0
        {
            for change in changes {
                dispatch(
                    DatabaseEvent(
                        kind: change.kind, databaseName: "main", tableName: change.table,
                        rowID: sqlite3_last_insert_rowid(sqliteConnection), updatedColumns: change.columns))
            }
        }
        if let known = statement.authorization, known.reprepareCount != reprepareCount(statement),
            trackingRegion != nil || hasObservers
        {
            // SQLite recompiled the statement for a new schema during this step: what it reads may differ.
            statementWillStart(statement)
        }
        if pendingCommit || pendingRollback { transactionDidEnd() }
        return code
    }

    /// Applies a savepoint statement that succeeded to the savepoint stack.
    private func savepointDidChange(_ operation: SavepointOperation, name: String) {
        switch operation {
        case .begin:
            savepointStack.append((name, savepointEvents.count))
        case .release:
            guard let index = savepointStack.lastIndex(where: { $0.name == name }) else { return }
            savepointStack.removeSubrange(index...)
            if savepointStack.isEmpty { deliverSavepointEvents() }
        case .rollback:
            guard let index = savepointStack.lastIndex(where: { $0.name == name }) else { return }
            // ROLLBACK TO keeps the savepoint itself open.
            savepointEvents.removeSubrange(savepointStack[index].eventCount...)
            savepointStack.removeSubrange((index + 1)...)
        }
    }

    /// Hands the events kept since the outermost savepoint to the observers, and forgets the savepoints.
    private func deliverSavepointEvents() {
        let events = savepointEvents
        savepointStack.removeAll()
        savepointEvents.removeAll()
        for event in events { dispatch(event) }
    }

    private func reprepareCount(_ statement: Statement) -> Int32 {
        sqlite3_stmt_status(statement.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
    }

    private func statementWillStart(_ statement: Statement) {
        let authorization: StatementAuthorization
        let count = reprepareCount(statement)
        if let known = statement.authorization, known.reprepareCount == count {
            authorization = known
        } else {
            var analyzed = analyze(sql: statement.sql)
            analyzed.reprepareCount = count
            authorization = analyzed
            statement.authorization = authorization
        }
        if trackingRegion != nil { trackingRegion?.formUnion(authorization.readRegion) }
        if hasObservers {
            currentAuthorization = authorization
            interest.removeAll(keepingCapacity: true)
        }
    }

    /// The authorization of `sql`, or a conservative one when it does not compile here.
    private func analyze(sql: String) -> StatementAuthorization {
        do {
            var authorization = try authorization(sql: sql)
            for table in authorization.insertedTables where isVirtualTable(table) {
                authorization.virtualTableChanges.append((.insert, table, []))
            }
            for table in authorization.deletedTables where isVirtualTable(table) {
                authorization.virtualTableChanges.append((.delete, table, []))
            }
            for (table, columns) in authorization.updatedColumns where isVirtualTable(table) {
                authorization.virtualTableChanges.append((.update, table, columns))
            }
            return authorization
        } catch {
            var unknown = StatementAuthorization()
            unknown.readRegion = .fullDatabase
            return unknown
        }
    }

    /// True for `CREATE VIRTUAL TABLE` tables. Reads `sqlite_master` with the C API directly, so that the
    /// query is neither observed nor tracked.
    private func isVirtualTable(_ table: String) -> Bool {
        var handle: OpaquePointer?
        let sql =
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE AND sql LIKE 'CREATE VIRTUAL TABLE%'"
        guard sqlite3_prepare_v2(sqliteConnection, sql, -1, &handle, nil) == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            return false
        }
        defer { sqlite3_finalize(handle) }
        sqlite3_bind_text(handle, 1, table, -1, csqlite_transient())
        return sqlite3_step(handle) == SQLITE_ROW
    }

    /// Runs `body` and returns the region read by the statements it ran.
    func tracking<T>(_ body: () throws -> T) rethrows -> (T, DatabaseRegion) {
        let outer = trackingRegion
        trackingRegion = DatabaseRegion()
        defer {
            if let outer, let inner = trackingRegion {
                trackingRegion = outer.union(inner)
            } else {
                trackingRegion = outer
            }
        }
        let value = try body()
        return (value, trackingRegion ?? DatabaseRegion())
    }

    // MARK: Authorizer

    /// Compiles `sql` (without running it) with the authorizer recording what it reads and writes.
    func authorization(sql: String) throws -> StatementAuthorization {
        let outerRecording = recording
        recording = StatementAuthorization()
        if !authorizerIsPermanent { installAuthorizer() }
        defer {
            if !authorizerIsPermanent { sqlite3_set_authorizer(sqliteConnection, nil, nil) }
            recording = outerRecording
        }
        try sql.withCString { cString in
            var handle: OpaquePointer?
            let code = sqlite3_prepare_v3(sqliteConnection, cString, -1, 0, &handle, nil)
            sqlite3_finalize(handle)
            guard code == SQLITE_OK else {
                throw DatabaseError.connectionError(sqliteConnection, code: code, sql: sql)
            }
        }
        return recording ?? StatementAuthorization()
    }

    private func installAuthorizer() {
        sqlite3_set_authorizer(
            sqliteConnection,
            { context, action, first, second, _, _ in
                guard let context else { return SQLITE_OK }
                let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
                return broker.authorize(action: action, first: first, second: second)
            }, context)
    }

    private func authorize(action: Int32, first: UnsafePointer<CChar>?, second: UnsafePointer<CChar>?) -> Int32 {
        let previousAction = lastAuthorizedAction
        lastAuthorizedAction = action
        switch action {
        case SQLITE_READ:
            if recording != nil, let first {
                let table = String(cString: first)
                let column = second.map { String(cString: $0) } ?? ""
                // An empty column: the table is read without its columns (`SELECT COUNT(*) FROM t`).
                recording?.readRegion.formUnion(
                    DatabaseRegion(table: table, columns: column.isEmpty ? nil : [column]))
            }
        case SQLITE_INSERT:
            if recording != nil, let first { recording?.insertedTables.insert(String(cString: first).lowercased()) }
        case SQLITE_UPDATE:
            if recording != nil, let first, let second {
                recording?.updatedColumns[String(cString: first).lowercased(), default: []]
                    .insert(String(cString: second).lowercased())
            }
        case SQLITE_SAVEPOINT:
            if recording != nil, let first, let second,
                let operation = SavepointOperation(rawValue: String(cString: first))
            {
                recording?.savepoint = (operation, String(cString: second).lowercased())
            }
        case SQLITE_DELETE:
            guard let first else { break }
            // A DROP TABLE / VIEW authorizes its drop action, then a delete of the dropped object: SQLite skips
            // the whole DROP, silently, unless that delete gets SQLITE_OK.
            if Self.dropActions.contains(previousAction) { return SQLITE_OK }
            if recording != nil { recording?.deletedTables.insert(String(cString: first).lowercased()) }
            // SQLITE_IGNORE keeps the delete but turns off the truncate optimization, so that the update hook
            // sees every deleted row. SQLite's own tables keep their behaviour.
            if authorizerIsPermanent && strncmp(first, "sqlite_", 7) != 0 { return SQLITE_IGNORE }
        default:
            break
        }
        return SQLITE_OK
    }

    // MARK: Hooks

    private func installHooks() {
        hooksInstalled = true
        sqlite3_update_hook(
            sqliteConnection,
            { context, operation, databaseName, tableName, rowID in
                guard let context, let databaseName, let tableName else { return }
                let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
                broker.databaseDidChange(
                    operation: operation, databaseName: databaseName, tableName: tableName, rowID: rowID)
            }, context)
        sqlite3_commit_hook(
            sqliteConnection,
            { context in
                guard let context else { return 0 }
                let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
                return broker.databaseWillCommit()
            }, context)
        sqlite3_rollback_hook(
            sqliteConnection,
            { context in
                guard let context else { return }
                let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
                broker.pendingCommit = false
                broker.pendingRollback = true
            }, context)
    }

    private func databaseDidChange(
        operation: Int32, databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>, rowID: Int64
    ) {
        guard hasObservers else { return }
        let table = String(cString: tableName)
        let kind: DatabaseEvent.Kind
        var columns: Set<String> = []
        switch operation {
        case SQLITE_INSERT: kind = .insert
        case SQLITE_DELETE: kind = .delete
        default:
            kind = .update
            columns = currentAuthorization?.updatedColumns[table.lowercased()] ?? []
        }
        dispatch(
            DatabaseEvent(
                kind: kind, databaseName: String(cString: databaseName), tableName: table, rowID: rowID,
                updatedColumns: columns))
    }

    /// Hands an event to the observers interested in its kind.
    private func dispatch(_ event: DatabaseEvent) {
        if !savepointStack.isEmpty {
            savepointEvents.append(event)
            return
        }
        let eventKind = event.eventKind
        let interested: [any TransactionObserver]
        if let cached = interest[eventKind] {
            interested = cached
        } else {
            interested = observers.filter { $0.observes(eventsOfKind: eventKind) }
            interest[eventKind] = interested
        }
        for observer in interested { observer.databaseDidChange(with: event) }
    }

    private func databaseWillCommit() -> Int32 {
        // The release of the outermost savepoint may be the commit: its events come before willCommit.
        if !savepointStack.isEmpty { deliverSavepointEvents() }
        for observer in observers {
            do {
                try observer.databaseWillCommit()
            } catch {
                return 1  // SQLite rolls back; the COMMIT fails with SQLITE_CONSTRAINT_COMMITHOOK
            }
        }
        pendingCommit = true
        return 0
    }

    /// Reports the end of a transaction once the step that ended it is over, when observers may use the
    /// connection again.
    private func transactionDidEnd() {
        let committed = pendingCommit && sqlite3_get_autocommit(sqliteConnection) != 0
        let rolledBack = pendingRollback
        pendingCommit = false
        pendingRollback = false
        savepointStack.removeAll()
        savepointEvents.removeAll()
        currentAuthorization = nil
        interest.removeAll()
        guard committed || rolledBack else { return }
        let current = observers
        entries.removeAll { $0.extent == .nextTransaction }
        for observer in current {
            if rolledBack {
                observer.databaseDidRollback(database)
            } else {
                observer.databaseDidCommit(database)
            }
        }
    }
}
