import Foundation
import SubDB
import Testing

private struct ReusedPlayer: Decodable, FetchableRecord, Equatable {
    var id: Int64
    var name: String
}

private struct ReusedPlayerName: Decodable, FetchableRecord, Equatable {
    var name: String
}

/// A record that decodes a second record of its own type from the same row, inside its initializer.
private struct ReusedPair: FetchableRecord, Equatable {
    var player: ReusedPlayer
    var echo: ReusedPlayer?
    init(row: Row) throws {
        player = try ReusedPlayer(row: row)
        echo = row["id"] as Int64 == 1 ? try ReusedPlayer(row: row) : nil
    }
    init(player: ReusedPlayer, echo: ReusedPlayer?) {
        self.player = player
        self.echo = echo
    }
}

/// A record reading the row through containers of two key types, alternately.
private struct TwoKeyTypes: Decodable, FetchableRecord, Equatable {
    var id: Int64
    var name: String
    private enum IDKeys: String, CodingKey { case id }
    private enum NameKeys: String, CodingKey { case name }
    init(from decoder: any Decoder) throws {
        id = try decoder.container(keyedBy: IDKeys.self).decode(Int64.self, forKey: .id)
        name = try decoder.container(keyedBy: NameKeys.self).decode(String.self, forKey: .name)
    }
    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// Decoding state is kept with a statement from fetch to fetch: results must not leak from one fetch to the
/// next, and the statement must still be released with its connection.
@Suite struct RecordDecodingReuseTests {
    private func makePlayers() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara'), (3, 'Craig');
                    """)
        }
        return dbQueue
    }

    @Test func statementsAreReleasedAfterRecordFetches() throws {
        weak var weakStatement: Statement?
        weak var weakCachedStatement: Statement?
        do {
            let dbQueue = try makePlayers()
            try dbQueue.read { (db: Database) throws in
                let statement = try db.makeStatement(sql: "SELECT id, name FROM player ORDER BY id")
                weakStatement = statement
                #expect(try ReusedPlayer.fetchAll(statement).map(\.name) == ["Arthur", "Barbara", "Craig"])
                #expect(try ReusedPlayer.fetchOne(statement)?.name == "Arthur")
                weakCachedStatement = try db.cachedStatement(sql: "SELECT id, name FROM player ORDER BY id")
                #expect(try ReusedPlayer.fetchAll(db, sql: "SELECT id, name FROM player ORDER BY id").count == 3)
            }
        }
        #expect(weakStatement == nil)
        #expect(weakCachedStatement == nil)
    }

    @Test func repeatedFetchesFromOneStatementWithArgumentsAndRecordTypes() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { (db: Database) throws in
            let sql = "SELECT id, name FROM player WHERE id >= ? ORDER BY id"
            #expect(
                try ReusedPlayer.fetchAll(db, sql: sql, arguments: [2]) == [
                    ReusedPlayer(id: 2, name: "Barbara"), ReusedPlayer(id: 3, name: "Craig"),
                ])
            #expect(try ReusedPlayerName.fetchAll(db, sql: sql, arguments: [3]) == [ReusedPlayerName(name: "Craig")])
            #expect(try ReusedPlayer.fetchOne(db, sql: sql, arguments: [1]) == ReusedPlayer(id: 1, name: "Arthur"))
            #expect(try ReusedPlayer.fetchAll(db, sql: sql, arguments: [4]) == [])
            #expect(try ReusedPlayerName.fetchOne(db, sql: sql, arguments: [2]) == ReusedPlayerName(name: "Barbara"))
        }
    }

    @Test func aRecordDecodingAnotherFromTheSameRow() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { (db: Database) throws in
            for _ in 0..<2 {
                let pairs = try ReusedPair.fetchAll(db, sql: "SELECT id, name FROM player ORDER BY id LIMIT 2")
                #expect(
                    pairs == [
                        ReusedPair(
                            player: ReusedPlayer(id: 1, name: "Arthur"), echo: ReusedPlayer(id: 1, name: "Arthur")),
                        ReusedPair(player: ReusedPlayer(id: 2, name: "Barbara"), echo: nil),
                    ])
            }
        }
    }

    @Test func aSchemaChangeBetweenFetchesChangesTheColumns() throws {
        let dbQueue = try makePlayers()
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            let statement = try db.makeStatement(sql: "SELECT * FROM player ORDER BY id")
            #expect(try ReusedPlayer.fetchAll(statement).count == 3)
            try db.execute(sql: "ALTER TABLE player RENAME COLUMN name TO nickname")
            let error = #expect(throws: RowDecodingError.self) { try ReusedPlayer.fetchAll(statement) }
            #expect(error?.description.contains("column not found: \"name\"") == true)
            try db.execute(sql: "ALTER TABLE player RENAME COLUMN nickname TO name")
            #expect(try ReusedPlayer.fetchAll(statement).map(\.name) == ["Arthur", "Barbara", "Craig"])
        }
    }

    @Test func aFailedDecodingLeavesTheNextFetchIntact() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { (db: Database) throws in
            let sql = "SELECT id, CASE WHEN id = 2 THEN NULL ELSE name END AS name FROM player ORDER BY id"
            #expect(throws: RowDecodingError.self) { try ReusedPlayer.fetchAll(db, sql: sql) }
            #expect(try ReusedPlayer.fetchAll(db, sql: sql + " LIMIT 1") == [ReusedPlayer(id: 1, name: "Arthur")])
        }
    }

    @Test func statementsRecompiledByEveryReadKeepTheirColumnsAndSeeNewOnes() throws {
        let dbQueue = try makePlayers()
        let sql = "SELECT * FROM player ORDER BY id"
        // Reads used to toggle `PRAGMA query_only`, which makes SQLite recompile cached statements: a recompiled
        // statement must keep its columns.
        for _ in 0..<3 {
            try dbQueue.read { (db: Database) throws in
                #expect(try ReusedPlayer.fetchAll(db, sql: sql).map(\.id) == [1, 2, 3])
                #expect(try db.cachedStatement(sql: sql).columnNames == ["id", "name"])
            }
        }
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "ALTER TABLE player ADD COLUMN score INTEGER NOT NULL DEFAULT 7")
        }
        try dbQueue.read { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, sql: sql))
            #expect(row.description == "[id:1 name:\"Arthur\" score:7]")
            #expect(try db.cachedStatement(sql: sql).columnNames == ["id", "name", "score"])
            #expect(try ReusedPlayer.fetchAll(db, sql: sql).map(\.name) == ["Arthur", "Barbara", "Craig"])
        }
    }

    @Test func containersOfSeveralKeyTypesOnOneDecoder() throws {
        let dbQueue = try makePlayers()
        try dbQueue.read { (db: Database) throws in
            for _ in 0..<2 {
                let records = try TwoKeyTypes.fetchAll(db, sql: "SELECT id, name FROM player ORDER BY id")
                #expect(
                    records == [
                        TwoKeyTypes(id: 1, name: "Arthur"), TwoKeyTypes(id: 2, name: "Barbara"),
                        TwoKeyTypes(id: 3, name: "Craig"),
                    ])
            }
        }
    }
}
