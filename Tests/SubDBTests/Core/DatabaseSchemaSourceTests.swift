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
            #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }  // a view: no key, as in GRDB
            // Temporarily, and chained after a source that does not know the view.
            struct Nothing: DatabaseSchemaSource {}
            let columns = try db.withSchemaSource(Nothing().then(ViewSchemaSource())) {
                try db.primaryKey("playerView").columns
            }
            #expect(columns == ["id"])
            #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }  // a view: no key, as in GRDB
        }
    }

    /// Records the views it is asked about.
    private final class RecordingSchemaSource: DatabaseSchemaSource, @unchecked Sendable {
        private let lock = NSLock()
        private var askedViews: [DatabaseObjectID] = []

        var views: [DatabaseObjectID] { lock.withLock { askedViews } }

        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            lock.withLock { askedViews.append(view) }
            return ["id"]
        }
    }

    @Test func objectIDsNameTheViewAndItsSchema() throws {
        let source = RecordingSchemaSource()
        var configuration = Configuration()
        configuration.schemaSource = source
        let dbQueue = try makeQueue(configuration)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TEMP VIEW tempView AS SELECT id FROM player")
            _ = try db.primaryKey("playerView")
            _ = try db.primaryKey("tempView")
        }
        #expect(
            source.views == [
                DatabaseObjectID(name: "playerView", schemaID: .main),
                DatabaseObjectID(name: "tempView", schemaID: .temp),
            ])
        #expect(source.views.map(\.schemaID.name) == ["main", "temp"])
        #expect(DatabaseSchemaID.main.schemaTableName == "sqlite_master")
        #expect(DatabaseSchemaID.temp.schemaTableName == "sqlite_temp_master")
        #expect(DatabaseSchemaID.attached("aux").name == "aux")
        #expect(DatabaseSchemaID.attached("my aux").schemaTableName == #""my aux".sqlite_master"#)
        #expect(DatabaseSchemaID.attached("aux") != .main)
    }

    @Test func migrationsRunWithoutTheConfiguredSchemaSource() throws {
        let source = RecordingSchemaSource()
        var configuration = Configuration()
        configuration.schemaSource = source
        let dbQueue = try makeQueue(configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // No schema source: the view has no primary key.
            #expect(db.schemaSource == nil)
            #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }  // a view: no key, as in GRDB
            // withSchemaSource still works inside a migration.
            let columns = try db.withSchemaSource(ViewSchemaSource()) { try db.primaryKey("playerView").columns }
            #expect(columns == ["id"])
        }
        try migrator.migrate(dbQueue)
        #expect(source.views.isEmpty)
        try dbQueue.read { (db: Database) throws in
            #expect(db.schemaSource != nil)
            #expect(try db.primaryKey("playerView").columns == ["id"])
        }
        #expect(source.views.map(\.name) == ["playerView"])
    }
}
