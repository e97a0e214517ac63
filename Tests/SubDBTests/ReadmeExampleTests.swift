import Foundation
import SubDB
import Synchronization
import Testing

/// The SubDB example of README.md, kept compiling and behaving as the README says.
@Suite struct ReadmeExampleTests {
    struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var score: Int
    }

    @Test func readmeExampleRuns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("subdb-readme-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let dbQueue = try DatabaseQueue(path: folder.appendingPathComponent("players.sqlite").path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }
        try migrator.migrate(dbQueue)

        try dbQueue.write { db in
            try Player(id: 1, name: "Arthur", score: 1000).insert(db)
        }
        let best: [Player] = try dbQueue.read { db in
            try Player.filter(Column("score") > 500).order(Column("score").desc).fetchAll(db)
        }
        #expect(best.map(\.name) == ["Arthur"])

        let counts = Mutex<[Int]>([])
        let observation = ValueObservation.tracking { db in try Player.fetchCount(db) }
        let cancellable = observation.start(
            in: dbQueue, scheduling: .immediate,
            onError: { Issue.record($0) }, onChange: { count in counts.withLock { $0.append(count) } })
        #expect(counts.withLock { $0 } == [1])  // .immediate: the first value before start returns
        try dbQueue.write { db in try Player(id: 2, name: "Barbara", score: 200).insert(db) }
        // The next values come on the observation's own queue after the commit: wait (not a timing assertion).
        let deadline = Date().addingTimeInterval(10)
        while counts.withLock({ $0.count }) < 2 && Date() < deadline { usleep(1000) }
        #expect(counts.withLock { $0 } == [1, 2])
        cancellable.cancel()
    }
}
