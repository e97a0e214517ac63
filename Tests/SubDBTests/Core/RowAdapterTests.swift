import Foundation
import SubDB
import Testing

@Suite struct RowAdapterTests {
    private struct Player: Decodable, FetchableRecord, Equatable {
        var id: Int64
        var name: String
    }

    private struct PlayerWithTeam: Decodable, FetchableRecord {
        var player: Player
        var team: Player
    }

    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, teamId INTEGER);
                    INSERT INTO team VALUES (10, 'Red');
                    INSERT INTO player VALUES (1, 'Arthur', 10), (2, 'Barbara', 10);
                    """)
        }
    }

    private let joinSQL =
        "SELECT player.id, player.name, team.id, team.name FROM player JOIN team ON team.id = teamId ORDER BY player.id"

    @Test func scopesFromSlices() throws {
        try dbQueue.read { db in
            let adapter = RangeRowAdapter(0..<2).addingScopes(["team": SuffixRowAdapter(fromIndex: 2)])
            let rows = try Row.fetchAll(db, sql: joinSQL, adapter: adapter)
            #expect(rows.count == 2)
            #expect(rows[0] == ["id": 1, "name": "Arthur"])
            #expect(rows[0].scopes["team"] == ["id": 10, "name": "Red"])
            let infos = try PlayerWithTeam.fetchAll(
                db, sql: joinSQL,
                adapter: ScopeAdapter(["player": RangeRowAdapter(0...1), "team": SuffixRowAdapter(fromIndex: 2)]))
            #expect(infos.map { "\($0.player.name)/\($0.team.name)" } == ["Arthur/Red", "Barbara/Red"])
            let cursor = try Row.fetchCursor(db, sql: joinSQL, adapter: SuffixRowAdapter(fromIndex: 3))
            #expect(try cursor.next()?.columnNames == ["name"])
            #expect(try Row.fetchOne(db, sql: joinSQL, adapter: EmptyRowAdapter())?.count == 0)
            #expect(try Row.fetchOne(db, sql: joinSQL, adapter: nil)?.count == 4)
        }
    }

    @Test func columnMappingRenames() throws {
        try dbQueue.read { db in
            let sql = "SELECT id AS playerId, name AS playerName, teamId FROM player ORDER BY id"
            let mapping = ColumnMapping(["id": "playerId", "name": "PLAYERNAME"])
            #expect(try Player.fetchOne(db, sql: sql, adapter: mapping) == Player(id: 1, name: "Arthur"))
            #expect(try Player.fetchAll(db, sql: sql, adapter: mapping).map(\.name) == ["Arthur", "Barbara"])
            let row = try #require(try Row.fetchOne(db, sql: sql, adapter: mapping))
            #expect(row.columnNames == ["id", "name"])
            // A mapping to a missing column is an error that names the valid columns.
            let error = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: sql, adapter: ColumnMapping(["x": "missing"]))
            }
            #expect(
                error?.message
                    == "ColumnMapping references missing column missing. Valid column names are: playerId, playerName, teamId"
            )
        }
    }

    @Test func sqlRequestsCarryTheirAdapter() throws {
        try dbQueue.read { db in
            let adapter = ScopeAdapter(["player": RangeRowAdapter(0..<2), "team": SuffixRowAdapter(fromIndex: 2)])
            let request = SQLRequest<PlayerWithTeam>(sql: joinSQL, adapter: adapter)
            #expect(
                try request.fetchAll(db).map { "\($0.player.name)/\($0.team.name)" } == ["Arthur/Red", "Barbara/Red"])
            #expect(try request.fetchOne(db)?.team == Player(id: 10, name: "Red"))
            let cursor = try request.fetchCursor(db)
            #expect(try cursor.next()?.player.name == "Arthur")
            #expect(try cursor.next()?.player.name == "Barbara")
            #expect(try cursor.next() == nil)
            #expect(try PlayerWithTeam.fetchAll(db, request).count == 2)

            // Rows and values: the adapter picks the columns. Without it, the leftmost column is player.id.
            let rows = try SQLRequest<Row>(sql: joinSQL, adapter: SuffixRowAdapter(fromIndex: 3)).fetchAll(db)
            #expect(rows.map(\.columnNames) == [["name"], ["name"]])
            let teamNames = SQLRequest<String>(sql: joinSQL, adapter: SuffixRowAdapter(fromIndex: 3))
            #expect(try teamNames.fetchAll(db) == ["Red", "Red"])
            #expect(try teamNames.fetchOne(db) == "Red")
            #expect(try teamNames.fetchSet(db) == ["Red"])
            #expect(try Array(teamNames.fetchCursor(db)) == ["Red", "Red"])
            #expect(try SQLRequest<Int>(sql: joinSQL).fetchOne(db) == 1)
            // The adapter survives asRequest(of:), and shows in the prepared request.
            #expect(try teamNames.asRequest(of: Row.self).fetchOne(db)?.columnNames == ["name"])
            #expect(try teamNames.makePreparedRequest(db).adapter != nil)
            #expect(try SQLRequest<Int>(sql: joinSQL).makePreparedRequest(db).adapter == nil)
        }
    }

    @Test func adaptedRequestsChainAdapters() throws {
        try dbQueue.read { db in
            // adapted(_:) on a query interface request, and over the adapter of an SQLRequest: the second sees the
            // rows the first makes (columns 2... of the join, then its column 1 = team.name).
            let names = try Table("player").order(Column("id")).adapted { _ in SuffixRowAdapter(fromIndex: 1) }
                .fetchAll(db)
            #expect(names.map(\.columnNames) == [["name", "teamId"], ["name", "teamId"]])
            let chained = SQLRequest<String>(sql: joinSQL, adapter: SuffixRowAdapter(fromIndex: 2))
                .adapted { _ in SuffixRowAdapter(fromIndex: 1) }
            #expect(try chained.fetchAll(db) == ["Red", "Red"])
            let error = #expect(throws: DatabaseError.self) {
                try SQLRequest<String>(sql: joinSQL, adapter: EmptyRowAdapter()).fetchAll(db)
            }
            #expect(error?.message == "the row adapter selects no column")
        }
    }

    @Test func literalsAndStatementsTakeAnAdapter() throws {
        try dbQueue.read { db in
            let teamID = 10
            let literal: SQL = """
                SELECT player.id, player.name, team.id, team.name FROM player JOIN team ON team.id = teamId
                WHERE team.id = \(teamID) ORDER BY player.id
                """
            #expect(try Row.fetchAll(db, literal: literal).count == 2)
            #expect(try Row.fetchOne(db, literal: literal, adapter: SuffixRowAdapter(fromIndex: 3)) == ["name": "Red"])
            #expect(
                try String.fetchAll(db, literal: literal, adapter: RangeRowAdapter(1..<2)) == ["Arthur", "Barbara"])
            #expect(try Int.fetchOne(db, literal: literal) == 1)  // the leftmost column, player.id
            #expect(try String.fetchSet(db, literal: literal, adapter: SuffixRowAdapter(fromIndex: 3)) == ["Red"])
            #expect(try Array(Int.fetchCursor(db, literal: literal, adapter: RangeRowAdapter(2..<3))) == [10, 10])
            let teams = ScopeAdapter(["player": RangeRowAdapter(0..<2), "team": SuffixRowAdapter(fromIndex: 2)])
            #expect(
                try PlayerWithTeam.fetchAll(db, literal: literal, adapter: teams).map(\.team.name) == ["Red", "Red"])
            #expect(try Player.fetchOne(db, literal: literal) == Player(id: 1, name: "Arthur"))

            let statement = try db.makeStatement(sql: joinSQL)
            let suffix = SuffixRowAdapter(fromIndex: 2)
            #expect(try Row.fetchAll(statement, adapter: suffix).map { $0["name"] as String } == ["Red", "Red"])
            #expect(try Row.fetchOne(statement, adapter: suffix)?.columnNames == ["id", "name"])
            #expect(
                try Player.fetchAll(statement, adapter: suffix) == [
                    Player(id: 10, name: "Red"), Player(id: 10, name: "Red"),
                ])
            #expect(try Player.fetchOne(statement, adapter: suffix) == Player(id: 10, name: "Red"))
            let cursor = try PlayerWithTeam.fetchCursor(statement, adapter: teams)
            #expect(try cursor.next()?.player.name == "Arthur")
            #expect(try Row.fetchCursor(statement, adapter: suffix).next()?.count == 2)
        }
    }
}
