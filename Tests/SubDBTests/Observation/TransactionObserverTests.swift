import Foundation
import SubDB
import Testing

/// Records what a connection reports, for the tables it observes.
final class EventRecorder: TransactionObserver {
    let tables: Set<String>
    var log: [String] = []
    var failCommit = false

    init(tables: Set<String>) { self.tables = tables }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { tables.contains(eventKind.tableName) }
    func databaseDidChange(with event: DatabaseEvent) {
        if case .update(_, let columns) = event.eventKind {
            log.append("\(event) \(columns.sorted())")
        } else {
            log.append(event.description)
        }
    }
    func databaseWillCommit() throws {
        struct Refused: Error {}
        if failCommit { throw Refused() }
    }
    func databaseDidCommit(_ db: Database) {
        let count = (try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")) ?? -1
        log.append("commit (\(count) players)")
    }
    func databaseDidRollback(_ db: Database) { log.append("rollback") }
}

@Suite struct TransactionObserverTests {
    @Test func eventsCommitsAndRollbacks() throws {
        let database = try ObservedDatabase(.queue)
        let recorder = EventRecorder(tables: ["player"])
        try database.writer.writeWithoutTransaction { db in
            db.add(transactionObserver: recorder)
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 0)")
            try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')")
            try db.inTransaction {
                try db.execute(sql: "UPDATE player SET score = 2 WHERE id = 1")
                try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (2, 'Barbara', 0)")
                return .commit
            }
            try db.inTransaction {
                try db.execute(sql: "DELETE FROM player")
                return .rollback
            }
            try db.execute(sql: "DELETE FROM player")
        }
        #expect(
            recorder.log == [
                "insert player(1)", "commit (1 players)",
                "commit (1 players)",  // the team insert: a commit with no observed event
                "update player(1) [\"score\"]", "insert player(2)", "commit (2 players)",
                "delete player(1)", "delete player(2)", "rollback",
                "delete player(1)", "delete player(2)", "commit (0 players)",
            ])
    }

    /// Issue #31, item 2: the changes of a savepoint that was rolled back are not reported; the others are,
    /// in order, before the commit.
    @Test func rolledBackSavepointsReportNothing() throws {
        let database = try ObservedDatabase(.queue)
        let recorder = EventRecorder(tables: ["player"])
        func insert(_ db: Database, _ id: Int) throws {
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (?, 'p', 0)", arguments: [id])
        }
        var savepointSQL: [String] = []
        try database.writer.writeWithoutTransaction { db in
            db.add(transactionObserver: recorder)
            db.trace { savepointSQL.append($0.description) }
            try db.inTransaction {
                try db.inSavepoint {
                    try insert(db, 1)
                    return .rollback
                }
                try insert(db, 2)
                try db.inSavepoint {
                    try insert(db, 3)
                    try db.inSavepoint {
                        try insert(db, 4)
                        return .rollback
                    }
                    return .commit
                }
                try db.execute(sql: "SAVEPOINT Outer")
                try insert(db, 5)
                try db.execute(sql: "ROLLBACK TO outer")
                try insert(db, 6)
                try db.execute(sql: "RELEASE OUTER")
                return .commit
            }
            try db.inSavepoint {
                try insert(db, 7)
                return .commit
            }
            try db.inSavepoint {
                try insert(db, 8)
                return .rollback
            }
        }
        // The SQL of inSavepoint, as in GRDB (users see it in traces).
        let grdbSavepointSQL: Set = [
            "SAVEPOINT grdb", "ROLLBACK TRANSACTION TO SAVEPOINT grdb", "RELEASE SAVEPOINT grdb",
        ]
        #expect(grdbSavepointSQL.isSubset(of: Set(savepointSQL)))
        #expect(
            recorder.log == [
                "insert player(2)", "insert player(3)", "insert player(6)", "commit (3 players)",
                "insert player(7)", "commit (4 players)",
                "insert player(8)", "rollback",  // outside a transaction, inSavepoint is a transaction
            ])
    }

    @Test func observersOfAPool() throws {
        let database = try ObservedDatabase(.pool)
        let recorder = EventRecorder(tables: ["player"])
        database.writer.add(transactionObserver: recorder)
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 0)")
        }
        database.writer.remove(transactionObserver: recorder)
        try database.writer.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(recorder.log == ["insert player(1)", "commit (1 players)"])
    }

    @Test func willCommitCanRefuseTheCommit() throws {
        let database = try ObservedDatabase(.queue)
        let recorder = EventRecorder(tables: ["player"])
        recorder.failCommit = true
        try database.writer.writeWithoutTransaction { db in db.add(transactionObserver: recorder) }
        #expect(throws: DatabaseError.self) {
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 0)")
            }
        }
        #expect(try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
        #expect(recorder.log == ["insert player(1)", "rollback"])
    }

    @Test func extents() throws {
        let database = try ObservedDatabase(.queue)
        let once = EventRecorder(tables: ["player"])
        var weakOne: EventRecorder? = EventRecorder(tables: ["player"])
        weak let weakReference = weakOne
        try database.writer.writeWithoutTransaction { db in
            db.add(transactionObserver: once, extent: .nextTransaction)
            if let weakOne { db.add(transactionObserver: weakOne) }
        }
        weakOne = nil
        #expect(weakReference == nil)  // the connection does not retain `.observerLifetime` observers
        for id in 1...2 {
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (?, 'x', 0)", arguments: [id])
            }
        }
        #expect(once.log == ["insert player(1)", "commit (1 players)"])
        let removed = EventRecorder(tables: ["player"])
        try database.writer.writeWithoutTransaction { db in
            db.add(transactionObserver: removed, extent: .databaseLifetime)
            db.remove(transactionObserver: removed)
            try db.execute(sql: "DELETE FROM player")
        }
        #expect(removed.log.isEmpty)
    }

    /// The authorizer that turns off the truncate optimization answers `SQLITE_IGNORE` to deletes; the delete a
    /// DROP authorizes must still be allowed, or SQLite skips the DROP without an error.
    @Test(arguments: WriterKind.allCases) func dropStatementsWorkWhileObserved(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let recorder = EventRecorder(tables: ["player", "team"])
        database.writer.add(transactionObserver: recorder)
        try database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 0);
                    INSERT INTO team (id, name) VALUES (1, 'Red');
                    CREATE TABLE parent (id INTEGER PRIMARY KEY);
                    CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id));
                    INSERT INTO parent (id) VALUES (1);
                    CREATE VIEW teamName AS SELECT name FROM team;
                    CREATE VIRTUAL TABLE document USING fts5(content);
                    INSERT INTO document (content) VALUES ('hello');
                    CREATE TEMP TABLE scratch (id INTEGER PRIMARY KEY);
                    CREATE TEMP VIEW scratchView AS SELECT id FROM scratch;
                    CREATE INDEX playerName ON player(name);
                    CREATE TRIGGER playerTrigger AFTER INSERT ON player BEGIN SELECT 1; END;
                    """)
        }
        try database.writer.write { db in
            for sql in [
                "DROP VIEW teamName", "DROP TABLE team", "DROP TABLE document", "DROP TABLE child",
                "DROP TABLE parent", "DROP VIEW scratchView", "DROP TABLE scratch", "DROP INDEX playerName",
                "DROP TRIGGER playerTrigger",
            ] {
                try db.execute(sql: sql)
            }
        }
        let remaining = try database.writer.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'
                    UNION ALL SELECT name FROM sqlite_temp_master ORDER BY name
                    """)
        }
        #expect(remaining == ["player"])
        // Deletes are still reported row by row after the drops.
        recorder.log.removeAll()
        try database.writer.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(recorder.log == ["delete player(1)", "commit (0 players)"])
    }

    @Test func tableRebuildingMigrationWorksWhileObserved() throws {
        let database = try ObservedDatabase(.queue)
        let recorder = EventRecorder(tables: ["player"])
        database.writer.add(transactionObserver: recorder)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("rebuild player") { db in
            try db.execute(
                sql: """
                    CREATE TABLE newPlayer (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    INSERT INTO newPlayer (id, name) SELECT id, name FROM player;
                    DROP TABLE player;
                    ALTER TABLE newPlayer RENAME TO player;
                    """)
        }
        try migrator.migrate(database.writer)
        let columns = try database.writer.read { db in try db.columns(in: "player").map(\.name) }
        #expect(columns == ["id", "name"])
    }
}
