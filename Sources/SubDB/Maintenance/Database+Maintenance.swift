internal import CSQLite
import Foundation

extension Database {
    /// How `checkpoint(_:)` copies the WAL into the database file. The corresponding C constants are
    /// `SQLITE_CHECKPOINT_*`.
    public enum CheckpointMode: Sendable {
        /// Copies what it can without waiting for readers or writers.
        case passive
        /// Waits for the writer, then copies every frame, waiting for readers that use old frames.
        case full
        /// As `.full`, then waits until readers are done with the WAL so that the next writer restarts it.
        case restart
        /// As `.restart`, then truncates the WAL file to zero bytes.
        case truncate

        var rawValue: Int32 {
            switch self {
            case .passive: return SQLITE_CHECKPOINT_PASSIVE
            case .full: return SQLITE_CHECKPOINT_FULL
            case .restart: return SQLITE_CHECKPOINT_RESTART
            case .truncate: return SQLITE_CHECKPOINT_TRUNCATE
            }
        }
    }

    /// Runs a WAL checkpoint and returns the frames in the WAL and the frames checkpointed. The corresponding
    /// C function is `sqlite3_wal_checkpoint_v2`.
    ///
    ///     let (walFrames, copied) = try db.checkpoint(.truncate)
    @discardableResult
    public func checkpoint(_ mode: CheckpointMode = .passive) throws -> (
        walFrameCount: Int, checkpointedFrameCount: Int
    ) {
        var walFrames: Int32 = -1
        var checkpointed: Int32 = -1
        let code = sqlite3_wal_checkpoint_v2(sqliteConnection, "main", mode.rawValue, &walFrames, &checkpointed)
        guard code == SQLITE_OK else {
            throw DatabaseError.connectionError(sqliteConnection, code: code, sql: "sqlite3_wal_checkpoint_v2")
        }
        return (Int(walFrames), Int(checkpointed))
    }

    /// Rebuilds the database file, reclaiming free pages (`VACUUM`). Outside of any transaction.
    public func vacuum() throws {
        try execute(sql: "VACUUM")
    }

    /// Writes a compacted copy of the database to a new file (`VACUUM INTO`). Throws if `path` exists.
    public func vacuum(into path: String) throws {
        try execute(sql: "VACUUM INTO ?", arguments: [path])
    }

    /// The problems `PRAGMA integrity_check` finds, as values; empty when the database is sound. A file too
    /// damaged for the check to run reports the error as its one problem.
    ///
    ///     let problems = try db.integrityCheck()   // ["Page 5: btreeInitPage() returns error code 11", ...]
    public func integrityCheck(maximumProblems: Int = 100) throws -> [String] {
        try check(pragma: "integrity_check", maximumProblems: maximumProblems)
    }

    /// As ``integrityCheck(maximumProblems:)``, without checking indexes against their tables
    /// (`PRAGMA quick_check`): faster on big databases.
    public func quickCheck(maximumProblems: Int = 100) throws -> [String] {
        try check(pragma: "quick_check", maximumProblems: maximumProblems)
    }

    private func check(pragma: String, maximumProblems: Int) throws -> [String] {
        var lines: [String] = []
        do {
            let cursor = try String.fetchCursor(self, sql: "PRAGMA \(pragma)(\(max(1, maximumProblems)))")
            while let text = try cursor.next() {
                // One row may hold several problems, one per line, under a `*** in database main ***` header.
                lines += text.split(separator: "\n").map(String.init).filter {
                    !($0.hasPrefix("*** in database ") && $0.hasSuffix(" ***"))
                }
            }
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
        {
            // The check itself stumbled on a damaged page: what it found so far, then why it stopped.
            lines.append(error.message ?? "database disk image is malformed")
        }
        return lines == ["ok"] ? [] : lines
    }

    /// Aborts the statements this connection runs (they throw `SQLITE_INTERRUPT`). Callable from any thread
    /// while the connection is open. The corresponding C function is `sqlite3_interrupt`.
    func interrupt() {
        sqlite3_interrupt(sqliteConnection)
    }

    /// Copies this database into `destination` in one `sqlite3_backup_step`, so that the copy is one
    /// consistent snapshot of this connection.
    func backup(to destination: Database) throws {
        guard let backup = sqlite3_backup_init(destination.sqliteConnection, "main", sqliteConnection, "main") else {
            throw DatabaseError.connectionError(
                destination.sqliteConnection, code: sqlite3_errcode(destination.sqliteConnection),
                sql: "sqlite3_backup_init")
        }
        let stepCode = sqlite3_backup_step(backup, -1)
        let finishCode = sqlite3_backup_finish(backup)
        guard stepCode == SQLITE_DONE else {
            throw DatabaseError.connectionError(
                destination.sqliteConnection, code: stepCode, sql: "sqlite3_backup_step")
        }
        guard finishCode == SQLITE_OK else {
            throw DatabaseError.connectionError(
                destination.sqliteConnection, code: finishCode, sql: "sqlite3_backup_finish")
        }
        destination.clearSchemaCache()
        destination.statementCache.removeAll()
    }
}
