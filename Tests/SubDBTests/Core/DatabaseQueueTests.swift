import Foundation
import SubDB
import Testing

@Suite struct DatabaseQueueTests {
    @Test func readmeExample() throws {
        let test = try TestDatabase()
        let dbQueue = test.dbQueue
        try dbQueue.write { (db: Database) throws in
            try db.execute(
                sql: """
                    CREATE TABLE player (
                      id TEXT PRIMARY KEY,
                      name TEXT NOT NULL,
                      score INT NOT NULL)
                    """)
            try db.execute(
                sql: """
                    INSERT INTO player (id, name, score)
                    VALUES (?, ?, ?)
                    """, arguments: ["1", "Arthur", 100])
            let id = "2"
            let name = "O'Brien"
            let score = 1000
            try db.execute(
                literal: """
                    INSERT INTO player (id, name, score)
                    VALUES (\(id), \(name), \(score))
                    """)
        }
        try dbQueue.read { (db: Database) throws in
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id")
            var names: [String] = []
            while let row = try rows.next() {
                let id: String = row["id"]
                let name: String = row["name"]
                let score: Int = row["score"]
                names.append("\(id) \(name) \(score)")
            }
            #expect(names == ["1 Arthur 100", "2 O'Brien 1000"])
            let playerCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
            #expect(playerCount == 2)
            let playerNames = try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
            #expect(playerNames == ["Arthur", "O'Brien"])
        }
        #expect(test.recorder.sql.contains("INSERT INTO player (id, name, score)\nVALUES ('2', 'O''Brien', 1000)"))
    }

    @Test func inDatabaseRethrowsOnlyTheClosureErrors() throws {
        let test = try TestDatabase()
        // A closure that does not throw needs no `try`, as with GRDB's inDatabase.
        let answer = test.dbQueue.inDatabase { db in db.isInsideTransaction ? 0 : 42 }
        #expect(answer == 42)
        struct Failure: Error {}
        #expect(throws: Failure.self) { try test.dbQueue.inDatabase { _ in throw Failure() } }
        try test.dbQueue.inDatabase { db in try db.execute(sql: "CREATE TABLE t (a)") }
        #expect(try test.dbQueue.read { db in try db.tableExists("t") })
    }
}
