import Dispatch
import Foundation
import SubDB
import Synchronization
import Testing

@Suite struct DatabasePoolTests {
    let directory: TemporaryDirectory
    let dbPool: DatabasePool

    init() throws {
        directory = try TemporaryDirectory()
        dbPool = try DatabasePool(path: directory.path("pool.sqlite"))
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
    }

    private static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1
    }

    @Test func walModeAndReadOnlyReaders() throws {
        let mode = try dbPool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.read { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(error?.message == "attempt to write a readonly database")
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try dbPool.read(Self.count) == 1)
    }

    @Test func closingThePoolCheckpointsAndRemovesTheWAL() throws {
        let path = directory.path("closing.sqlite")
        var pool: DatabasePool? = try DatabasePool(path: path)
        try pool?.write { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        // A reader is open when the pool goes: it closes first, so the writer checkpoints last.
        try pool?.read { _ in try pool?.read { db in _ = try Self.count(db) } }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        pool = nil
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let queue = try DatabaseQueue(path: path, configuration: readOnlyConfiguration())
        #expect(try queue.read(Self.count) == 1)
    }

    private func readOnlyConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }

    @Test func readersSeeTheLastCommittedSnapshotAndDoNotBlock() throws {
        let dbPool = self.dbPool
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        try dbPool.writeWithoutTransaction { db in
            try db.beginTransaction(.immediate)
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            // The write transaction is open: a read on another thread completes and sees 1 row.
            let seen = Mutex<Int?>(nil)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let value = try? dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
                seen.withLock { $0 = value ?? nil }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 5) == .success)
            #expect(seen.withLock { $0 } == 1)
            try db.commit()
        }
        #expect(try dbPool.read(Self.count) == 2)
    }

    @Test func aReadSeesOneSnapshotDuringConcurrentWrites() throws {
        let dbPool = self.dbPool
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        let counts = try dbPool.read { db in
            let before = try Self.count(db)
            // A write commits on another thread while this read runs.
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                try? dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
                done.signal()
            }
            _ = done.wait(timeout: .now() + 5)
            return (before, try Self.count(db))
        }
        #expect(counts.0 == 1 && counts.1 == 1)
        #expect(try dbPool.read(Self.count) == 2)
    }

    @Test func concurrentWritersAndReaders() throws {
        let dbPool = self.dbPool
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            do {
                if index < 4 {
                    for value in 0..<50 {
                        try dbPool.write { db in
                            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [index * 100 + value])
                        }
                    }
                } else {
                    for _ in 0..<50 {
                        let n = try dbPool.read(Self.count)
                        if n < 0 || n > 200 { errors.withLock { $0.append("bad count \(n)") } }
                    }
                }
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        #expect(errors.withLock { $0 } == [])
        #expect(try dbPool.read(Self.count) == 200)
    }

    @Test func fourThreadsWritingThroughAQueue() throws {
        let dbQueue = try DatabaseQueue(path: directory.path("queue.sqlite"))
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for value in 0..<50 {
                try? dbQueue.write { db in
                    try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [index * 100 + value])
                }
            }
        }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT a) FROM t") } == 200)
    }

    @Test func asyncPoolAccess() async throws {
        let dbPool = self.dbPool
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        async let first = dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        async let second = dbPool.read { db in try Int.fetchOne(db, sql: "SELECT MAX(a) FROM t") }
        let (count, max) = try await (first, second)
        #expect(count == 1 && max == 1)
    }

    @Test func barrierWritesAndErase() throws {
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1); CREATE VIEW v AS SELECT * FROM t") }
        try dbPool.erase()
        #expect(try dbPool.read { db in try db.tableExists("t") || db.viewExists("v") } == false)
        try dbPool.barrierWriteWithoutTransaction { db in try db.execute(sql: "CREATE TABLE u (b)") }
        #expect(try dbPool.read { db in try db.tableExists("u") })
    }

    @Test func readerSeesSchemaChanges() throws {
        #expect(try dbPool.read { db in try db.columns(in: "t").map(\.name) } == ["a"])
        try dbPool.write { db in try db.execute(sql: "ALTER TABLE t ADD COLUMN b TEXT") }
        #expect(try dbPool.read { db in try db.columns(in: "t").map(\.name) } == ["a", "b"])
    }

    @Test func cachedStatementsFollowSchemaChanges() throws {
        let dbPool = self.dbPool
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
        let sql = "SELECT * FROM t"
        #expect(try dbPool.read { db in try Row.fetchAll(db, sql: sql).map(\.description) } == ["[a:1]"])
        try dbPool.write { db in
            #expect(try Row.fetchOne(db, sql: sql)?.description == "[a:1]")
            try db.execute(sql: "ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'")
            // Same connection, same cached statement: the new column shows up.
            #expect(try Row.fetchOne(db, sql: sql)?.description == "[a:1 b:\"x\"]")
            let rows = try Row.fetchCursor(db, sql: sql)
            #expect(try rows.next()?.description == "[a:1 b:\"x\"]")
        }
        // Another connection (a reader with the statement cached) sees it too, through every fetch method.
        try dbPool.read { (db: Database) throws in
            #expect(try Row.fetchAll(db, sql: sql).map(\.description) == ["[a:1 b:\"x\"]"])
            let cursor = try Row.fetchCursor(db, sql: sql)
            #expect(try cursor.next()?.description == "[a:1 b:\"x\"]")
        }
    }

    @Test func nestedReadsReuseTheReader() throws {
        var config = Configuration()
        config.maximumReaderCount = 1
        let pool = try DatabasePool(path: directory.path("nested.sqlite"), configuration: config)
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        // With one reader, a nested read that waited for another reader would never return.
        let value = try pool.read { _ in
            try pool.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") }
        }
        #expect(value == 1)
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        // A barrier inside a read would wait for itself.
        let error = #expect(throws: DatabaseError.self) {
            try pool.read { _ in try pool.barrierWriteWithoutTransaction { _ in } }
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
    }

    @Test func asyncCallbacks() throws {
        let queue = try DatabaseQueue(path: directory.path("callbacks.sqlite"))
        let values = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let createAndInsert: @Sendable (Database) throws -> Int = { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS c (a); INSERT INTO c VALUES (7)")
            return db.changesCount
        }
        let recordWrite: @Sendable (Database, Result<Int, any Error>) -> Void = { _, result in
            values.withLock { $0.append("write \((try? result.get()) ?? -1)") }
            done.signal()
        }
        let recordRead: @Sendable (Result<Database, any Error>) -> Void = { result in
            let count = (try? result.get()).flatMap { try? Int.fetchOne($0, sql: "SELECT COUNT(*) FROM c") }
            values.withLock { $0.append("read \(count ?? -1)") }
            done.signal()
        }
        queue.asyncWrite(createAndInsert, completion: recordWrite)
        #expect(done.wait(timeout: .now() + 5) == .success)
        queue.asyncRead(recordRead)
        #expect(done.wait(timeout: .now() + 5) == .success)
        dbPool.asyncWrite(createAndInsert, completion: recordWrite)
        #expect(done.wait(timeout: .now() + 5) == .success)
        dbPool.asyncRead(recordRead)
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(values.withLock { $0 } == ["write 1", "read 1", "write 1", "read 1"])
    }
}
