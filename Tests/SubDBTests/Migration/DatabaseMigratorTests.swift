import Dispatch
import Foundation
import SubDB
import Synchronization
import Testing

@Suite struct DatabaseMigratorTests {
    private func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1_initial") { db in
            try db.execute(sql: "CREATE TABLE tracks (id TEXT PRIMARY KEY, title TEXT NOT NULL)")
        }
        migrator.registerMigration("v2_add_genre") { db in
            try db.execute(sql: "ALTER TABLE tracks ADD COLUMN genre TEXT")
        }
        migrator.registerMigration("v3_add_indexes") { db in
            try db.execute(sql: "CREATE INDEX idx_tracks_genre ON tracks(genre)")
        }
        return migrator
    }

    @Test func migratesOnceInOrder() throws {
        let test = try TestDatabase()
        let migrator = makeMigrator()
        try test.dbQueue.read { (db: Database) throws in
            #expect(try migrator.appliedMigrations(db) == [])
            #expect(try !migrator.hasCompletedMigrations(db))
        }
        try migrator.migrate(test.dbQueue, upTo: "v2_add_genre")
        try test.dbQueue.read { (db: Database) throws in
            #expect(try migrator.appliedMigrations(db) == ["v1_initial", "v2_add_genre"])
            #expect(try migrator.completedMigrations(db) == ["v1_initial", "v2_add_genre"])
            #expect(try !migrator.hasCompletedMigrations(db))
            #expect(try db.columns(in: "tracks").map(\.name) == ["id", "title", "genre"])
        }
        try migrator.migrate(test.dbQueue)
        test.recorder.clear()
        try migrator.migrate(test.dbQueue)  // nothing left to do
        #expect(!test.recorder.sql.contains { $0.hasPrefix("CREATE") || $0.hasPrefix("ALTER") })
        try test.dbQueue.read { (db: Database) throws in
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try migrator.appliedIdentifiers(db) == ["v1_initial", "v2_add_genre", "v3_add_indexes"])
            #expect(
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
                    == ["v1_initial", "v2_add_genre", "v3_add_indexes"])
            #expect(try !migrator.hasBeenSuperseded(db))
        }
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(test.dbQueue, upTo: "v1_initial") }
        #expect(error?.message == "database is already migrated beyond migration \"v1_initial\"")
        let unknown = #expect(throws: DatabaseError.self) { try migrator.migrate(test.dbQueue, upTo: "v9") }
        #expect(unknown?.message == "undefined migration: \"v9\"")
    }

    @Test func eachMigrationRunsInItsOwnTransaction() throws {
        let test = try TestDatabase()
        var migrator = makeMigrator()
        migrator.registerMigration("v4_broken") { db in
            try db.execute(sql: "CREATE TABLE extra (a)")
            try db.execute(sql: "INSERT INTO nowhere VALUES (1)")
        }
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(test.dbQueue) }
        #expect(error?.message == "no such table: nowhere")
        try test.dbQueue.read { (db: Database) throws in
            #expect(try migrator.appliedMigrations(db) == ["v1_initial", "v2_add_genre", "v3_add_indexes"])
            #expect(try !db.tableExists("extra"))
        }
        #expect(test.recorder.sql.filter { $0 == "BEGIN IMMEDIATE TRANSACTION" }.count == 4)
    }

    @Test func foreignKeysAreCheckedBeforeCommit() throws {
        let test = try TestDatabase()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE team (id INTEGER PRIMARY KEY);
                    CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id));
                    """)
        }
        migrator.registerMigration("v2") { db in
            // Temporarily inconsistent, fixed before the end of the migration: allowed.
            try db.execute(sql: "INSERT INTO player (teamId) VALUES (1)")
            try db.execute(sql: "INSERT INTO team (id) VALUES (1)")
        }
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "INSERT INTO player (teamId) VALUES (2)")
        }
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(test.dbQueue) }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(
            error?.message == "FOREIGN KEY constraint violation - from player to team, in rowid 2 (migration \"v3\")")
        try test.dbQueue.read { (db: Database) throws in
            #expect(try migrator.appliedMigrations(db) == ["v1", "v2"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test func immediateForeignKeyChecks() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", foreignKeyChecks: .immediate) { db in
            try db.execute(
                sql: """
                    CREATE TABLE team (id INTEGER PRIMARY KEY);
                    CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id));
                    INSERT INTO player (teamId) VALUES (1);
                    """)
        }
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
        #expect(error?.message == "FOREIGN KEY constraint failed")
    }

    @Test func migratesAPool() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("pool.sqlite"))
        try makeMigrator().migrate(dbPool)
        #expect(try dbPool.read { db in try makeMigrator().hasCompletedMigrations(db) })
    }

    @Test func supersededDatabase() throws {
        let dbQueue = try DatabaseQueue()
        try makeMigrator().migrate(dbQueue)
        var older = DatabaseMigrator()
        older.registerMigration("v1_initial") { _ in }
        #expect(try dbQueue.read { db in try older.hasBeenSuperseded(db) })
        #expect(try dbQueue.read { db in try older.appliedMigrations(db) } == ["v1_initial"])
    }

    @Test func eraseDatabaseOnSchemaChange() throws {
        let test = try TestDatabase()
        var migrator = DatabaseMigrator()
        migrator.eraseDatabaseOnSchemaChange = true
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
        }
        try migrator.migrate(test.dbQueue)
        try test.dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }

        // Same migrations: the data stays.
        try migrator.migrate(test.dbQueue)
        #expect(try test.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)

        // The migration changed during development: the database is erased and migrated again.
        var changed = DatabaseMigrator()
        changed.eraseDatabaseOnSchemaChange = true
        changed.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT)")
        }
        try changed.migrate(test.dbQueue)
        try test.dbQueue.read { (db: Database) throws in
            #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "score"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            #expect(try changed.appliedMigrations(db) == ["v1"])
        }
    }
}

/// Migrators in two connections (two processes) on one new file: each migration runs once, none fails with
/// "table already exists" (each re-checks inside its write transaction).
@Suite struct ConcurrentMigrationTests {
    @Test(arguments: 0..<4)
    func twoWritersMigrateOneFileOnce(round: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db-\(round).sqlite")
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY)") }
        migrator.registerMigration("v2") { db in try db.execute(sql: "CREATE TABLE b (id INTEGER PRIMARY KEY)") }
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        let shared = migrator
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                do {
                    let migrator = shared
                    var configuration = Configuration()
                    configuration.busyMode = .timeout(10)
                    try migrator.migrate(try DatabaseQueue(path: path, configuration: configuration))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(failures.withLock { $0 } == [])
        let applied = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
        }
        #expect(applied == ["v1", "v2"])
    }
}
