internal import CSQLite
import Dispatch
import Foundation

/// A database connection used through one serial dispatch queue: every `read` and `write` runs there, one
/// at a time.
///
///     let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite")
///     try dbQueue.write { db in
///         try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 1000])
///     }
///     let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
///
/// `@unchecked Sendable`: its only state is the `SerializedDatabase`, whose connection is used exclusively on
/// that object's serial `DispatchQueue`.
public final class DatabaseQueue: DatabaseWriter, @unchecked Sendable {
    let serialized: SerializedDatabase

    /// The configuration of the connection.
    public let configuration: Configuration

    /// The path of the database file, `:memory:` for a private in-memory database.
    public let path: String

    /// Opens (and creates if needed) the database file at `path`.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        self.path = path
        let flags = configuration.readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        serialized = try SerializedDatabase(
            path: path, configuration: configuration, label: configuration.label ?? "SubDB.DatabaseQueue",
            flags: flags)
    }

    /// Opens a private in-memory database.
    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        self.path = ":memory:"
        serialized = try SerializedDatabase(
            path: ":memory:", configuration: configuration, label: configuration.label ?? "SubDB.DatabaseQueue",
            flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    }

    /// Opens a shared in-memory database: queues opened with the same name see the same database while one
    /// of them is alive.
    public init(named name: String, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        self.path = "file:\(name)?mode=memory&cache=shared"
        serialized = try SerializedDatabase(
            path: path, configuration: configuration, label: configuration.label ?? "SubDB.DatabaseQueue.\(name)",
            flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI)
    }

    // MARK: Reading

    /// Runs read-only database operations and returns their result. The operations are isolated in a
    /// transaction (a savepoint if one is already open): they do not see changes performed by concurrent writes,
    /// even from other processes. Attempts to write throw `SQLITE_READONLY`. Not reentrant.
    ///
    ///     let names = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") }
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try serialized.sync { db in try db.isolatedRead(value) }
    }

    /// Runs read-only database operations on the queue without blocking the calling task. Isolated like the
    /// synchronous `read`: a transaction that does not see concurrent writes; writes throw `SQLITE_READONLY`.
    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            serialized.async {
                continuation.resume(with: Result { try self.serialized.database.isolatedRead(value) })
            }
        }
    }

    /// Runs read-only database operations later, on the queue; `value` receives the connection or the error that
    /// prevented the access. Isolated in a transaction: `value` does not see concurrent writes, even from other
    /// processes; writes throw `SQLITE_READONLY`.
    ///
    ///     dbQueue.asyncRead { result in
    ///         guard let db = try? result.get() else { return }
    ///         let count = try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
    ///     }
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        serialized.async {
            let db = self.serialized.database
            do {
                try db.isolatedRead { value(.success($0)) }
            } catch {
                value(.failure(error))
            }
        }
    }

    /// Runs `updates` later, in a transaction on the queue, then `completion` with the result.
    public func asyncWrite<T>(
        _ updates: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Database, Result<T, any Error>) -> Void
    ) {
        serialized.async {
            let db = self.serialized.database
            completion(db, Result { try db.inWriteTransaction(updates) })
        }
    }

    /// Runs database operations without isolation and without the read-only guard: they run outside of any
    /// transaction, so two statements may see different states when other connections write in between.
    /// Not reentrant.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try serialized.sync(value)
    }

    /// Runs database operations without isolation and without the read-only guard, reusing the current access
    /// (and whatever transaction it has open) when called from inside one. Reentrant.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try serialized.reentrantSync(value)
    }

    // MARK: Writing

    /// Runs `updates` in one IMMEDIATE transaction, committed on return and rolled back on error.
    ///
    ///     try dbQueue.write { db in
    ///         try db.execute(sql: "UPDATE player SET score = score + 1")
    ///     }
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try serialized.sync { db in try db.inWriteTransaction(updates) }
    }

    /// Runs `updates` in one transaction, on the queue, without blocking the calling task.
    public func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            serialized.async {
                continuation.resume(with: Result { try self.serialized.database.inWriteTransaction(updates) })
            }
        }
    }

    /// Runs `updates` outside of any transaction.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try serialized.sync(updates)
    }

    /// Same as ``writeWithoutTransaction(_:)``: a queue has no concurrent readers.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try serialized.sync(updates)
    }

    /// Runs `updates`, reusing the current access when called from inside one.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) throws -> T {
        try serialized.reentrantSync(updates)
    }

    /// Runs `updates` on the connection, outside of any transaction, and rethrows only its errors (as GRDB's
    /// `inDatabase`). Calling it from inside another access of this queue is a programmer error (a deadlock).
    public func inDatabase<T>(_ updates: (Database) throws -> T) rethrows -> T {
        precondition(
            !serialized.isOnQueue,
            "Database methods are not reentrant: use the `db` argument of the enclosing read or write closure")
        return try serialized.blockingSync(updates)
    }

    /// Runs `updates` in a transaction that commits or rolls back as the closure says.
    ///
    ///     try dbQueue.inTransaction { db in
    ///         try db.execute(sql: "INSERT ...")
    ///         return .commit
    ///     }
    public func inTransaction(
        _ kind: Database.TransactionKind? = nil, _ updates: (Database) throws -> Database.TransactionCompletion
    ) throws {
        try serialized.sync { db in try db.inTransaction(kind) { try updates(db) } }
    }
}
