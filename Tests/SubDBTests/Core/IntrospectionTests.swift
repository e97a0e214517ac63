import Foundation
import SubDB
import Testing

@Suite struct IntrospectionTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'unknown' UNIQUE);
                    CREATE TABLE player (
                        uuid TEXT PRIMARY KEY,
                        teamId INTEGER REFERENCES team(id),
                        captainTeamId INTEGER REFERENCES team,
                        score INT);
                    CREATE INDEX player_score ON player(score, teamId);
                    CREATE TABLE pair (a INT, b INT, PRIMARY KEY (b, a)) WITHOUT ROWID;
                    CREATE TABLE plain (x);
                    CREATE TABLE intpk (id INT PRIMARY KEY);
                    CREATE VIEW best AS SELECT * FROM player WHERE score > 100;
                    CREATE TRIGGER player_touch AFTER INSERT ON player BEGIN SELECT 1; END;
                    """)
        }
    }

    @Test func existence() throws {
        try dbQueue.read { (db: Database) throws in
            #expect(try db.tableExists("player"))
            #expect(try db.tableExists("PLAYER"))
            #expect(try !db.tableExists("best"))
            #expect(try db.viewExists("best"))
            #expect(try db.triggerExists("player_touch"))
            #expect(try db.indexExists("player_score"))
            #expect(try !db.tableExists("missing"))
            #expect(try db.schemaVersion() > 0)
        }
    }

    @Test func columns() throws {
        let columns = try dbQueue.read { db in try db.columns(in: "team") }
        #expect(columns.map(\.name) == ["id", "name"])
        #expect(columns.map(\.type) == ["INTEGER", "TEXT"])
        #expect(columns.map(\.isNotNull) == [false, true])
        #expect(columns.map(\.defaultValueSQL) == [nil, "'unknown'"])
        #expect(columns.map(\.primaryKeyIndex) == [1, 0])
        let error = #expect(throws: DatabaseError.self) { try dbQueue.read { db in try db.columns(in: "missing") } }
        #expect(error?.message == "no such table: missing")
    }

    @Test func primaryKeys() throws {
        try dbQueue.read { (db: Database) throws in
            #expect(try db.primaryKey("team").columns == ["id"])
            #expect(try db.primaryKey("team").rowIDColumn == "id")
            #expect(try db.primaryKey("player").columns == ["uuid"])
            #expect(try db.primaryKey("player").rowIDColumn == nil)
            #expect(try db.primaryKey("pair").columns == ["b", "a"])
            #expect(try !db.primaryKey("pair").isRowID)
            #expect(try db.primaryKey("plain").columns == ["rowid"])
            #expect(try db.primaryKey("plain").isRowID)
            #expect(try db.primaryKey("intpk").rowIDColumn == nil)
            // Issue #31: a view has no primary key (no rowid either), as in GRDB.
            let error = #expect(throws: DatabaseError.self) { try db.primaryKey("best") }
            #expect(error?.message == "no such table: best")
        }
    }

    @Test func indexesAndForeignKeys() throws {
        try dbQueue.read { (db: Database) throws in
            let indexes = try db.indexes(on: "player").sorted { $0.name < $1.name }
            #expect(indexes.map(\.name) == ["player_score", "sqlite_autoindex_player_1"])
            #expect(indexes[0].columns == ["score", "teamId"])
            #expect(!indexes[0].isUnique)
            #expect(indexes[1].isUnique && indexes[1].columns == ["uuid"])
            let foreignKeys = try db.foreignKeys(on: "player").sorted { $0.originColumns[0] < $1.originColumns[0] }
            #expect(foreignKeys.map(\.destinationTable) == ["team", "team"])
            #expect(foreignKeys.map(\.originColumns) == [["captainTeamId"], ["teamId"]])
            #expect(foreignKeys.map(\.destinationColumns) == [["id"], ["id"]])
        }
    }

    @Test func foreignKeyCheck() throws {
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "INSERT INTO player (uuid, teamId) VALUES ('a', 42)")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            #expect(try db.foreignKeyViolations().count == 1)
            let error = #expect(throws: DatabaseError.self) { try db.checkForeignKeys() }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error?.message == "FOREIGN KEY constraint violation - from player to team, in rowid 1")
            try db.execute(sql: "DELETE FROM player")
            try db.checkForeignKeys()
        }
    }

    @Test func schemaCacheFollowsSchemaChanges() throws {
        try dbQueue.write { db in
            #expect(try db.columns(in: "plain").count == 1)
            try db.execute(sql: "ALTER TABLE plain ADD COLUMN y")
            #expect(try db.columns(in: "plain").count == 2)
            try db.execute(sql: "DROP TABLE plain; CREATE TABLE plain (id INTEGER PRIMARY KEY)")
            #expect(try db.primaryKey("plain").rowIDColumn == "id")
        }
        // A rolled back change does not leave stale facts.
        try? dbQueue.write { db in
            try db.execute(sql: "DROP TABLE plain; CREATE TABLE plain (a, b, c)")
            #expect(try db.columns(in: "plain").count == 3)
            throw DatabaseError(message: "roll back")
        }
        #expect(try dbQueue.read { db in try db.columns(in: "plain").count } == 1)
    }

    @Test func schemasOfAttachedAndTemporaryDatabases() throws {
        let directory = try TemporaryDirectory()
        let auxPath = directory.path("aux.sqlite")
        try DatabaseQueue(path: auxPath).write { db in
            try db.execute(
                sql: """
                    CREATE TABLE item (code TEXT PRIMARY KEY, label TEXT, ownerId INTEGER REFERENCES owner(id));
                    CREATE TABLE owner (id INTEGER PRIMARY KEY);
                    CREATE INDEX item_label ON item(label);
                    CREATE VIEW itemView AS SELECT code, label FROM item;
                    """)
        }
        struct CodeKeys: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                view.schemaID == .attached("aux") ? ["code"] : nil
            }
        }
        var configuration = Configuration()
        configuration.schemaSource = CodeKeys()
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            try db.execute(sql: "ATTACH DATABASE ? AS aux", arguments: [auxPath])
            try db.execute(sql: "CREATE TEMP TABLE scratch (id INTEGER PRIMARY KEY, note TEXT)")
            #expect(try db.tableExists("item"))  // all schemas, as SQLite resolves names
            #expect(try db.tableExists("item", in: "main") == false)
            #expect(try db.tableExists("item", in: "aux"))
            #expect(try db.tableExists("scratch", in: "temp"))
            #expect(try db.tableExists("scratch", in: "main") == false)
            #expect(try db.viewExists("itemView", in: "aux"))
            #expect(try db.columns(in: "item", in: "aux").map(\.name) == ["code", "label", "ownerId"])
            #expect(try db.primaryKey("item", in: "aux").columns == ["code"])
            #expect(try db.primaryKey("owner", in: "aux").rowIDColumn == "id")
            #expect(try db.primaryKey("scratch", in: "temp").rowIDColumn == "id")
            #expect(try db.indexes(on: "item", in: "aux").map(\.name).contains("item_label"))
            #expect(try db.foreignKeys(on: "item", in: "aux").map(\.destinationTable) == ["owner"])
            // The schema source sees the view's schema.
            #expect(try db.primaryKey("itemView", in: "aux").columns == ["code"])
            #expect(throws: DatabaseError.self) { try db.columns(in: "item", in: "main") }
        }
    }
}
