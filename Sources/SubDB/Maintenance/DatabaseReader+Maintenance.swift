import Foundation

extension DatabaseReader {
    /// Copies the whole database into `destination` (a queue or a pool), replacing its content. The copy is
    /// one consistent snapshot even while writes go on: a pool copies from a read transaction, a queue from
    /// its serial queue; the destination is locked for the duration (`barrierWriteWithoutTransaction`).
    ///
    ///     try dbPool.backup(to: try DatabaseQueue(path: "/path/to/backup.sqlite"))
    public func backup(to destination: some DatabaseWriter) throws {
        guard destination !== self else {
            throw DatabaseError.misuse("cannot back up a database into itself")
        }
        if let pool = self as? DatabasePool {
            try pool.read { source in
                // Start the read transaction now: the snapshot the backup copies.
                _ = try Int.fetchOne(source, sql: "SELECT 1 FROM sqlite_master LIMIT 1")
                try destination.barrierWriteWithoutTransaction { target in try source.backup(to: target) }
            }
        } else {
            try unsafeRead { source in
                try destination.barrierWriteWithoutTransaction { target in try source.backup(to: target) }
            }
        }
    }

    /// Aborts the statements that run now on every connection (they throw `SQLITE_INTERRUPT`); the
    /// connections stay usable. Callable from any thread. The corresponding C function is `sqlite3_interrupt`.
    ///
    ///     DispatchQueue.global().async { dbQueue.interrupt() }
    public func interrupt() {
        if let queue = self as? DatabaseQueue {
            queue.serialized.database.interrupt()
        } else if let pool = self as? DatabasePool {
            pool.writer.database.interrupt()
            pool.readerRegistry.forEach { $0.interrupt() }
        }
    }

    /// The problems `PRAGMA integrity_check` finds; empty when the database is sound.
    ///
    ///     let problems = try dbQueue.integrityCheck()
    ///     if !problems.isEmpty { print(problems.joined(separator: "\n")) }
    public func integrityCheck(maximumProblems: Int = 100) throws -> [String] {
        try unsafeRead { db in try db.integrityCheck(maximumProblems: maximumProblems) }
    }

    /// The problems `PRAGMA quick_check` finds; empty when the database is sound.
    public func quickCheck(maximumProblems: Int = 100) throws -> [String] {
        try unsafeRead { db in try db.quickCheck(maximumProblems: maximumProblems) }
    }

    /// Writes a compacted copy of the database to a new file (`VACUUM INTO`).
    public func vacuum(into path: String) throws {
        try unsafeRead { db in try db.vacuum(into: path) }
    }
}

extension DatabaseWriter {
    /// Rebuilds the database file, reclaiming free pages (`VACUUM`), with reads blocked on a pool.
    public func vacuum() throws {
        try barrierWriteWithoutTransaction { db in try db.vacuum() }
    }
}

extension DatabasePool {
    /// Runs a WAL checkpoint on the writer connection and returns the frames in the WAL and the frames
    /// checkpointed.
    ///
    ///     try dbPool.checkpoint(.truncate)   // the -wal file is now empty
    @discardableResult
    public func checkpoint(_ mode: Database.CheckpointMode = .passive) throws
        -> (walFrameCount: Int, checkpointedFrameCount: Int)
    {
        try writeWithoutTransaction { db in try db.checkpoint(mode) }
    }
}
