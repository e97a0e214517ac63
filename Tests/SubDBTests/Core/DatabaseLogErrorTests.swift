import Foundation
import SubDB
import Synchronization
import Testing

/// The messages of SQLite's error log, gathered from whatever thread SQLite logs on.
private final class LogCollector: Sendable {
    private let entries = Mutex<[(code: ResultCode, message: String)]>([])

    func append(_ code: ResultCode, _ message: String) { entries.withLock { $0.append((code, message)) } }

    /// The entries whose message mentions `text`.
    func entries(mentioning text: String) -> [(code: ResultCode, message: String)] {
        entries.withLock { $0 }.filter { $0.message.contains(text) }
    }
}

/// `Database.logError` is process-wide: this suite is the only one that sets it.
@Suite(.serialized) struct DatabaseLogErrorTests {
    @Test func sqliteErrorsReachTheLogFunction() throws {
        let collector = LogCollector()
        Database.logError = { resultCode, message in collector.append(resultCode, message) }
        defer { Database.logError = nil }
        #expect(Database.logError != nil)

        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) in
            _ = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT * FROM logErrorMissingTable") }
        }
        let logged = collector.entries(mentioning: "logErrorMissingTable")
        #expect(logged.count == 1)
        #expect(logged.first?.code == .SQLITE_ERROR)
        #expect(logged.first?.message.contains("no such table: logErrorMissingTable") == true)

        // Unset: nothing more is forwarded.
        Database.logError = nil
        try dbQueue.read { (db: Database) in
            _ = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT * FROM logErrorMissingTable") }
        }
        #expect(collector.entries(mentioning: "logErrorMissingTable").count == 1)
    }
}
