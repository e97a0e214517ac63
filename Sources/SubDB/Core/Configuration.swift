import Foundation

/// How a connection is opened and set up.
///
///     var config = Configuration()
///     config.foreignKeysEnabled = true          // the default
///     config.busyMode = .timeout(5)             // wait up to 5 seconds for a lock
///     config.prepareDatabase { db in
///         db.add(function: reverse)
///         db.trace { print($0) }
///     }
///     let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
public struct Configuration: Sendable {
    /// What a connection does when another connection holds the lock it needs.
    public enum BusyMode: Sendable {
        /// Fail at once with `SQLITE_BUSY` ("database is locked").
        case immediateError
        /// Retry for up to this many seconds, then fail with `SQLITE_BUSY`.
        case timeout(TimeInterval)
    }

    /// Enforce foreign keys (`PRAGMA foreign_keys = ON`). Default true.
    public var foreignKeysEnabled = true

    /// Open read-only: every write throws `SQLITE_READONLY`. Default false.
    public var readonly = false

    /// Open the file as immutable (SQLite's `immutable=1` URI parameter; implies ``readonly``): no lock is taken
    /// and no `-wal` or `-shm` file is read or made. For a database nobody changes while it is open (read-only
    /// media, a folder the user cannot write, where WAL's shared memory cannot be made); changes made meanwhile
    /// are not seen, nor are pages still in a `-wal` file. Default false.
    public var immutable = false

    /// What to do on a locked database. Default ``BusyMode/immediateError``.
    public var busyMode = BusyMode.immediateError

    /// What read-only connections (the readers of a ``DatabasePool``) do on a locked database; nil (the
    /// default) for ``busyMode``.
    public var readonlyBusyMode: BusyMode?

    /// The journal mode a ``DatabaseQueue`` sets when it opens a writable file. A ``DatabasePool`` always uses WAL.
    public enum JournalModeConfiguration: Sendable {
        /// Leave SQLite's mode (a rollback journal unless the file is already in WAL mode).
        case `default`
        /// `PRAGMA journal_mode = WAL`.
        case wal
    }

    /// The journal mode of writable connections. Default ``JournalModeConfiguration/default``.
    public var journalMode = JournalModeConfiguration.default

    /// When true, errors carry the statement arguments (``DatabaseError/arguments``) and show them in their
    /// description. Default false, as in GRDB: arguments may hold private data that must not reach logs.
    public var publicStatementArguments = false

    /// The clock of ``Database/transactionDate``. Default ``DefaultTransactionClock`` (the system time).
    public var transactionClock: any TransactionClock = .default

    /// Schema facts SQLite cannot tell, such as the primary key of a view. Default nil.
    public var schemaSource: (any DatabaseSchemaSource)?

    /// The most reader connections a ``DatabasePool`` opens. Default 5.
    public var maximumReaderCount = 5

    /// A name for the connections, used in dispatch queue labels.
    public var label: String?

    /// Receives the expanded SQL of every statement executed by every connection (`config.trace = { print($0) }`).
    public var trace: (@Sendable (String) -> Void)?

    /// Set-up run on every new connection, after SubDB's own.
    var setups: [@Sendable (Database) throws -> Void] = []
    /// Run once each connection is open and set up.
    var didOpenActions: [@Sendable () -> Void] = []
    /// Run before each connection closes, with its `sqlite3 *` handle.
    var willCloseActions: [@Sendable (OpaquePointer) -> Void] = []

    /// The default configuration.
    public init() {}

    /// Adds a set-up closure run on every new connection (register functions, tracing, pragmas).
    public mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
        setups.append(setup)
    }

    /// Adds a closure run whenever a connection has been opened and set up.
    public mutating func onConnectionDidOpen(_ action: @escaping @Sendable () -> Void) {
        didOpenActions.append(action)
    }

    /// Adds a closure run whenever a connection is about to close, with its raw `sqlite3 *` handle.
    ///
    ///     config.onConnectionWillClose { connection in print(sqlite3_db_readonly(connection, nil)) }
    public mutating func onConnectionWillClose(_ action: @escaping @Sendable (OpaquePointer) -> Void) {
        willCloseActions.append(action)
    }
}

extension Database {
    /// What a connection does on a locked database, under GRDB's name: `Database.BusyMode.timeout(5)`.
    public typealias BusyMode = Configuration.BusyMode
}
