internal import CSQLite
import Dispatch
import Foundation
import Synchronization

/// A WAL database with one writer connection and up to `maximumReaderCount` reader connections, so that
/// reads run concurrently with each other and with the writer.
///
///     let dbPool = try DatabasePool(path: "/path/to/database.sqlite")
///     try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"]) }
///     let names = try dbPool.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") }
///
/// Each `read` runs in a deferred transaction on a read-only reader connection, so it sees one committed
/// snapshot of the database, and never waits for the writer. Readers are opened lazily.
///
/// `@unchecked Sendable`: the writer connection is used only on its `SerializedDatabase`'s serial
/// `DispatchQueue`; idle readers live in `idleReaders`, touched only under the `readerLock` Mutex, and a
/// checked-out reader is used by the one thread that checked it out; `readerSlots` bounds their number.
public final class DatabasePool: DatabaseWriter, @unchecked Sendable {
    let writer: SerializedDatabase

    /// The configuration of the connections.
    public let configuration: Configuration

    /// The path of the database file.
    public let path: String

    private let readerLock = Mutex<Void>(())
    private var idleReaders: [Database] = []
    private var readerCount = 0
    /// Every reader ever opened, for `interrupt()` (Maintenance/).
    let readerRegistry = ReaderRegistry()
    private let readerSlots: DispatchSemaphore
    private let maximumReaderCount: Int
    /// The reader the current thread is using, so that a read nested in a read reuses it instead of waiting for
    /// another reader (which would deadlock once all readers are taken). The corresponding C type is
    /// `pthread_key_t`.
    private let currentReaderKey: pthread_key_t

    /// Opens (and creates if needed) the database at `path` in WAL mode.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        self.path = path
        maximumReaderCount = max(1, configuration.maximumReaderCount)
        readerSlots = DispatchSemaphore(value: maximumReaderCount)
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else {
            throw DatabaseError(resultCode: .SQLITE_NOMEM, message: "pthread_key_create failed: \(path)")
        }
        currentReaderKey = key
        let label = configuration.label ?? "SubDB.DatabasePool"
        let flags = configuration.readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        writer = try SerializedDatabase(
            path: path, configuration: configuration, label: "\(label).writer", flags: flags)
        if !configuration.readonly {
            try writer.sync { db in
                let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                guard mode?.lowercased() == "wal" else {
                    throw DatabaseError(
                        resultCode: .SQLITE_ERROR,
                        message: "could not activate WAL mode (got \(mode ?? "nil")): \(path)")
                }
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
    }

    deinit {
        // Readers close before the writer (stored properties would go in declaration order, writer first): the
        // last connection to close checkpoints the WAL and deletes it, and read-only readers cannot.
        idleReaders.removeAll()
        pthread_key_delete(currentReaderKey)
    }

    // MARK: Readers

    /// The reader already in use by the current thread, if any.
    private func currentReader() -> Database? {
        guard let pointer = pthread_getspecific(currentReaderKey) else { return nil }
        return Unmanaged<Database>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Takes an idle reader, or opens a new one, waiting when `maximumReaderCount` are busy.
    private func checkoutReader() throws -> Database {
        readerSlots.wait()
        let idle: Database? = readerLock.withLock { _ in
            if let reader = idleReaders.popLast() { return reader }
            readerCount += 1
            return nil
        }
        if let idle {
            idle.clearSchemaCache()
            return idle
        }
        do {
            let number = readerLock.withLock { _ in readerCount }
            let label = (configuration.label ?? "SubDB.DatabasePool") + ".reader.\(number)"
            let reader = try Database(
                path: path, configuration: configuration, label: label, flags: SQLITE_OPEN_READONLY)
            return readerRegistry.register(reader)
        } catch {
            readerLock.withLock { _ in readerCount -= 1 }
            readerSlots.signal()
            throw error
        }
    }

    /// Returns a reader to the idle list.
    private func checkinReader(_ reader: Database) {
        readerLock.withLock { _ in idleReaders.append(reader) }
        readerSlots.signal()
    }

    /// Runs `body` on a reader of its own.
    private func withNewReader<T>(_ body: (Database) throws -> T) throws -> T {
        let reader = try checkoutReader()
        pthread_setspecific(currentReaderKey, Unmanaged.passUnretained(reader).toOpaque())
        defer {
            pthread_setspecific(currentReaderKey, nil)
            checkinReader(reader)
        }
        return try body(reader)
    }

    // MARK: Reading

    /// Runs read-only database operations in a transaction on a reader connection and returns their result. The
    /// operations are isolated: they see one committed snapshot and do not see changes performed by concurrent
    /// writes, even from other processes. Writes throw `SQLITE_READONLY`. A read nested in a read runs in the
    /// same transaction.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        if let current = currentReader() { return try value(current) }
        return try withNewReader { db in try db.inReadTransaction(value) }
    }

    /// Runs read-only database operations off the calling task, isolated like the synchronous `read`: one
    /// snapshot, unaffected by concurrent writes; writes throw `SQLITE_READONLY`.
    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.read(value) })
            }
        }
    }

    /// Runs read-only database operations later, on a reader connection; `value` receives the connection or the
    /// error that prevented the access. Isolated in a transaction: `value` sees one snapshot, unaffected by
    /// concurrent writes; writes throw `SQLITE_READONLY`.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        DispatchQueue.global().async {
            do {
                try self.withNewReader { db in try db.inReadTransaction { value(.success($0)) } }
            } catch {
                value(.failure(error))
            }
        }
    }

    /// Runs `updates` later, in a transaction on the writer, then `completion` with the result.
    public func asyncWrite<T>(
        _ updates: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Database, Result<T, any Error>) -> Void
    ) {
        writer.async {
            let db = self.writer.database
            completion(db, Result { try db.inWriteTransaction(updates) })
        }
    }

    /// Runs database operations on a reader connection without isolation: outside of any transaction, so two
    /// statements may see different states when the writer commits in between. Writes throw `SQLITE_READONLY`
    /// (the reader is read-only). Not reentrant except from inside a read.
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        if let current = currentReader() { return try value(current) }
        return try withNewReader(value)
    }

    /// Runs database operations without isolation, reentrantly: on the writer (in whatever transaction it has
    /// open) when called from a write, else on a reader outside of any transaction.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        if writer.isOnQueue { return try value(writer.database) }
        return try unsafeRead(value)
    }

    // MARK: Writing

    /// Runs `updates` in one IMMEDIATE transaction on the writer; a thrown error rolls it back.
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.sync { db in try db.inWriteTransaction(updates) }
    }

    /// Runs `updates` in one transaction on the writer, off the calling task.
    public func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writer.async {
                continuation.resume(with: Result { try self.writer.database.inWriteTransaction(updates) })
            }
        }
    }

    /// Runs `updates` on the writer, outside of any transaction.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.sync(updates)
    }

    /// Waits until no read runs, then runs `updates` on the writer with all reads blocked.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        if currentReader() != nil || writer.isOnQueue {
            // Waiting for every reader from inside a read (or the writer) would never end.
            throw DatabaseError.misuse(
                "Database methods are not reentrant: use the `db` argument of the enclosing read or write closure")
        }
        for _ in 0..<maximumReaderCount { readerSlots.wait() }
        defer { for _ in 0..<maximumReaderCount { readerSlots.signal() } }
        return try writer.sync(updates)
    }

    /// Runs `updates` on the writer, reusing the current write access when called from inside one.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.reentrantSync(updates)
    }
}
