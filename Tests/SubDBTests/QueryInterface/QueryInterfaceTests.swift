import Foundation
import SubDB
import Testing

@Suite("Query interface")
struct QueryInterfaceTests {
    /// Fills the player table with four players.
    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { (db: Database) throws in
            for (name, score) in [("Arthur", 100), ("Barbara", 1000), ("Craig", 500), ("David", 1500)] {
                _ = try Player(id: nil, name: name, score: score).inserted(db)
            }
        }
        return dbQueue
    }

    /// The SQL and arguments of a request, as executed.
    static func sql(_ db: Database, _ request: some FetchRequest) throws -> String {
        let (sql, arguments) = try request.sqlAndArguments(db)
        return arguments.isEmpty ? sql : "\(sql) \(arguments)"
    }

    @Test("The seeds' query: filter { $0.score > 1000 }.order(\\.score.desc), SQL seen through trace")
    func seedQuery() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let trace = TracedSQL(db)
            let players = try Player.filter { $0.score > 1000 }.order(\.score.desc).fetchAll(db)
            #expect(players.map(\.name) == ["David"])
            #expect(trace.last == #"SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC"#)
            let best = try Player.order(\.score.desc).limit(2).fetchAll(db)
            #expect(best.map(\.name) == ["David", "Barbara"])
            #expect(trace.last == #"SELECT * FROM "player" ORDER BY "score" DESC LIMIT 2"#)
        }
    }

    @Test(
        "Expressions and operators generate GRDB's SQL",
        arguments: [
            (Column("score") == 1, #"SELECT * FROM "player" WHERE "score" = ? [1]"#),
            (Column("name") == nil, #"SELECT * FROM "player" WHERE "name" IS NULL"#),
            (Column("name") != nil, #"SELECT * FROM "player" WHERE "name" IS NOT NULL"#),
            (Column("score") != 1, #"SELECT * FROM "player" WHERE "score" <> ? [1]"#),
            (
                Column("score") <= 2 && Column("score") >= 1,
                #"SELECT * FROM "player" WHERE ("score" <= ?) AND ("score" >= ?) [2, 1]"#
            ),
            (
                Column("score") < 1 || Column("name") == "x",
                #"SELECT * FROM "player" WHERE ("score" < ?) OR ("name" = ?) [1, "x"]"#
            ),
            (!(Column("score") > 1), #"SELECT * FROM "player" WHERE NOT ("score" > ?) [1]"#),
            (
                Column("score") + 1 > Column("id") * 2,
                #"SELECT * FROM "player" WHERE ("score" + ?) > ("id" * ?) [1, 2]"#
            ),
            ([1, 2, 3].contains(Column("id")), #"SELECT * FROM "player" WHERE "id" IN (?, ?, ?) [1, 2, 3]"#),
            ((10...20).contains(Column("score")), #"SELECT * FROM "player" WHERE "score" BETWEEN ? AND ? [10, 20]"#),
            (
                (10..<20).contains(Column("score")),
                #"SELECT * FROM "player" WHERE ("score" >= ?) AND ("score" < ?) [10, 20]"#
            ),
            (Column("name").like("%ar%"), #"SELECT * FROM "player" WHERE "name" LIKE ? ["%ar%"]"#),
            (
                Column("name").collating(.nocase) == "ARTHUR",
                #"SELECT * FROM "player" WHERE ("name" COLLATE NOCASE) = ? ["ARTHUR"]"#
            ),
            ([Int]().contains(Column("id")), #"SELECT * FROM "player" WHERE 0"#),
            (length(Column("name")) > 5, #"SELECT * FROM "player" WHERE LENGTH("name") > ? [5]"#),
            (abs(Column("score")) >= 0, #"SELECT * FROM "player" WHERE ABS("score") >= ? [0]"#),
        ])
    func expressions(predicate: SQLExpression, expected: String) throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Self.sql(db, Player.filter(predicate)) == expected)
            _ = try Player.filter(predicate).fetchAll(db)  // SQLite accepts the SQL
        }
    }

    /// Issue #31: `SQLRequest(sql:)` without a type is a request of rows, as in GRDB; typed ones still work.
    @Test("SQLRequest(sql:) infers SQLRequest<Row>")
    func sqlRequestInfersRow() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db in
            let request = SQLRequest(sql: "SELECT name FROM player WHERE score > ? ORDER BY id", arguments: [900])
            let rows: [Row] = try request.fetchAll(db)
            #expect(rows.map { $0["name"] as String } == ["Barbara", "David"])
            let minimum = 1000
            let literal = SQLRequest(literal: "SELECT name FROM player WHERE score > \(minimum)")
            #expect(try literal.fetchOne(db)?["name"] == "David")
            #expect(try SQLRequest<String>(sql: "SELECT name FROM player ORDER BY id").fetchAll(db).first == "Arthur")
            #expect(try SQLRequest<Row>(sql: "SELECT 1 AS one").fetchOne(db)?["one"] == 1)
        }
    }

    /// Issue #31: withStableOrder() appends the primary key to the ordering (or orders by it alone).
    @Test("withStableOrder() breaks ties with the primary key")
    func stableOrder() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.write { db in
            _ = try Player(id: nil, name: "Eve", score: 1000).inserted(db)
            let byScore = Player.order(Column("score").desc).withStableOrder()
            #expect(
                try byScore.sqlAndArguments(db).sql
                    == #"SELECT * FROM "player" ORDER BY "score" DESC, "id""#)
            #expect(try byScore.fetchAll(db).map(\.name) == ["David", "Barbara", "Eve", "Craig", "Arthur"])
            #expect(try byScore.reversed().fetchAll(db).map(\.name) == ["Arthur", "Craig", "Eve", "Barbara", "David"])
            let unordered = try Player.all().withStableOrder().sqlAndArguments(db).sql
            #expect(unordered == #"SELECT * FROM "player" ORDER BY "id""#)
            #expect(
                try Player.orderByPrimaryKey().withStableOrder().sqlAndArguments(db).sql
                    == #"SELECT * FROM "player" ORDER BY "id""#)
        }
    }

    @Test("Filters, orderings, limits and selections compose like GRDB's")
    func composition() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Self.sql(db, Player.all()) == #"SELECT * FROM "player""#)
            #expect(try Self.sql(db, Player.none()) == #"SELECT * FROM "player" WHERE 0"#)
            #expect(
                try Self.sql(db, Player.filter(Column("score") > 1).filter(Column("name") != "x"))
                    == #"SELECT * FROM "player" WHERE ("score" > ?) AND ("name" <> ?) [1, "x"]"#)
            #expect(try Self.sql(db, Player.filter(key: 1)) == #"SELECT * FROM "player" WHERE "id" = ? [1]"#)
            #expect(
                try Self.sql(db, Player.filter(keys: [1, 2])) == #"SELECT * FROM "player" WHERE "id" IN (?, ?) [1, 2]"#)
            #expect(
                try Self.sql(db, Player.filter(sql: "score > ?", arguments: [5]))
                    == #"SELECT * FROM "player" WHERE score > ? [5]"#)
            #expect(
                try Self.sql(db, Player.filter(literal: "score > \(5)"))
                    == #"SELECT * FROM "player" WHERE score > ? [5]"#)
            #expect(
                try Self.sql(db, Player.order(Column("score").desc, Column("name")))
                    == #"SELECT * FROM "player" ORDER BY "score" DESC, "name""#)
            #expect(
                try Self.sql(db, Player.order(Column("score").ascNullsLast))
                    == #"SELECT * FROM "player" ORDER BY "score" ASC NULLS LAST"#)
            #expect(try Self.sql(db, Player.order(sql: "score DESC")) == #"SELECT * FROM "player" ORDER BY score DESC"#)
            #expect(
                try Self.sql(db, Player.order(Column("score")).reversed())
                    == #"SELECT * FROM "player" ORDER BY "score" DESC"#)
            #expect(try Self.sql(db, Player.all().reversed()) == #"SELECT * FROM "player" ORDER BY "id" DESC"#)
            #expect(try Self.sql(db, Player.limit(5, offset: 10)) == #"SELECT * FROM "player" LIMIT 5 OFFSET 10"#)
            #expect(
                try Self.sql(db, Player.select(Column("name")).distinct())
                    == #"SELECT DISTINCT "name" FROM "player""#)
            #expect(
                try Self.sql(db, Player.select(Column("name"), (Column("score") * 2).forKey("double")))
                    == #"SELECT "name", "score" * ? AS "double" FROM "player" [2]"#)
            #expect(
                try Self.sql(db, Player.annotated(with: max(Column("score")).forKey("best")))
                    == #"SELECT *, MAX("score") AS "best" FROM "player""#)
            #expect(
                try Self.sql(
                    db,
                    Player.select(Column("name"), count(AllColumns())).group(Column("name"))
                        .having(count(AllColumns()) > 1))
                    == #"SELECT "name", COUNT(*) FROM "player" GROUP BY "name" HAVING COUNT(*) > ? [1]"#)
            #expect(
                try Self.sql(db, Player.filter { $0.name == "Arthur" }.order { [$0.score.desc, $0.name] })
                    == #"SELECT * FROM "player" WHERE "name" = ? ORDER BY "score" DESC, "name" ["Arthur"]"#)
        }
    }

    @Test("Aggregates and values fetched with select(_:as:)")
    func aggregates() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Player.select(max(Column("score")), as: Int.self).fetchOne(db) == 1500)
            #expect(try Player.select(min(Column("score")), as: Int.self).fetchOne(db) == 100)
            #expect(try Player.select(sum(Column("score")), as: Int.self).fetchOne(db) == 3100)
            #expect(try Player.select(total(Column("score")), as: Double.self).fetchOne(db) == 3100)
            #expect(try Player.select(average(Column("score")), as: Double.self).fetchOne(db) == 775)
            #expect(try Player.select(count(Column("id")), as: Int.self).fetchOne(db) == 4)
            #expect(try Player.select(count(distinct: Column("name")), as: Int.self).fetchOne(db) == 4)
            #expect(try Player.select({ max($0.score) }, as: Int.self).fetchOne(db) == 1500)
            #expect(
                try Player.select(Column("name"), as: String.self).order(Column("name")).fetchAll(db)
                    == ["Arthur", "Barbara", "Craig", "David"])
            #expect(try Player.select(sql: "upper(name)", as: String.self).filter(key: 1).fetchOne(db) == "ARTHUR")
            #expect(try Int.fetchOne(db, Player.select(max(Column("score")))) == 1500)
            let row = try #require(
                try Player.select(Column("name")).asRequest(of: Row.self).filter(key: 2).fetchOne(db))
            #expect(row["name"] as String == "Barbara")
            #expect(try Player.all().asRequest(of: Row.self).fetchAll(db).count == 4)
        }
    }

    @Test("fetchCount generates COUNT queries")
    func fetchCount() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let trace = TracedSQL(db)
            #expect(try Player.fetchCount(db) == 4)
            #expect(trace.last == #"SELECT COUNT(*) FROM "player""#)
            #expect(try Player.filter(Column("score") > 200).fetchCount(db) == 3)
            #expect(trace.last == #"SELECT COUNT(*) FROM "player" WHERE "score" > ?"#)
            #expect(try Player.select(Column("name")).distinct().fetchCount(db) == 4)
            #expect(trace.last == #"SELECT COUNT(DISTINCT "name") FROM "player""#)
            #expect(try Player.limit(2).fetchCount(db) == 2)
            #expect(trace.last == #"SELECT COUNT(*) FROM (SELECT * FROM "player" LIMIT 2)"#)
        }
    }

    @Test("updateAll and deleteAll, with assignment operators")
    func batchUpdates() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let trace = TracedSQL(db)
            #expect(try Player.filter(Column("score") < 600).updateAll(db, Column("score").set(to: 0)) == 2)
            #expect(trace.last == #"UPDATE "player" SET "score" = ? WHERE "score" < ?"#)
            #expect(try Player.updateAll(db, [Column("score") += 10]) == 4)
            #expect(trace.last == #"UPDATE "player" SET "score" = "score" + ?"#)
            try Player.all().updateAll(db) { $0.score *= 2 }
            #expect(trace.last == #"UPDATE "player" SET "score" = "score" * ?"#)
            #expect(
                try Player.select(Column("score"), as: Int.self).order(Column("id")).fetchAll(db) == [
                    20, 2020, 20, 3020,
                ])
            let error = #expect(throws: DatabaseError.self) {
                try Player.updateAll(db, Column("name").set(to: nil), Column("score") -= 1)
            }
            #expect(
                error?.description
                    == #"SQLite error 19: NOT NULL constraint failed: player.name - while executing `UPDATE "player" SET "name" = NULL, "score" = "score" - ?`"#
            )
        }
        try dbQueue.write { (db: Database) throws in
            let trace = TracedSQL(db)
            #expect(try Player.filter(Column("score") > 1000).deleteAll(db) == 2)
            #expect(trace.last == #"DELETE FROM "player" WHERE "score" > ?"#)
            #expect(try Player.order(Column("score")).limit(1).deleteAll(db) == 1)
            #expect(
                trace.last
                    == #"DELETE FROM "player" WHERE rowid IN (SELECT "rowid" FROM "player" ORDER BY "score" LIMIT 1)"#)
        }
    }

    @Test("SQL interpolation of tables, columns and expressions; SQLRequest")
    func interpolation() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let literal: SQL =
                "SELECT * FROM \(Player.self) WHERE \(Column("score")) > \(1000) ORDER BY \(Column("score").desc)"
            let (sql, arguments) = literal.build()
            #expect(sql == #"SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC"#)
            #expect(arguments == [1000])
            #expect(try Player.fetchAll(db, literal: literal).map(\.name) == ["David"])
            let request: SQLRequest<Player> = "SELECT * FROM player WHERE name = \("Craig")"
            #expect(try request.fetchOne(db)?.score == 500)
            #expect(try SQLRequest<String>(sql: "SELECT name FROM player ORDER BY name").fetchAll(db).first == "Arthur")
            #expect(try SQLRequest<Row>(sql: "SELECT 1 AS one").fetchOne(db)?["one"] == 1)
            #expect(try SQLRequest<Player>(sql: "SELECT * FROM player").fetchCount(db) == 4)
        }
    }

    @Test("fetchOne adds LIMIT 1, keeps an offset, and leaves key lookups alone, as GRDB")
    func fetchOneLimitsToOneRow() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let trace = TracedSQL(db)
            #expect(try Player.fetchOne(db)?.name == "Arthur")
            #expect(trace.last == #"SELECT * FROM "player" LIMIT 1"#)
            #expect(try Player.order(\.score.desc).fetchOne(db)?.name == "David")
            #expect(trace.last == #"SELECT * FROM "player" ORDER BY "score" DESC LIMIT 1"#)
            #expect(try Player.order(\.score).limit(10, offset: 2).fetchOne(db)?.name == "Barbara")
            #expect(trace.last == #"SELECT * FROM "player" ORDER BY "score" LIMIT 1 OFFSET 2"#)
            #expect(try Player.limit(0).fetchOne(db) == nil)
            #expect(trace.last == #"SELECT * FROM "player" LIMIT 0"#)
            #expect(try Player.all().asRequest(of: Row.self).fetchOne(db)?["name"] == "Arthur")
            #expect(trace.last == #"SELECT * FROM "player" LIMIT 1"#)
            #expect(try Row.fetchOne(db, Player.all())?["name"] == "Arthur")
            #expect(trace.last == #"SELECT * FROM "player" LIMIT 1"#)
            #expect(try Player.fetchOne(db, Player.order(\.name.desc))?.name == "David")
            #expect(trace.last == #"SELECT * FROM "player" ORDER BY "name" DESC LIMIT 1"#)
            #expect(try Player.select(\.name, as: String.self).fetchOne(db) == "Arthur")
            #expect(trace.last == #"SELECT "name" FROM "player" LIMIT 1"#)
            #expect(try String.fetchOne(db, Player.select(Column("name")).order(\.name.desc)) == "David")
            #expect(trace.last == #"SELECT "name" FROM "player" ORDER BY "name" DESC LIMIT 1"#)
            let optionalName: String?? = try Player.select(Column("name"), as: String?.self).fetchOne(db)
            #expect(optionalName == .some("Arthur"))
            #expect(trace.last == #"SELECT "name" FROM "player" LIMIT 1"#)
            // A primary key or unique key lookup selects at most one row already.
            #expect(try Player.fetchOne(db, key: 2)?.name == "Barbara")
            #expect(trace.last == #"SELECT * FROM "player" WHERE "id" = ?"#)
            #expect(try Player.filter(key: ["id": 3]).fetchOne(db)?.name == "Craig")
            #expect(trace.last == #"SELECT * FROM "player" WHERE "id" = ?"#)
            // Raw SQL requests are executed as written.
            let request: SQLRequest<Player> = "SELECT * FROM player ORDER BY id"
            #expect(try request.fetchOne(db)?.name == "Arthur")
            #expect(trace.last == "SELECT * FROM player ORDER BY id")
        }
    }

    @Test("orderByPrimaryKey, filter(keys:) with dictionaries, .allColumns and .rowID selections")
    func grdbOrderingAndSelectionHelpers() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE note (text TEXT); INSERT INTO note VALUES ('b'), ('a')")
            try db.execute(sql: "CREATE TABLE pair (a INTEGER, b INTEGER, PRIMARY KEY (a, b))")
        }
        try dbQueue.read { (db: Database) throws in
            #expect(try Self.sql(db, Player.orderByPrimaryKey()) == #"SELECT * FROM "player" ORDER BY "id""#)
            #expect(try Player.orderByPrimaryKey().reversed().fetchAll(db).map(\.name).first == "David")
            #expect(
                try Self.sql(db, Player.orderByPrimaryKey().thenOrder(Column("name")))
                    == #"SELECT * FROM "player" ORDER BY "id", "name""#)
            #expect(
                try Self.sql(db, Player.orderByPrimaryKey().order(Column("name")))
                    == #"SELECT * FROM "player" ORDER BY "name""#)
            #expect(try Self.sql(db, Player.orderByPrimaryKey().unordered()) == #"SELECT * FROM "player""#)
            #expect(try Self.sql(db, Table("note").orderByPrimaryKey()) == #"SELECT * FROM "note" ORDER BY "rowid""#)
            #expect(try Self.sql(db, Table("pair").orderByPrimaryKey()) == #"SELECT * FROM "pair" ORDER BY "a", "b""#)
            let byNames = Player.filter(keys: [["name": "Arthur"], ["name": "Craig"]]).order(\.name)
            #expect(try byNames.fetchAll(db).map(\.name) == ["Arthur", "Craig"])
            #expect(
                try Self.sql(db, byNames)
                    == #"SELECT * FROM "player" WHERE ("name" = ?) OR ("name" = ?) ORDER BY "name" ["Arthur", "Craig"]"#
            )
            let rows = try Table("note").select(.allColumns, .rowID).orderByPrimaryKey().fetchAll(db)
            #expect(
                rows.map { "\($0.columnNames) \($0["text"] as String) \($0["rowid"] as Int)" } == [
                    #"["text", "rowid"] b 1"#, #"["text", "rowid"] a 2"#,
                ])
            #expect(try Self.sql(db, Player.select(.allColumns, .rowID)) == #"SELECT *, "rowid" FROM "player""#)
        }
    }

    @Test("allColumns(excluding:) selects the table's other columns, from the schema")
    func allColumnsExcluding() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.write { (db: Database) throws in
            #expect(
                try Self.sql(db, Player.select(.allColumns(excluding: ["SCORE"])))
                    == #"SELECT "id", "name" FROM "player""#)
            #expect(
                try Self.sql(db, Player.select(.allColumns(excluding: [Player.Columns.id]), .rowID))
                    == #"SELECT "name", "score", "rowid" FROM "player""#)
            let request = Player.select(.allColumns(excluding: ["score", "id"])).order(\.name)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.columnNames == ["name"])
            #expect(row["name"] == "Arthur")
            // Counting, and a column added later: the schema is read when the SQL is made.
            #expect(try Player.select(.allColumns(excluding: ["id"])).fetchCount(db) == 4)
            try db.alter(table: "player") { t in t.add(column: "bonus", .integer) }
            #expect(
                try Self.sql(db, Player.select(.allColumns(excluding: ["id", "name"])))
                    == #"SELECT "score", "bonus" FROM "player""#)
            // Excluding nothing, or a column that does not exist, selects every column.
            #expect(try Table("player").select(AllColumnsExcluding(["nothing"])).fetchOne(db)?.count == 4)
            // In a joined request the columns are qualified.
            #expect(
                try Self.sql(db, Player.aliased(TableAlias(name: "p")).select(.allColumns(excluding: ["id"])))
                    == #"SELECT "p"."name", "p"."score", "p"."bonus" FROM "player" "p""#)
        }
    }
}
