import Foundation
import SubDB
import Synchronization
import Testing

// GRDB-style code for APIs of GRDB's reference documentation beyond the README, written as a GRDB user writes
// it, compiled against `import SubDB`.

private struct Team: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
}

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var teamId: Int64
    var secret: String
}

private struct PlayerInfo: Decodable, FetchableRecord {
    var player: Player
    var team: Team
}

/// A schema source for views whose primary key is `id`, as GRDB's documentation writes one.
private struct MySchemaSource: DatabaseSchemaSource {
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        if view.name == "playerView" && view.schemaID == .main {
            return ["id"]
        }
        return nil
    }
}

private func makeDatabase(_ configuration: Configuration = Configuration()) throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue(configuration: configuration)
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
        try db.create(table: "team") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.belongsTo("team").notNull()
            t.column("secret", .text).notNull()
        }
        try db.execute(sql: "CREATE VIEW playerView AS SELECT id, name FROM player")
    }
    try migrator.migrate(dbQueue)
    try dbQueue.write { db in
        try Team(id: 1, name: "Reds").insert(db)
        try Player(id: 1, name: "Arthur", teamId: 1, secret: "a").insert(db)
        try Player(id: 2, name: "Barbara", teamId: 1, secret: "b").insert(db)
    }
    return dbQueue
}

@Suite struct GRDBAPIExamplesTests {
    /// GRDB's example, `Database.logError = { (resultCode, message) in NSLog(...) }`, compiles as written and
    /// formats a result code as GRDB does. (Installing it is process-wide: SubDBTests' DatabaseLogErrorTests, the
    /// only suite that sets it, checks that SQLite's errors reach it.)
    @Test func errorLogging() {
        let lines = Mutex<[String]>([])
        let logError: Database.LogErrorFunction = { resultCode, message in
            lines.withLock { $0.append("SQLite error \(resultCode): \(message)") }
        }
        logError(.SQLITE_ERROR, "example")
        logError(ResultCode(rawValue: 2067), "UNIQUE constraint failed: t.a")
        #expect(
            lines.withLock { $0 } == [
                "SQLite error 1 (SQL logic error): example",
                "SQLite error 2067 (constraint failed): UNIQUE constraint failed: t.a",
            ])
    }

    @Test func configuration() throws {
        var config = Configuration()
        config.busyMode = Database.BusyMode.timeout(5)
        config.readonlyBusyMode = .immediateError
        config.journalMode = .wal
        config.publicStatementArguments = true
        let dbQueue = try DatabaseQueue(configuration: config)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }

    @Test func sqlRequestWithAdapter() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let sql = """
                SELECT player.*, team.*
                FROM player
                JOIN team ON team.id = player.teamId
                ORDER BY player.id
                """
            let adapter = ScopeAdapter([
                "player": RangeRowAdapter(0..<4),
                "team": SuffixRowAdapter(fromIndex: 4),
            ])
            let request = SQLRequest<PlayerInfo>(sql: sql, adapter: adapter)
            let infos = try request.fetchAll(db)
            #expect(infos.map { "\($0.player.name) \($0.team.name)" } == ["Arthur Reds", "Barbara Reds"])

            let rowRequest = SQLRequest<Row>(sql: sql).adapted { db in adapter }
            let row = try #require(try rowRequest.fetchOne(db))
            #expect(row.scopes["team"]?["name"] == "Reds")
        }
    }

    @Test func selectionExcludingColumns() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let rows = try Row.fetchAll(db, Player.select(.allColumns(excluding: ["secret"])))
            #expect(rows.first?.columnNames == ["id", "name", "teamId"])
        }
    }

    @Test func statementCursor() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let statement = try db.makeStatement(sql: "UPDATE player SET name = upper(name) WHERE id = ?")
            _ = try statement.makeCursor(arguments: [1]).next()
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 1") == "ARTHUR")
        }
    }

    @Test func schemaSource() throws {
        var config = Configuration()
        config.schemaSource = MySchemaSource()
        let dbQueue = try makeDatabase(config)
        // (`throws in`: the closures' only throwing calls are inside #expect, which Swift does not infer from.)
        try dbQueue.read { (db: Database) throws in
            #expect(try db.primaryKey("playerView").columns == ["id"])
            let objectID = DatabaseObjectID(name: "playerView", schemaID: .main)
            #expect(try MySchemaSource().columnsForPrimaryKey(db, inView: objectID) == ["id"])
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v2") { db in
            // No schema source is enabled at this point.
            try db.withSchemaSource(MySchemaSource()) { () throws in
                // Here the provided schema source is in effect.
                #expect(try db.primaryKey("playerView").columns == ["id"])
            }
        }
        try migrator.migrate(dbQueue)
    }
}
