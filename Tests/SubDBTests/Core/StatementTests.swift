import Foundation
import SubDB
import Testing

@Suite struct StatementTests {
    private func makePlayers() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(
                sql: """
                    CREATE TABLE player (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        name TEXT NOT NULL,
                        score INT)
                    """)
        }
        return dbQueue
    }

    @Test func executingUpdatesFromTheReadme() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Barbara", 1000])
            try db.execute(sql: "UPDATE player SET score = :score WHERE id = :id", arguments: ["score": 1500, "id": 1])
            try db.execute(
                sql: """
                    INSERT INTO player (name, score) VALUES (?, ?);
                    INSERT INTO player (name, score) VALUES (?, ?);
                    """, arguments: ["Arthur", 750, "Craig", 1000])
            try db.execute(
                literal: """
                    INSERT INTO player (name, score) VALUES (\("Dan"), \(750));
                    INSERT INTO player (name, score) VALUES (\("Ed"), \(1000));
                    """)
            #expect(db.lastInsertedRowID == 5)
            #expect(db.changesCount == 1)
        }
        let rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id") }
        #expect(
            rows.map { $0.description } == [
                "[name:\"Barbara\" score:1500]", "[name:\"Arthur\" score:750]", "[name:\"Craig\" score:1000]",
                "[name:\"Dan\" score:750]", "[name:\"Ed\" score:1000]",
            ])
    }

    @Test func namedParametersWithEveryPrefix() throws {
        let dbQueue = try DatabaseQueue()
        let row = try dbQueue.read { (db: Database) throws in
            try Row.fetchOne(
                db, sql: "SELECT :a AS a, $b AS b, @c AS c, :a AS d", arguments: ["a": 1, "b": "two", "c": nil])
        }
        #expect(row?.description == "[a:1 b:\"two\" c:NULL d:1]")
    }

    @Test func positionalValuesFillNamedParameters() throws {
        let dbQueue = try DatabaseQueue()
        let row = try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT :x, :y", arguments: [1, 2]) }
        #expect(row?.databaseValues == [1.databaseValue, 2.databaseValue])
    }

    @Test func sqlInterpolationBindsValues() throws {
        let test = try TestDatabase()
        try test.dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (name TEXT)")
            let name = "Robert'); DROP TABLE t;--"
            try db.execute(literal: "INSERT INTO t (name) VALUES (\(name))")
            let order: SQL = "ORDER BY \(sql: "name DESC")"
            let literal: SQL = "SELECT name FROM t \(order)"
            let (sql, arguments) = literal.build()
            #expect(sql == "SELECT name FROM t ORDER BY name DESC")
            #expect(arguments.isEmpty)
            #expect(try String.fetchAll(db, sql: sql) == [name])
        }
        #expect(test.recorder.sql.contains("INSERT INTO t (name) VALUES ('Robert''); DROP TABLE t;--')"))
    }

    @Test func preparedStatementsAreReusable() throws {
        let dbQueue = try makePlayers()
        try dbQueue.write { (db: Database) throws in
            let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            #expect(!statement.isReadonly)
            for (name, score) in [("Arthur", 750), ("Barbara", 1000)] {
                try statement.execute(arguments: [name, score])
            }
            try statement.setArguments(["Craig", 5])
            try statement.execute()
            statement.arguments = ["Dan", 6]
            #expect(statement.arguments == ["Dan", 6])
            try statement.execute()
            let select = try db.makeStatement(sql: "SELECT id, name AS playerName FROM player WHERE score > ?")
            #expect(select.isReadonly)
            #expect(select.columnNames == ["id", "playerName"])
            #expect(select.columnCount == 2)
            #expect(try Int.fetchAll(select, arguments: [800]) == [2])
            #expect(try Int.fetchAll(select, arguments: [0]) == [1, 2, 3, 4])
            #expect(db.totalChangesCount >= 3)
        }
    }

    @Test func makeStatementRejectsSeveralStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELECT 1; SELECT 2") }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(
                error?.message
                    == "multiple statements found: use execute(sql:) or one statement per makeStatement(sql:)")
        }
    }

    @Test(arguments: [
        (
            sql: "SELECT ?, ?", arguments: ["a"] as StatementArguments,
            message: "wrong number of statement arguments: 1 (expected 2)"
        ),
        (
            sql: "SELECT ?", arguments: ["a", "b", "c"] as StatementArguments,
            message: "wrong number of statement arguments: 3 (expected 1)"
        ),
        (
            sql: "SELECT :name, :score", arguments: ["name": "Arthur"] as StatementArguments,
            message: "missing statement argument(s): score"
        ),
        (
            sql: "SELECT 1", arguments: [1] as StatementArguments,
            message: "wrong number of statement arguments: 1 (expected 0)"
        ),
    ])
    func wrongArgumentsThrow(sql: String, arguments: StatementArguments, message: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: sql, arguments: arguments) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == message)
            #expect(error?.description == "SQLite error 21: \(message) - while executing `\(sql)`")
            // The statement stays usable with correct arguments.
            _ = try? Row.fetchAll(db, sql: sql, arguments: StatementArguments(Array(repeating: 0, count: 0)))
        }
    }

    @Test func wrongArgumentCountAcrossSeveralStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1, 2, 3])
            }
            #expect(error?.message == "wrong number of statement arguments: 3 (expected 2)")
        }
    }

    @Test func commentsAndBlankStatementsAreSkipped() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(
                sql: """
                    -- a comment
                    CREATE TABLE t (a); ;
                    /* another */ INSERT INTO t VALUES (1);
                    """)
            #expect(try Int.fetchOne(db, sql: "SELECT a FROM t") == 1)
        }
    }

    @Test func emptyStringsAndBlobsAreNotNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let row = try #require(
                try Row.fetchOne(db, sql: "SELECT ?, ?, typeof(?), typeof(?)", arguments: ["", Data(), "", Data()]))
            #expect(row.description == "[?:\"\" ?:Data(0 bytes) typeof(?):\"text\" typeof(?):\"blob\"]")
        }
    }

    @Test func iteratingStatementsOfAnSQLString() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let statements = try db.allStatements(
                sql: "SELECT ?; -- comment\n SELECT :a || ?;", arguments: [1, "x", "y"])
            var results: [String] = []
            while let statement = try statements.next() {
                results.append(try String.fetchOne(statement) ?? "nil")
            }
            #expect(results == ["1", "xy"])
            let tooMany = try db.allStatements(sql: "SELECT ?", arguments: [1, 2])
            _ = try tooMany.next()
            let error = #expect(throws: DatabaseError.self) { try tooMany.next() }
            #expect(error?.message == "wrong number of statement arguments: 2 (expected 1)")
            let broken = try db.allStatements(sql: "SELECT 1; SELEC 2")
            _ = try broken.next()
            let syntax = #expect(throws: DatabaseError.self) { try broken.next() }
            #expect(syntax?.message == "near \"SELEC\": syntax error")
            #expect(syntax?.sql == "SELEC 2")
        }
    }

    @Test func makeCursorStepsTheStatement() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2), (3)")
            let statement = try db.makeStatement(sql: "SELECT a FROM t WHERE a >= ? ORDER BY a")
            let cursor = try statement.makeCursor(arguments: [2])
            var steps = 0
            while try cursor.next() != nil { steps += 1 }
            #expect(steps == 2)
            #expect(try cursor.next() == nil)  // done stays done
            // An update steps once and writes.
            let insert = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            #expect(try insert.makeCursor(arguments: [4]).next() == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 4)
            // Errors come out of next(), with the statement reset.
            let failing = try db.makeStatement(sql: "INSERT INTO t VALUES (abs(-9223372036854775807 - 1))")
            #expect(throws: DatabaseError.self) { try failing.makeCursor().next() }
            #expect(throws: DatabaseError.self) { try statement.makeCursor(arguments: [1, 2]) }
        }
    }
}
