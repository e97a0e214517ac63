import CSQLite
import Dispatch
import Foundation
import SubDB
import Synchronization
import Testing

@Suite struct ConfigurationTests {
    @Test func walJournalModeForAQueue() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.journalMode = .wal
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"), configuration: configuration)
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        let plain = try DatabaseQueue(path: directory.path("plain.sqlite"))
        #expect(try plain.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
    }

    @Test func connectionOpenAndCloseHooks() throws {
        let directory = try TemporaryDirectory()
        let log = Mutex<[String]>([])
        var configuration = Configuration()
        configuration.onConnectionDidOpen { log.withLock { $0.append("open") } }
        configuration.onConnectionWillClose { connection in
            let readOnly = sqlite3_db_readonly(connection, "main") == 1
            log.withLock { $0.append(readOnly ? "close reader" : "close writer") }
        }
        var dbPool: DatabasePool? = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        try dbPool?.read { _ in }
        #expect(log.withLock { $0 } == ["open", "open"])
        dbPool = nil
        #expect(log.withLock { $0 } == ["open", "open", "close reader", "close writer"])
    }

    @Test func statementArgumentsAreShownOnlyWhenPublic() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (name TEXT UNIQUE); INSERT INTO t VALUES ('Arthur')")
        }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: ["Arthur"]) }
        }
        #expect(error?.arguments == ["Arthur"])
        #expect(
            error?.description
                == #"SQLite error 19: UNIQUE constraint failed: t.name - while executing `INSERT INTO t (name) VALUES (?)` with arguments ["Arthur"]"#
        )
    }

    @Test func readonlyBusyModeAppliesToReadOnlyConnections() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let writer = try DatabaseQueue(path: path)
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        var waiting = Configuration()
        waiting.readonly = true
        waiting.readonlyBusyMode = .timeout(20)
        let patientReader = try DatabaseQueue(path: path, configuration: waiting)
        var failing = Configuration()
        failing.readonly = true
        let impatientReader = try DatabaseQueue(path: path, configuration: failing)
        // The writer holds an EXCLUSIVE lock (rollback journal) until it is released.
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? writer.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                locked.signal()
                release.wait()
                try db.execute(sql: "COMMIT")
            }
            finished.signal()
        }
        locked.wait()
        let error = #expect(throws: DatabaseError.self) {
            try impatientReader.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") }
        }
        #expect(error?.resultCode == .SQLITE_BUSY)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { release.signal() }
        #expect(try patientReader.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        #expect(finished.wait(timeout: .now() + 20) == .success)
    }
}

@Suite struct TransactionClockTests {
    @Test func oneDatePerTransaction() throws {
        let ticks = Mutex(0)
        var configuration = Configuration()
        configuration.transactionClock = .custom { _ in
            Date(
                timeIntervalSince1970: Double(
                    ticks.withLock { tick in
                        tick += 1
                        return tick
                    }))
        }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        let (first, second) = try dbQueue.write { db in (try db.transactionDate, try db.transactionDate) }
        #expect(first == Date(timeIntervalSince1970: 1))
        #expect(second == first)  // the same within one transaction
        let next = try dbQueue.write { db in try db.transactionDate }
        #expect(next == Date(timeIntervalSince1970: 2))
        // Outside of a transaction: the clock's date at each access.
        let outside = try dbQueue.writeWithoutTransaction { db in [try db.transactionDate, try db.transactionDate] }
        #expect(outside == [Date(timeIntervalSince1970: 3), Date(timeIntervalSince1970: 4)])
    }
}
