import Foundation
import SubDB
import Testing

// The examples of GRDB's README (the seeds), compiled against `import SubDB` as a GRDB user writes them. Only
// the paths change (a temporary file), and values the README leaves unused are checked instead.

private struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
    var id: String
    var name: String
    var score: Int

    enum Columns {
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }
}

/// A database file in a fresh temporary directory.
private func temporaryDatabasePath() throws -> (directory: URL, path: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grdb-style-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return (directory, directory.appendingPathComponent("database.sqlite").path)
}

@Suite struct ReadmeExamplesTests {
    @Test func usage() throws {
        let (directory, path) = try temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(at: directory) }

        // 1. Open a database connection
        let dbQueue = try DatabaseQueue(path: path)

        // 2. Define the database schema
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }

        // 4. Write and read in the database
        try dbQueue.write { db in
            try Player(id: "1", name: "Arthur", score: 100).insert(db)
            try Player(id: "2", name: "Barbara", score: 1000).insert(db)
        }

        try dbQueue.read { db in
            let player = try Player.find(db, id: "1")

            let bestPlayers =
                try Player
                .order(\.score.desc)
                .limit(10)
                .fetchAll(db)
            #expect(player.name == "Arthur")
            #expect(bestPlayers.map(\.name) == ["Barbara", "Arthur"])
        }
    }

    @Test func sqlAPI() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (
                      id TEXT PRIMARY KEY,
                      name TEXT NOT NULL,
                      score INT NOT NULL)
                    """)

            try db.execute(
                sql: """
                    INSERT INTO player (id, name, score)
                    VALUES (?, ?, ?)
                    """, arguments: ["1", "Arthur", 100])

            // Avoid SQL injection with SQL interpolation
            let id = "2"
            let name = "O'Brien"
            let score = 1000
            try db.execute(
                literal: """
                    INSERT INTO player (id, name, score)
                    VALUES (\(id), \(name), \(score))
                    """)
        }

        try dbQueue.read { db in
            // Fetch database rows
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
            var seen: [String] = []
            while let row = try rows.next() {
                let id: String = row["id"]
                let name: String = row["name"]
                let score: Int = row["score"]
                seen.append("\(id) \(name) \(score)")
            }
            #expect(seen == ["1 Arthur 100", "2 O'Brien 1000"])

            // Fetch values
            let playerCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")  // Int
            let playerNames = try String.fetchAll(db, sql: "SELECT name FROM player")  // [String]
            #expect(playerCount == 2)
            #expect(playerNames == ["Arthur", "O'Brien"])
        }

        let playerCount = try dbQueue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
        }
        #expect(playerCount == 2)
    }

    @Test func records() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            // Create database table
            try db.create(table: "player") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }

            // Insert a record
            var player = Player(id: "1", name: "Arthur", score: 100)
            try player.insert(db)

            // Update a record
            player.score += 10
            try player.update(db)

            // (The README writes `updateChanges { ... }` without `db`, which GRDB does not accept either.)
            try player.updateChanges(db) { $0.score += 10 }
            #expect(try Player.find(db, id: "1").score == 120)

            // Delete a record
            try player.delete(db)
            try Player(id: "1", name: "Arthur", score: 100).insert(db)
        }

        try dbQueue.read { db in
            // Player
            let player = try Player.find(db, id: "1")

            // Player?
            let arthur = try Player.filter { $0.name == "Arthur" }.fetchOne(db)

            // [Player]
            let bestPlayers = try Player.order(\.score.desc).limit(10).fetchAll(db)

            // Int
            let playerCount = try Player.fetchCount(db)

            // SQL is always welcome
            let players = try Player.fetchAll(db, sql: "SELECT * FROM player")

            #expect(player.id == arthur?.id)
            #expect(bestPlayers.count == playerCount && players.count == playerCount)
        }
    }

    @Test func valueObservation() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }

        // Define the observed value
        let observation = ValueObservation.tracking { db in
            try Player.fetchAll(db)
        }

        // Start observation (on a queue of ours: Linux command-line tools do not run the main queue)
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "observation")),
            onError: { error in Issue.record(error) },
            onChange: { (players: [Player]) in print("Fresh players: \(players)") })

        // Swift concurrency
        try await dbQueue.write { db in try Player(id: "1", name: "Arthur", score: 100).insert(db) }
        for try await players in observation.values(in: dbQueue) {
            print("Fresh players: \(players)")
            #expect(players.map(\.name) == ["Arthur"])
            break
        }
        cancellable.cancel()
    }
}
