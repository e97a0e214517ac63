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

    /// What to do on a locked database. Default ``BusyMode/immediateError``.
    public var busyMode = BusyMode.immediateError

    /// The most reader connections a ``DatabasePool`` opens. Default 5.
    public var maximumReaderCount = 5

    /// A name for the connections, used in dispatch queue labels.
    public var label: String?

    /// Receives the expanded SQL of every statement executed by every connection (`config.trace = { print($0) }`).
    public var trace: (@Sendable (String) -> Void)?

    /// Set-up run on every new connection, after SubDB's own.
    var setups: [@Sendable (Database) throws -> Void] = []

    /// The default configuration.
    public init() {}

    /// Adds a set-up closure run on every new connection (register functions, tracing, pragmas).
    public mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
        setups.append(setup)
    }
}
