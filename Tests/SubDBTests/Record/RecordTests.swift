import Foundation
import SubDB
import Testing

@Suite("Records")
struct RecordTests {
    /// The README example of the seeds: text primary key, Identifiable, PersistableRecord.
    struct SeedPlayer: Codable, Identifiable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "player"
        var id: String
        var name: String
        var score: Int

        enum Columns {
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
        }
    }

    @Test("The seeds' README example runs as documented")
    func seedReadme() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try SeedPlayer(id: "1", name: "Arthur", score: 100).insert(db)
            try SeedPlayer(id: "2", name: "Barbara", score: 1000).insert(db)
        }
        try dbQueue.read { db in
            let player = try SeedPlayer.find(db, id: "1")
            #expect(player.name == "Arthur")
            let bestPlayers = try SeedPlayer.order(\.score.desc).limit(10).fetchAll(db)
            #expect(bestPlayers.map(\.name) == ["Barbara", "Arthur"])
            let arthur = try SeedPlayer.filter { $0.name == "Arthur" }.fetchOne(db)
            #expect(arthur?.score == 100)
            #expect(try SeedPlayer.fetchCount(db) == 2)
            #expect(try SeedPlayer.fetchAll(db, sql: "SELECT * FROM player").count == 2)
        }
        try dbQueue.write { db in
            var player = try SeedPlayer.find(db, id: "1")
            player.score += 10
            try player.update(db)
            #expect(try player.updateChanges(db) { $0.score += 10 })
            #expect(try SeedPlayer.find(db, id: "1").score == 120)
            #expect(try player.delete(db))
            #expect(try SeedPlayer.fetchOne(db, id: "1") == nil)
        }
    }

    @Test("Default table names follow GRDB: Player → player, PlayerScore → playerScore, HTTPRequest → httpRequest")
    func defaultTableNames() {
        struct Player: TableRecord {}
        struct PlayerScore: TableRecord {}
        struct HTTPRequest: TableRecord {}
        struct URL: TableRecord {}
        #expect(Player.databaseTableName == "player")
        #expect(PlayerScore.databaseTableName == "playerScore")
        #expect(HTTPRequest.databaseTableName == "httpRequest")
        #expect(URL.databaseTableName == "url")
    }

    @Test("Insert sets the id through didInsert and runs the SQL GRDB runs")
    func insertDidInsert() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            let trace = TracedSQL(db)
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.id == 1)
            #expect(trace.last == #"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)"#)
            let inserted = try Player(id: nil, name: "Barbara", score: 200).inserted(db)
            #expect(inserted.id == 2)
            // insertAndFetch does not modify the record, as in GRDB: it works on a constant.
            let third = Player(id: nil, name: "Craig", score: 5)
            let fetched = try third.insertAndFetch(db)
            #expect(fetched == Player(id: 3, name: "Craig", score: 5))
            #expect(third.id == nil)
            let other = try Player(id: nil, name: "David", score: 6).insertAndFetch(db, as: Player.self)
            #expect(other.id == 4)
        }
    }

    @Test("InsertionSuccess carries the rowid, the rowid column and the inserted values")
    func insertionSuccess() throws {
        struct Probe: Encodable, MutablePersistableRecord {
            static let databaseTableName = "player"
            var name: String
            var score: Int
            var seen: InsertionSuccess?
            enum CodingKeys: String, CodingKey { case name, score }
            mutating func didInsert(_ inserted: InsertionSuccess) { seen = inserted }
        }
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var probe = Probe(name: "Arthur", score: 3)
            try probe.insert(db)
            let seen = try #require(probe.seen)
            #expect(seen.rowID == 1)
            #expect(seen.rowIDColumn == "id")
            #expect(seen.persistenceContainer.columns == ["name", "score", "id"])
            #expect(seen.persistenceContainer["id"]?.databaseValue == 1.databaseValue)
        }
    }

    @Test("update, update(columns:), updateChanges and save run GRDB's SQL")
    func updates() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            let trace = TracedSQL(db)
            player.score = 150
            try player.update(db)
            #expect(trace.last == #"UPDATE "player" SET "name"=?, "score"=? WHERE "id"=?"#)
            try player.update(db, columns: ["score"])
            #expect(trace.last == #"UPDATE "player" SET "score"=? WHERE "id"=?"#)
            try player.update(db, columns: [Player.Columns.name])
            #expect(trace.last == #"UPDATE "player" SET "name"=? WHERE "id"=?"#)
            trace.clear()
            #expect(try player.updateChanges(db) { $0.score = 150 } == false)
            #expect(trace.statements.isEmpty)
            #expect(try player.updateChanges(db) { $0.score = 10 } == true)
            #expect(trace.last == #"UPDATE "player" SET "score"=? WHERE "id"=?"#)
            #expect(try Player.fetchOne(db, key: 1)?.score == 10)

            var newcomer = Player(id: nil, name: "Barbara", score: 1)
            try newcomer.save(db)
            #expect(newcomer.id == 2)
            newcomer.score = 2
            try newcomer.save(db)
            #expect(try Player.fetchOne(db, key: 2)?.score == 2)
            var ghost = Player(id: 42, name: "Ghost", score: 0)
            try ghost.save(db)
            #expect(try Player.exists(db, key: 42))
        }
    }

    @Test("Updating a missing row throws RecordError.recordNotFound with GRDB's message")
    func updateMissing() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            let player = Player(id: 42, name: "Nobody", score: 0)
            let error = #expect(throws: RecordError.self) { try player.update(db) }
            #expect(error?.description == "Key not found in table player: [id:42]")
            let unsaved = Player(id: nil, name: "Nobody", score: 0)
            #expect(throws: PersistenceError.self) { try unsaved.update(db) }
            // Issue #31: one catch clause for finds and updates, as in GRDB 7.
            var caught: [String] = []
            for attempt in [{ _ = try Player.find(db, key: 42) }, { try player.update(db) }] {
                do {
                    try attempt()
                } catch RecordError.recordNotFound(let table, let key) {
                    caught.append("\(table) \(key)")
                }
            }
            #expect(caught == ["player [\"id\": 42]", "player [\"id\": 42]"])
        }
    }

    @Test("find throws RecordError.recordNotFound with GRDB's message")
    func findMissing() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.read { db in
            let error = #expect(throws: RecordError.self) { try Player.find(db, key: 7) }
            #expect(error?.description == "Key not found in table player: [id:7]")
            #expect(error == .recordNotFound(databaseTableName: "player", key: ["id": 7.databaseValue]))
        }
    }

    @Test("Static fetching and deleting by keys")
    func keys() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            for name in ["Arthur", "Barbara", "Craig", "David"] {
                _ = try Player(id: nil, name: name, score: name.count).inserted(db)
            }
            let trace = TracedSQL(db)
            #expect(try Player.fetchOne(db, key: 2)?.name == "Barbara")
            #expect(trace.last == #"SELECT * FROM "player" WHERE "id" = ?"#)
            #expect(try Player.fetchAll(db, keys: [1, 3]).map(\.name) == ["Arthur", "Craig"])
            #expect(trace.last == #"SELECT * FROM "player" WHERE "id" IN (?, ?)"#)
            #expect(try Player.fetchAll(db, keys: [Int]()).isEmpty)
            #expect(try Player.fetchOne(db, key: nil) == nil)
            #expect(try Player.exists(db, key: 4))
            #expect(try Player.deleteOne(db, key: 4))
            #expect(trace.last == #"DELETE FROM "player" WHERE "id" = ?"#)
            #expect(try !Player.deleteOne(db, key: 4))
            #expect(try Player.deleteAll(db, keys: [1, 2]) == 2)
            #expect(try Player.fetchSet(db).map(\.name) == ["Craig"])
            var craig = try #require(try Player.fetchOne(db))
            #expect(try craig.exists(db))
            #expect(try craig.delete(db))
            #expect(try !craig.delete(db))
            craig.id = nil
            #expect(try !craig.exists(db))
            _ = try Player(id: nil, name: "Eve", score: 1).inserted(db)
            #expect(try Player.deleteAll(db) == 1)
            #expect(trace.last == #"DELETE FROM "player""#)
        }
    }

    @Test("Callbacks run in GRDB's order, and willInsert runs before encoding")
    func callbacks() throws {
        final class Log: @unchecked Sendable { var events: [String] = [] }
        struct Tracked: Encodable, MutablePersistableRecord {
            static let databaseTableName = "player"
            var id: Int64?
            var name: String
            var score = 0
            let log: Log
            enum CodingKeys: String, CodingKey { case id, name, score }
            mutating func willInsert(_ db: Database) throws {
                log.events.append("willInsert")
                score = 99
            }
            func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
                log.events.append("aroundInsert>")
                _ = try insert()
                log.events.append("<aroundInsert")
            }
            mutating func didInsert(_ inserted: InsertionSuccess) {
                log.events.append("didInsert")
                id = inserted.rowID
            }
            func willSave(_ db: Database) throws { log.events.append("willSave") }
            func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
                log.events.append("aroundSave>")
                _ = try save()
                log.events.append("<aroundSave")
            }
            func didSave(_ saved: PersistenceSuccess) { log.events.append("didSave") }
            func willUpdate(_ db: Database, columns: Set<String>) throws {
                log.events.append("willUpdate \(columns.sorted())")
            }
            func didUpdate(_ updated: PersistenceSuccess) { log.events.append("didUpdate") }
            func willDelete(_ db: Database) throws { log.events.append("willDelete") }
            func didDelete(deleted: Bool) { log.events.append("didDelete \(deleted)") }
        }
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            let log = Log()
            var record = Tracked(id: nil, name: "Arthur", log: log)
            try record.insert(db)
            #expect(
                log.events == [
                    "willSave", "aroundSave>", "willInsert", "aroundInsert>", "<aroundInsert", "didInsert",
                    "<aroundSave", "didSave",
                ])
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 99)
            log.events = []
            try record.update(db, columns: ["name"])
            #expect(
                log.events == [
                    "willSave", "aroundSave>", "willUpdate [\"name\"]", "didUpdate", "<aroundSave", "didSave",
                ])
            log.events = []
            try record.delete(db)
            #expect(log.events == ["willDelete", "didDelete true"])
        }
    }

    @Test("An aroundInsert that does not call its body throws")
    func aroundMisuse() throws {
        struct Lazy: Encodable, PersistableRecord {
            static let databaseTableName = "player"
            var name = "x"
            var score = 1
            func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {}
        }
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            let error = #expect(throws: DatabaseError.self) { try Lazy().insert(db) }
            #expect(error?.message == "aroundInsert must call its body exactly once")
        }
    }

    @Test("insert(onConflict:) and constraint violations")
    func conflicts() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = Player(id: 1, name: "Arthur", score: 1)
            try player.insert(db)
            let error = #expect(throws: DatabaseError.self) { try player.insert(db) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(
                error?.description
                    == #"SQLite error 19: UNIQUE constraint failed: player.id - while executing `INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)`"#
            )
            player.score = 2
            try player.insert(db, onConflict: .replace)
            #expect(try Player.fetchOne(db, key: 1)?.score == 2)
        }
    }

    @Test("FetchableRecord with a hand-written init(row:) and EncodableRecord by hand")
    func manualRecords() throws {
        struct Link: FetchableRecord, PersistableRecord {
            var url: URL
            var isVerified: Bool
            init(url: URL, isVerified: Bool) { self.url = url; self.isVerified = isVerified }
            init(row: Row) {
                url = row["url"]
                isVerified = row["verified"]
            }
            func encode(to container: inout PersistenceContainer) {
                container["url"] = url
                container["verified"] = isVerified
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "link") { t in
                t.column("url", .text).primaryKey()
                t.column("verified", .boolean).notNull()
            }
            let url = try #require(URL(string: "https://github.com/groue/GRDB.swift"))
            try Link(url: url, isVerified: true).insert(db)
            let link = try Link.filter(Column("url") == url).fetchOne(db)
            #expect(link?.isVerified == true)
            #expect(try Link.fetchCursor(db).next()?.url == url)
        }
    }
}

@Suite("Upserts")
struct UpsertTests {
    @Test("upsert inserts, then updates the conflicting row and reports its rowid")
    func upsert() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { (db: Database) throws in
            let trace = TracedSQL(db)
            var player = Player(id: nil, name: "Arthur", score: 1)
            try player.upsert(db)
            #expect(player.id == 1)
            #expect(
                trace.last
                    == #"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?) ON CONFLICT DO UPDATE SET "name" = excluded."name", "score" = excluded."score" RETURNING rowid"#
            )
            var other = Player(id: nil, name: "Barbara", score: 2)
            try other.insert(db)
            var replacement = Player(id: 1, name: "Arthur Dent", score: 42)
            try replacement.upsert(db)
            #expect(replacement.id == 1)
            #expect(try Player.fetchAll(db).map(\.name) == ["Arthur Dent", "Barbara"])
            #expect(try Player.fetchCount(db) == 2)
        }
    }
}
