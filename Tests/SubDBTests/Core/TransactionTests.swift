import Foundation
import SubDB
import Testing

private struct TestFailure: Error {}

@Suite struct TransactionTests {
    let test: TestDatabase

    init() throws {
        test = try TestDatabase()
        try test.dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
        test.recorder.clear()
    }

    private func count() throws -> Int {
        try test.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1 }
    }

    @Test func writeIsOneImmediateTransaction() throws {
        try test.dbQueue.write { db in
            #expect(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        #expect(test.recorder.sql == ["BEGIN IMMEDIATE TRANSACTION", "INSERT INTO t VALUES (1)", "COMMIT TRANSACTION"])
        #expect(try count() == 1)
    }

    @Test func aThrownErrorRollsBack() throws {
        #expect(throws: TestFailure.self) {
            try test.dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw TestFailure()
            }
        }
        #expect(test.recorder.sql.last == "ROLLBACK TRANSACTION")
        #expect(try count() == 0)
    }

    @Test func readForbidsWrites() throws {
        let error = #expect(throws: DatabaseError.self) {
            try test.dbQueue.read { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(error?.message == "attempt to write a readonly database")
        // Writes work again afterwards.
        try test.dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try count() == 1)
    }

    @Test func reentrantAccessThrows() throws {
        let error = #expect(throws: DatabaseError.self) {
            try test.dbQueue.write { _ in
                try test.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
            }
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(
            error?.message
                == "Database methods are not reentrant: use the `db` argument of the enclosing read or write closure")
        // The reentrant variants reuse the current access.
        let value = try test.dbQueue.write { _ in
            try test.dbQueue.unsafeReentrantRead { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
        #expect(value == 1)
    }

    /// Inside a queued (async) access too, a blocking call is reentrant; calls from other threads while the
    /// queue is busy only wait their turn.
    @Test func reentrancyIsPerThread() async throws {
        let queue = test.dbQueue
        let nested: DatabaseError? = await withCheckedContinuation { continuation in
            queue.asyncWrite(
                { _ -> DatabaseError? in
                    do {
                        _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
                        return nil
                    } catch {
                        return error as? DatabaseError
                    }
                }, completion: { _, result in continuation.resume(returning: (try? result.get()) ?? nil) })
        }
        #expect(nested?.resultCode == .SQLITE_MISUSE)
        // Many threads at once: none of them is taken for the one running on the queue.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<40 {
                group.addTask {
                    try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [number]) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 40)
    }

    @Test func inTransactionCommitsOrRollsBack() throws {
        try test.dbQueue.writeWithoutTransaction { db in
            #expect(!db.isInsideTransaction)
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                return .commit
            }
            try db.inTransaction(.exclusive) {
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                return .rollback
            }
            #expect(throws: TestFailure.self) {
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO t VALUES (3)")
                    throw TestFailure()
                }
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try count() == 1)
        try test.dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (4)")
            return .commit
        }
        #expect(try count() == 2)
    }

    @Test func savepointsNest() throws {
        try test.dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (3)")
                    return .rollback
                }
                return .commit
            }
            #expect(throws: TestFailure.self) {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (4)")
                    throw TestFailure()
                }
            }
            #expect(db.isInsideTransaction)
        }
        let values = try test.dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") }
        #expect(values == [1, 2])
        // Outside a transaction, a savepoint is a transaction.
        try test.dbQueue.writeWithoutTransaction { db in
            try db.inSavepoint {
                #expect(db.isInsideTransaction)
                try db.execute(sql: "INSERT INTO t VALUES (5)")
                return .commit
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try count() == 3)
    }

    @Test func asyncReadAndWrite() async throws {
        let dbQueue = test.dbQueue
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        let count = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == 1)
        await #expect(throws: DatabaseError.self) {
            try await dbQueue.read { db in try db.execute(sql: "DELETE FROM t") }
        }
    }

    @Test func sharedInMemoryDatabase() throws {
        let name = "shared-\(UUID().uuidString)"
        let first = try DatabaseQueue(named: name)
        let second = try DatabaseQueue(named: name)
        try first.write { db in try db.execute(sql: "CREATE TABLE s (a); INSERT INTO s VALUES (1)") }
        #expect(try second.read { db in try Int.fetchOne(db, sql: "SELECT a FROM s") } == 1)
        let other = try DatabaseQueue()
        #expect(try other.read { db in try db.tableExists("s") } == false)
    }

    @Test func changesCounters() throws {
        try test.dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t VALUES (1); INSERT INTO t VALUES (2); INSERT INTO t VALUES (3)")
            let total = db.totalChangesCount
            try db.execute(sql: "UPDATE t SET a = a + 1 WHERE a > 1")
            #expect(db.changesCount == 2)
            #expect(db.totalChangesCount == total + 2)
            try db.execute(sql: "INSERT INTO t VALUES (9)")
            #expect(db.lastInsertedRowID == 4)
        }
    }
}
