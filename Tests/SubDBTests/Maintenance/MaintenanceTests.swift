import Dispatch
import Foundation
import SubDB
import Synchronization
import Testing

/// A writer of the given kind at `path`.
private func makeWriter(_ kind: WriterKind, _ path: String) throws -> any DatabaseWriter {
    switch kind {
    case .queue: return try DatabaseQueue(path: path)
    case .pool: return try DatabasePool(path: path)
    }
}

/// A ledger: each transaction inserts an entry and sets the total to the number of entries, so that any
/// consistent snapshot has `total == COUNT(*)`.
private func createLedger(_ writer: any DatabaseWriter) throws {
    try writer.write { db in
        try db.execute(
            sql: """
                CREATE TABLE entry (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
                CREATE INDEX entry_label ON entry(label);
                CREATE TABLE total (value INTEGER NOT NULL);
                INSERT INTO total VALUES (0);
                """)
    }
}

private func addEntry(_ db: Database, _ label: String) throws {
    try db.execute(sql: "INSERT INTO entry (label) VALUES (?)", arguments: [label])
    try db.execute(sql: "UPDATE total SET value = (SELECT COUNT(*) FROM entry)")
}

private func ledgerState(_ reader: any DatabaseReader) throws -> (entries: Int, total: Int) {
    try reader.read { db in
        (
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry") ?? -1,
            try Int.fetchOne(db, sql: "SELECT value FROM total") ?? -2
        )
    }
}

@Suite struct MaintenanceTests {
    @Test(arguments: [(WriterKind.queue, WriterKind.queue), (.queue, .pool), (.pool, .queue), (.pool, .pool)])
    func backupBetweenQueuesAndPools(source: WriterKind, destination: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let sourceWriter = try makeWriter(source, directory.path("source.sqlite"))
        try createLedger(sourceWriter)
        try sourceWriter.write { db in for index in 0..<100 { try addEntry(db, "e\(index)") } }
        let destinationWriter = try makeWriter(destination, directory.path("destination.sqlite"))
        try destinationWriter.write { db in try db.execute(sql: "CREATE TABLE old (x)") }
        try sourceWriter.backup(to: destinationWriter)
        #expect(try ledgerState(destinationWriter) == (100, 100))
        #expect(try destinationWriter.read { db in try db.tableExists("old") } == false)
        #expect(try destinationWriter.integrityCheck().isEmpty)
        // The destination is usable for writes afterwards.
        try destinationWriter.write { db in try addEntry(db, "after") }
        #expect(try ledgerState(destinationWriter) == (101, 101))
        #expect(throws: DatabaseError.self) { try sourceWriter.backup(to: sourceWriter) }
    }

    @Test(arguments: WriterKind.allCases)
    func backupDuringWritesIsConsistent(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let source = try makeWriter(kind, directory.path("source.sqlite"))
        try createLedger(source)
        let stop = Mutex(false)
        let writes = Mutex(0)
        let writerDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while !stop.withLock({ $0 }) {
                do {
                    try source.write { db in try addEntry(db, "w") }
                    writes.withLock { $0 += 1 }
                } catch {
                    break
                }
            }
            writerDone.signal()
        }
        #expect(waitUntil { writes.withLock { $0 } >= 20 })
        var snapshots: [Int] = []
        for index in 0..<5 {
            let copy = try DatabaseQueue(path: directory.path("copy\(index).sqlite"))
            try source.backup(to: copy)
            let state = try ledgerState(copy)
            #expect(state.entries == state.total)
            #expect(try copy.integrityCheck().isEmpty)
            snapshots.append(state.entries)
        }
        stop.withLock { $0 = true }
        #expect(writerDone.wait(timeout: .now() + 30) == .success)
        #expect(snapshots == snapshots.sorted())
        #expect(snapshots.allSatisfy { $0 >= 20 })
    }

    @Test(arguments: WriterKind.allCases)
    func interruptAbortsALongQueryAndKeepsTheConnectionUsable(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let writer = try makeWriter(kind, directory.path("db.sqlite"))
        try createLedger(writer)
        let outcome = Mutex<String?>(nil)
        DispatchQueue.global().async {
            do {
                // Would run for minutes.
                let count = try writer.read { db in
                    try Int.fetchOne(
                        db,
                        sql: """
                            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000)
                            SELECT COUNT(*) FROM c
                            """)
                }
                outcome.withLock { $0 = "finished: \(count ?? 0)" }
            } catch {
                outcome.withLock { $0 = String(describing: error) }
            }
        }
        // The interrupt only reaches a statement that runs: repeat it until the query gives up.
        let done = waitUntil(timeout: 60) {
            writer.interrupt()
            return outcome.withLock { $0 } != nil
        }
        #expect(done)
        let message = try #require(outcome.withLock { $0 })
        // The query, or a statement of the read's set-up (read-only mode, BEGIN) when an interrupt comes first.
        #expect(message.hasPrefix("SQLite error 9: interrupted - while executing `"))
        // Every connection still works.
        try writer.write { db in try addEntry(db, "after") }
        #expect(try ledgerState(writer) == (1, 1))
    }

    @Test func vacuumAndVacuumInto() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"))
        try createLedger(dbQueue)
        try dbQueue.write { db in
            for index in 0..<2000 { try addEntry(db, String(repeating: "x", count: 200) + "\(index)") }
        }
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM entry WHERE id > 10") }
        let pages = { try dbQueue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 } }
        let before = try pages()
        try dbQueue.vacuum()
        #expect(try pages() < before)
        let copyPath = directory.path("copy.sqlite")
        try dbQueue.vacuum(into: copyPath)
        let copy = try DatabaseQueue(path: copyPath)
        #expect(try copy.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry") } == 10)
        let error = #expect(throws: DatabaseError.self) { try dbQueue.vacuum(into: copyPath) }
        #expect(error?.message == "output file already exists")
    }

    @Test func checkpointModesOnAPool() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let dbPool = try DatabasePool(path: path)
        try createLedger(dbPool)
        try dbPool.write { db in for index in 0..<100 { try addEntry(db, "e\(index)") } }
        let wal = { (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? -1 }
        #expect(wal() > 0)
        let passive = try dbPool.checkpoint()
        #expect(passive.walFrameCount > 0 && passive.checkpointedFrameCount == passive.walFrameCount)
        try dbPool.checkpoint(.full)
        try dbPool.checkpoint(.restart)
        try dbPool.checkpoint(.truncate)
        #expect(wal() == 0)
        #expect(try ledgerState(dbPool) == (100, 100))
    }

    @Test(arguments: WriterKind.allCases)
    func integrityCheckOfACorruptedCopy(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("sound.sqlite")
        do {
            let writer = try makeWriter(kind, path)
            try createLedger(writer)
            try writer.write { db in for index in 0..<3000 { try addEntry(db, "entry number \(index)") } }
            #expect(try writer.integrityCheck().isEmpty)
            #expect(try writer.quickCheck().isEmpty)
            if let pool = writer as? DatabasePool { try pool.checkpoint(.truncate) }
        }
        let corruptPath = directory.path("corrupt.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: corruptPath)
        // Overwrite 3 pages in the middle of the file.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: corruptPath))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data((0..<12288).map { UInt8(truncatingIfNeeded: $0 &* 37) }))
        try handle.close()
        let corrupt = try DatabaseQueue(path: corruptPath)
        let problems = try corrupt.integrityCheck()
        #expect(!problems.isEmpty)
        #expect(
            Array(problems.prefix(4)) == [
                "Page 25: btreeInitPage() returns error code 11", "Page 23: btreeInitPage() returns error code 11",
                "Page 24: btreeInitPage() returns error code 11",
                "On tree page 22 cell 88: invalid page number -654499257",
            ])
        // The check stopped on a damaged page it could not walk: the last problem says so.
        #expect(problems.last == "database disk image is malformed")
        #expect(try corrupt.integrityCheck(maximumProblems: 1).count == 1)
        #expect(try !corrupt.quickCheck().isEmpty)
    }
}
