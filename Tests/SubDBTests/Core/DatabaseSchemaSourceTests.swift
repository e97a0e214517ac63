import Foundation
import SubDB
import Testing

@Suite struct DatabaseSchemaSourceTests {
    private struct ViewSchemaSource: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "playerView" ? ["id"] : nil
        }
    }

    private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
        static let databaseTableName = "playerView"
        var id: String
        var name: String
    }

    private func makeQueue(_ configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id TEXT NOT NULL, name TEXT NOT NULL);
                    INSERT INTO player VALUES ('a', 'Arthur'), ('b', 'Barbara');
                    CREATE VIEW playerView AS SELECT id, name FROM player;
                    """)
        }
        return dbQueue
    }

    @Test func viewsGetThePrimaryKeyOfTheSchemaSource() throws {
        var configuration = Configuration()
        configuration.schemaSource = ViewSchemaSource()
        let dbQueue = try makeQueue(configuration)
        try dbQueue.read { (db: Database) throws in
            #expect(try db.primaryKey("playerView").columns == ["id"])
            #expect(try Player.fetchOne(db, id: "b")?.name == "Barbara")
            #expect(try db.primaryKey("player").columns == ["rowid"])  // tables keep SQLite's answer
        }
    }

    @Test func withoutASchemaSourceAViewHasNoDeclaredKey() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try db.primaryKey("playerView").columns != ["id"])
            // Temporarily, and chained after a source that does not know the view.
            struct Nothing: DatabaseSchemaSource {}
            let columns = try db.withSchemaSource(Nothing().then(ViewSchemaSource())) {
                try db.primaryKey("playerView").columns
            }
            #expect(columns == ["id"])
            #expect(try db.primaryKey("playerView").columns != ["id"])
        }
    }
}
