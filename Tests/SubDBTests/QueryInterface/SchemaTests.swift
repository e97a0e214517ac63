import Foundation
import SubDB
import Testing

@Suite("Schema definitions")
struct SchemaTests {
    @Test("create(table:) writes GRDB's CREATE TABLE")
    func createTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            let trace = TracedSQL(db)
            try db.create(table: "team") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull().unique().collate(.nocase)
            }
            #expect(
                trace.last
                    == #"CREATE TABLE "team" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL UNIQUE COLLATE NOCASE)"#
            )
            try db.create(table: "player", options: [.ifNotExists]) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("teamId", .text).references("team", onDelete: .cascade).indexed()
                t.column("score", .integer).notNull().defaults(to: 0).check { $0 >= 0 }
                t.column("bonus", .double).check(sql: "bonus < 100")
                t.column("createdAt", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
                t.column("motto", .text).defaults(to: "it's fine")
                t.column("flag", .boolean)
                t.uniqueKey(["teamId", "score"])
                t.check(Column("score") < 1_000_000)
            }
            #expect(
                trace.statements.suffix(2) == [
                    #"CREATE TABLE IF NOT EXISTS "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "teamId" TEXT REFERENCES "team" ON DELETE CASCADE, "score" INTEGER NOT NULL CHECK ("score" >= 0) DEFAULT 0, "bonus" DOUBLE CHECK (bonus < 100), "createdAt" DATETIME DEFAULT CURRENT_TIMESTAMP, "motto" TEXT DEFAULT 'it''s fine', "flag" BOOLEAN, UNIQUE ("teamId", "score"), CHECK ("score" < 1000000))"#,
                    #"CREATE INDEX IF NOT EXISTS "player_on_teamId" ON "player"("teamId")"#,
                ])
            try db.execute(sql: "INSERT INTO team (id, name) VALUES ('a', 'A')")
            try db.execute(sql: "INSERT INTO player (teamId) VALUES ('a')")
            #expect(try String.fetchOne(db, sql: "SELECT motto FROM player") == "it's fine")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (teamId, score) VALUES ('a', -1)")
            }
            #expect(error?.message == "CHECK constraint failed: score")
            try db.execute(sql: "DELETE FROM team")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            #expect(try db.indexes(on: "player").map(\.name).contains("player_on_teamId"))
        }
    }

    @Test("Composite primary keys, WITHOUT ROWID, STRICT, foreign keys and belongsTo")
    func tableOptions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            let trace = TracedSQL(db)
            try db.create(table: "membership", options: [.withoutRowID, .strict]) { t in
                t.column("groupId", .integer).notNull()
                t.column("userId", .integer).notNull()
                t.column("note", .any)
                t.primaryKey(["groupId", "userId"])
            }
            #expect(
                trace.last
                    == #"CREATE TABLE "membership" ("groupId" INTEGER NOT NULL, "userId" INTEGER NOT NULL, "note" ANY, PRIMARY KEY ("groupId", "userId")) WITHOUT ROWID, STRICT"#
            )
            #expect(try db.primaryKey("membership").columns == ["groupId", "userId"])
            let strictError = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO membership (groupId, userId) VALUES ('x', 1)")
            }
            #expect(strictError?.message == "cannot store TEXT value in INTEGER column membership.groupId")

            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team", onDelete: .setNull)
                t.column("captainOf", .integer)
                t.foreignKey(["captainOf"], references: "team", columns: ["id"], onDelete: .cascade)
            }
            #expect(
                trace.statements.suffix(2) == [
                    #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "teamId" INTEGER REFERENCES "team"("id") ON DELETE SET NULL, "captainOf" INTEGER, FOREIGN KEY ("captainOf") REFERENCES "team"("id") ON DELETE CASCADE)"#,
                    #"CREATE INDEX "player_on_teamId" ON "player"("teamId")"#,
                ])
            #expect(try db.foreignKeys(on: "player").count == 2)
            let fkError = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (teamId) VALUES (42)")
            }
            #expect(fkError?.message == "FOREIGN KEY constraint failed")

            // Issue #31: belongsTo(_:inTable:) names the column after the relation, the reference after the table.
            try db.create(table: "match") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("home", inTable: "team").notNull()
            }
            #expect(
                trace.statements.suffix(2) == [
                    #"CREATE TABLE "match" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "homeId" INTEGER NOT NULL REFERENCES "team"("id"))"#,
                    #"CREATE INDEX "match_on_homeId" ON "match"("homeId")"#,
                ])
            #expect(ForeignKey([Column("homeId")], to: [Column("id")]) == ForeignKey(["homeId"], to: ["id"]))
        }
    }

    @Test("alter, rename, drop, and indexes")
    func alterations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("legacy", .text)
            }
            let trace = TracedSQL(db)
            try db.alter(table: "player") { t in
                t.add(column: "email", .text).defaults(to: "").notNull()
                t.rename(column: "name", to: "fullName")
                t.drop(column: "legacy")
            }
            #expect(
                trace.statements == [
                    #"ALTER TABLE "player" ADD COLUMN "email" TEXT NOT NULL DEFAULT ''"#,
                    #"ALTER TABLE "player" RENAME COLUMN "name" TO "fullName""#,
                    #"ALTER TABLE "player" DROP COLUMN "legacy""#,
                ])
            #expect(try db.columns(in: "player").map(\.name) == ["id", "fullName", "email"])
            trace.clear()
            try db.create(index: "player_on_email", on: "player", columns: ["email"], unique: true)
            try db.create(
                index: "player_on_fullName", on: "player", columns: ["fullName", "email"],
                options: [.ifNotExists], condition: Column("email") != "")
            try db.drop(index: "player_on_email")
            try db.rename(table: "player", to: "person")
            try db.drop(table: "person")
            #expect(
                trace.statements == [
                    #"CREATE UNIQUE INDEX "player_on_email" ON "player"("email")"#,
                    #"CREATE INDEX IF NOT EXISTS "player_on_fullName" ON "player"("fullName", "email") WHERE "email" <> ''"#,
                    #"DROP INDEX "player_on_email""#,
                    #"ALTER TABLE "player" RENAME TO "person""#,
                    #"DROP TABLE "person""#,
                ])
            #expect(try !db.tableExists("person"))
            let error = #expect(throws: DatabaseError.self) { try db.drop(table: "person") }
            #expect(error?.message == "no such table: person")
        }
    }

    @Test(
        "Column types",
        arguments: [
            (Database.ColumnType.text, "TEXT"), (.integer, "INTEGER"), (.double, "DOUBLE"), (.real, "REAL"),
            (.numeric, "NUMERIC"), (.boolean, "BOOLEAN"), (.blob, "BLOB"), (.date, "DATE"), (.datetime, "DATETIME"),
            (.any, "ANY"), (.jsonText, "JSONTEXT"),
        ])
    func columnTypes(type: Database.ColumnType, sql: String) {
        #expect(type.rawValue == sql)
    }
}
