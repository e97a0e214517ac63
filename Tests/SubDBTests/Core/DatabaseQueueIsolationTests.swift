import Dispatch
import Foundation
import SubDB
import Synchronization
import Testing

/// What one read block saw while another connection tried to commit in its middle.
private struct IsolatedReadOutcome: Sendable {
    var countBefore: Int
    var countAfter: Int
    var wasInsideTransaction: Bool
    /// The error of the other connection's write, nil when it committed.
    var writeError: DatabaseError?
}

/// The error of a scenario that did not finish in time: a deadlock fails the test instead of hanging it.
private struct DeadlineExceeded: Error, CustomStringConvertible {
    var description: String { "the scenario did not finish within its deadline (deadlock?)" }
}

/// Runs `body` on another thread and returns its result, or throws ``DeadlineExceeded`` after `seconds`.
private func withDeadline<T: Sendable>(
    seconds: Double = 20, _ body: @escaping @Sendable () throws -> T
) throws -> T {
    let outcome = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        let result = Result { try body() }
        outcome.withLock { $0 = result }
        done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success, let result = outcome.withLock({ $0 }) else {
        throw DeadlineExceeded()
    }
    return try result.get()
}

/// Two `DatabaseQueue`s on one file: `reader` reads while `writer` writes.
private struct TwoConnections {
    let directory: TemporaryDirectory
    let reader: DatabaseQueue
    let writer: DatabaseQueue

    /// `journalMode` is `wal` or `delete` (rollback journal). The file starts with one row in `item`.
    init(journalMode: String) throws {
        directory = try TemporaryDirectory()
        let path = directory.path("shared.sqlite")
        writer = try DatabaseQueue(path: path)
        try writer.writeWithoutTransaction { db in
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = \(journalMode)")
            #expect(mode == journalMode)
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY); INSERT INTO item DEFAULT VALUES")
        }
        reader = try DatabaseQueue(path: path)
    }

    /// The body of a read block: count, let the writer insert a row, count again.
    @Sendable static func countAroundWrite(_ db: Database, writer: DatabaseQueue) throws -> IsolatedReadOutcome {
        let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? -1
        var writeError: DatabaseError?
        do {
            try writer.write { db in try db.execute(sql: "INSERT INTO item DEFAULT VALUES") }
        } catch let error as DatabaseError {
            writeError = error
        }
        let after = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? -1
        return IsolatedReadOutcome(
            countBefore: before, countAfter: after, wasInsideTransaction: db.isInsideTransaction,
            writeError: writeError)
    }

    /// Checks what a read saw, then what the reader sees once the read is over.
    func check(_ outcome: IsolatedReadOutcome, journalMode: String) throws {
        #expect(outcome.countBefore == 1)
        #expect(outcome.countAfter == 1)
        #expect(outcome.wasInsideTransaction)
        let committedCount: Int
        if journalMode == "wal" {
            // WAL: the writer commits; the read keeps its snapshot.
            #expect(outcome.writeError == nil)
            committedCount = 2
        } else {
            // Rollback journal: the read's SHARED lock keeps the writer from committing.
            #expect(outcome.writeError?.resultCode == .SQLITE_BUSY)
            committedCount = 1
        }
        let countNow = try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
        #expect(countNow == committedCount)
        #expect(try reader.read { db in db.isInsideTransaction } == true)
        #expect(try reader.unsafeRead { db in db.isInsideTransaction } == false)
    }
}

@Suite struct DatabaseQueueIsolationTests {
    static let journalModes = ["wal", "delete"]

    @Test(arguments: journalModes) func readSeesOneState(journalMode: String) throws {
        let connections = try TwoConnections(journalMode: journalMode)
        let reader = connections.reader
        let writer = connections.writer
        let outcome = try withDeadline {
            try reader.read { db in try TwoConnections.countAroundWrite(db, writer: writer) }
        }
        try connections.check(outcome, journalMode: journalMode)
    }

    @Test(arguments: journalModes) func asyncReadSeesOneState(journalMode: String) throws {
        let connections = try TwoConnections(journalMode: journalMode)
        let reader = connections.reader
        let writer = connections.writer
        let outcome = try withDeadline {
            let result = Mutex<Result<IsolatedReadOutcome, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            reader.asyncRead { dbResult in
                let outcome = Result { try TwoConnections.countAroundWrite(try dbResult.get(), writer: writer) }
                result.withLock { $0 = outcome }
                done.signal()
            }
            done.wait()
            guard let outcome = result.withLock({ $0 }) else { throw DeadlineExceeded() }
            return try outcome.get()
        }
        try connections.check(outcome, journalMode: journalMode)
    }

    @Test(arguments: journalModes) func asyncAwaitReadSeesOneState(journalMode: String) async throws {
        let connections = try TwoConnections(journalMode: journalMode)
        let reader = connections.reader
        let writer = connections.writer
        let outcome = try await withThrowingTaskGroup(of: IsolatedReadOutcome?.self) { group in
            group.addTask { try await reader.read { db in try TwoConnections.countAroundWrite(db, writer: writer) } }
            group.addTask {
                try await Task.sleep(for: .seconds(20))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            guard let first else { throw DeadlineExceeded() }
            return first
        }
        try connections.check(outcome, journalMode: journalMode)
    }

    @Test func unsafeReadIsNotIsolated() throws {
        let connections = try TwoConnections(journalMode: "wal")
        let reader = connections.reader
        let writer = connections.writer
        let outcome = try withDeadline {
            try reader.unsafeRead { db in try TwoConnections.countAroundWrite(db, writer: writer) }
        }
        #expect(outcome.countBefore == 1)
        #expect(outcome.countAfter == 2)
        #expect(!outcome.wasInsideTransaction)
    }

    @Test func writesInsideReadThrowReadOnly() throws {
        let test = try TestDatabase()
        try test.dbQueue.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)") }
        let error = #expect(throws: DatabaseError.self) {
            try test.dbQueue.read { db in try db.execute(sql: "INSERT INTO item DEFAULT VALUES") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(error?.message == "attempt to write a readonly database")
        // Pragmas that read are reads; pragmas that set a value are writes.
        try test.dbQueue.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "delete")
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 0)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "PRAGMA user_version = 3") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "CREATE TABLE other (a)") }
        }
        try test.dbQueue.write { db in try db.execute(sql: "INSERT INTO item DEFAULT VALUES") }
        #expect(try test.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 1)
    }

    @Test func readInsideAnOpenTransactionUsesASavepoint() throws {
        let test = try TestDatabase()
        try test.dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)")
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO item DEFAULT VALUES")
        }
        test.recorder.clear()
        let count = try test.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
        #expect(count == 1)
        #expect(test.recorder.sql.contains("SAVEPOINT grdb"))
        #expect(!test.recorder.sql.contains { $0.hasPrefix("BEGIN") })
        // The transaction opened before the read is still open, and its insert still pending.
        try test.dbQueue.writeWithoutTransaction { db in
            #expect(db.isInsideTransaction)
            try db.rollback()
        }
        #expect(try test.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 0)
    }

    @Test func readBeginsADeferredTransaction() throws {
        let test = try TestDatabase()
        test.recorder.clear()
        try test.dbQueue.read { _ in }
        #expect(test.recorder.sql.contains("BEGIN DEFERRED TRANSACTION"))
        #expect(test.recorder.sql.contains("COMMIT TRANSACTION"))
    }
}
