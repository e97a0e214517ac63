import Foundation
import SubDB
import Testing

/// Small GRDB APIs that GRDB-style code calls, each checked for its behaviour.
@Suite struct GRDBCompatibilityTests {
    @Test func libraryVersionAndCursorSQL() throws {
        #expect(Database.sqliteLibVersionNumber == CInt(SQLiteLibrary.versionNumber))
        #expect(Database.sqliteLibVersionNumber >= 3_035_000)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT 1 AS one")
            #expect(cursor.sql == "SELECT 1 AS one")
        }
    }

    @Test func uncheckedArgumentsBindWhatFits() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let statement = try db.makeStatement(sql: "SELECT ?, ?")
            statement.setUncheckedArguments([1, 2, 3])  // one too many: ignored
            #expect(try Row.fetchOne(statement).map { [$0[0], $0[1]] as [Int] } == [1, 2])
            statement.setUncheckedArguments([7])  // one missing: NULL
            let row = try #require(try Row.fetchOne(statement))
            #expect(row[0] == 7)
            #expect((row[1] as DatabaseValue).isNull)
            #expect(throws: DatabaseError.self) { try statement.setArguments([7]) }
        }
    }

    @Test func unicodeCaseFunctions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            db.add(function: .capitalize)
            db.add(function: .lowercase)
            db.add(function: .uppercase)
            try db.execute(sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('élan vital')")
            let row = try #require(
                try Table("t").select(
                    DatabaseFunction.capitalize(Column("name")), DatabaseFunction.uppercase(Column("name")),
                    DatabaseFunction.lowercase(DatabaseFunction.uppercase(Column("name")))
                ).fetchOne(db))
            #expect(row[0] == "Élan Vital")
            #expect(row[1] == "ÉLAN VITAL")
            #expect(row[2] == "élan vital")
            // SQLite's own UPPER only folds ASCII.
            #expect(try String.fetchOne(db, sql: "SELECT UPPER(name) FROM t") == "éLAN VITAL")
        }
    }

    /// Issue #31: as in GRDB, the query interface's case properties call Swift functions that every connection
    /// knows without `add(function:)`.
    @Test func caseExpressionsUseSwiftFunctionsRegisteredByDefault() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('élan vital')")
            let name = Column("name")
            let request = Table("t").select(
                name.capitalized, name.uppercased, name.lowercased, name.localizedUppercased,
                name.localizedLowercased, name.localizedCapitalized)
            #expect(
                try request.sqlAndArguments(db).sql == """
                    SELECT swiftCapitalizedString("name"), swiftUppercaseString("name"), swiftLowercaseString("name"), \
                    swiftLocalizedUppercaseString("name"), swiftLocalizedLowercaseString("name"), \
                    swiftLocalizedCapitalizedString("name") FROM "t"
                    """)
            let row = try #require(try request.fetchOne(db))
            #expect(
                (0..<6).map { row[$0] as String }
                    == ["Élan Vital", "ÉLAN VITAL", "élan vital", "ÉLAN VITAL", "élan vital", "Élan Vital"])
            #expect(try Table("t").filter(name.uppercased == "ÉLAN VITAL").fetchCount(db) == 1)
        }
    }

    @Test func temporaryVirtualTables() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.create(virtualTable: "scratch", options: [.temporary, .ifNotExists], using: "fts5(body)")
            try db.execute(sql: "INSERT INTO scratch VALUES ('hello')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM temp.scratch") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM main.sqlite_master WHERE name = 'scratch'") == 0)
        }
        // Another connection does not see it.
        let other = try DatabaseQueue(path: path)
        #expect(throws: DatabaseError.self) {
            try other.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scratch") }
        }
    }

    @Test func eventsCanBeCopied() throws {
        final class Keeper: TransactionObserver {
            var events: [DatabaseEvent] = []
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) { events.append(event.copy()) }
            func databaseDidCommit(_ db: Database) {}
            func databaseDidRollback(_ db: Database) {}
        }
        let dbQueue = try DatabaseQueue()
        let keeper = Keeper()
        try dbQueue.writeWithoutTransaction { db in
            db.add(transactionObserver: keeper)
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1); UPDATE t SET a = 2")
        }
        #expect(keeper.events.map(\.description) == ["insert t(1)", "update t(1)"])
    }

    @Test func migratorWithoutDeferredForeignKeyChecks() throws {
        func migrator(checking: Bool) -> DatabaseMigrator {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("parent") { db in
                try db.execute(sql: "CREATE TABLE parent (id INTEGER PRIMARY KEY)")
            }
            if !checking { migrator = migrator.disablingDeferredForeignKeyChecks() }
            migrator.registerMigration("orphan") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE child (parentId INTEGER REFERENCES parent(id));
                        INSERT INTO child VALUES (42);
                        """)
            }
            return migrator
        }
        let checked = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) { try migrator(checking: true).migrate(checked) }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        let unchecked = try DatabaseQueue()
        try migrator(checking: false).migrate(unchecked)
        #expect(try unchecked.read { db in try Int.fetchOne(db, sql: "SELECT parentId FROM child") } == 42)
    }

    @Test func preparedRequests() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)")
            let request = Table("t").filter(Column("a") > 0).order(Column("a"))
            let all = try request.makePreparedRequest(db)
            #expect(all.statement.sql == #"SELECT * FROM "t" WHERE "a" > ? ORDER BY "a""#)
            #expect(try Int.fetchAll(all.statement) == [1, 2])
            #expect(all.adapter == nil)
            let one = try request.makePreparedRequest(db, forSingleResult: true)
            #expect(one.statement.sql.hasSuffix("LIMIT 1"))
        }
    }
}
