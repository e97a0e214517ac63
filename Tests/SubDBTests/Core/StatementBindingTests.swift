import CSQLite
import Foundation
import SubDB
import Testing

private enum Grape: String, DatabaseValueConvertible {
    case merlot
}

/// A custom type that keeps the default binding (through `databaseValue`).
private struct Celsius: DatabaseValueConvertible {
    var degrees: Double
    var databaseValue: DatabaseValue { degrees.databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Celsius? {
        Double.fromDatabaseValue(dbValue).map(Celsius.init)
    }
}

/// `statement.execute(arguments: [...])` binds each value straight from the value (``StatementBinding``):
/// every type must store exactly what its `databaseValue` stores, with the same checks and errors as the
/// ``StatementArguments`` path.
@Suite struct StatementBindingTests {
    /// What SQLite stored for one value: its type, `quote()` and `hex()`.
    private static let storedSQL = "SELECT typeof(v) || ' ' || quote(v) || ' ' || hex(v) FROM t ORDER BY rowid"

    private static var values: [(value: any DatabaseValueConvertible, stored: String)] {
        [
            (42, "integer 42 3432"),
            (Int64.min, "integer -9223372036854775808 2D39323233333732303336383534373735383038"),
            (Int64.max, "integer 9223372036854775807 39323233333732303336383534373735383037"),
            (Int32(-7), "integer -7 2D37"),
            (Int8(-128), "integer -128 2D313238"),
            (UInt8(255), "integer 255 323535"),
            (UInt64.max, "real 1.84467440737095516156e+19 312E3834343637343430373337303936652B3139"),
            (true, "integer 1 31"),
            (false, "integer 0 30"),
            (1.5, "real 1.5 312E35"),
            (Float(0.25), "real 0.25 302E3235"),
            (Double.infinity, "real Inf 496E66"),
            (Double.nan, "null NULL "),
            ("", "text '' "),
            ("O'Brien 日本", "text 'O''Brien 日本' 4F27427269656E20E697A5E69CAC"),
            ("a\u{0}b", "text 'a' 610062"),
            (String("--tail--".dropFirst(2).dropLast(2)), "text 'tail' 7461696C"),
            (Data(), "blob X'' "),
            (Data([0, 1, 255]), "blob X'0001FF' 0001FF"),
            (Int?.none, "null NULL "),
            (String?.some("x"), "text 'x' 78"),
            (DatabaseValue.null, "null NULL "),
            (DatabaseValue(storage: .int64(3)), "integer 3 33"),
            (Grape.merlot, "text 'merlot' 6D65726C6F74"),
            (Celsius(degrees: -40), "real -40.0 2D34302E30"),
            (
                Date(timeIntervalSince1970: 0),
                "text '1970-01-01 00:00:00.000' 313937302D30312D30312030303A30303A30302E303030"
            ),
            (Decimal(string: "1.25") ?? 0, "text '1.25' 312E3235"),
            (
                UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),
                "blob X'000102030405060708090A0B0C0D0E0F' 000102030405060708090A0B0C0D0E0F"
            ),
        ]
    }

    @Test func everyValueTypeBindsWhatItsDatabaseValueStores() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (v)")
            let statement = try db.makeStatement(sql: "INSERT INTO t (v) VALUES (?)")
            for (value, _) in Self.values {
                try statement.execute(arguments: [value])
                #expect(statement.arguments.description == StatementArguments([value.databaseValue]).description)
            }
            let direct = try String.fetchAll(db, sql: Self.storedSQL)
            #expect(direct == Self.values.map(\.stored))

            // The StatementArguments path stores the same.
            try db.execute(sql: "DELETE FROM t")
            for (value, _) in Self.values {
                try statement.execute(arguments: StatementArguments([value.databaseValue]))
            }
            #expect(try String.fetchAll(db, sql: Self.storedSQL) == direct)
        }
    }

    @Test func severalValuesOfMixedTypes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (a, b, c, d, e)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)")
            let name: String? = nil
            try statement.execute(arguments: [Int64(1), "Arthur", name, 2.5, Data([7])])
            #expect(statement.arguments == [1, "Arthur", nil, 2.5, Data([7])])
            // execute() without arguments runs again with the values last bound.
            try statement.execute()
            let rows = try String.fetchAll(db, sql: "SELECT quote(a)||quote(b)||quote(c)||quote(d)||quote(e) FROM t")
            #expect(rows == ["1'Arthur'NULL2.5X'07'", "1'Arthur'NULL2.5X'07'"])
        }
    }

    @Test func positionalValuesFillNamedParameters() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (:a, $b)")
            try statement.execute(arguments: ["x", 2])
            #expect(try String.fetchAll(db, sql: "SELECT quote(a)||quote(b) FROM t") == ["'x'2"])
        }
    }

    @Test(arguments: [
        (sql: "INSERT INTO t VALUES (?, ?)", count: 1, message: "wrong number of statement arguments: 1 (expected 2)"),
        (sql: "INSERT INTO t VALUES (?, 0)", count: 3, message: "wrong number of statement arguments: 3 (expected 1)"),
        (sql: "INSERT INTO t VALUES (0, 0)", count: 1, message: "wrong number of statement arguments: 1 (expected 0)"),
        (sql: "INSERT INTO t VALUES (:a, :b)", count: 1, message: "missing statement argument(s): b"),
    ])
    func wrongArgumentCountsThrow(sql: String, count: Int, message: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let statement = try db.makeStatement(sql: sql)
            let values: [any DatabaseValueConvertible] = Array(repeating: 1, count: count)
            let error = #expect(throws: DatabaseError.self) { try statement.execute(arguments: values) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.description == "SQLite error 21: \(message) - while executing `\(sql)`")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
    }

    @Test func aFailedStepReportsTheBoundValues() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true  // errors carry arguments only when public, as in GRDB
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT NOT NULL UNIQUE, score INT)")
            let statement = try db.makeStatement(sql: "INSERT INTO player VALUES (?, ?)")
            try statement.execute(arguments: ["Arthur", 1])
            let duplicate = #expect(throws: DatabaseError.self) { try statement.execute(arguments: ["Arthur", 2]) }
            #expect(duplicate?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
            #expect(
                duplicate?.description
                    == "SQLite error 19: UNIQUE constraint failed: player.name - while executing "
                    + #"`INSERT INTO player VALUES (?, ?)` with arguments ["Arthur", 2]"#)
            #expect(duplicate?.arguments == ["Arthur", 2])
            let name: String? = nil
            let missing = #expect(throws: DatabaseError.self) { try statement.execute(arguments: [name, 3]) }
            #expect(missing?.message == "NOT NULL constraint failed: player.name")
            #expect(missing?.arguments == [nil, 3])
            // The statement stays usable.
            try statement.execute(arguments: ["Barbara", 4])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 2)
        }
    }

    @Test func textAndBlobsBeyondTheLengthLimitThrow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (v)")
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 100)
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            let hostile: [any DatabaseValueConvertible] = [String(repeating: "x", count: 101), Data(count: 101)]
            for value in hostile {
                let error = #expect(throws: DatabaseError.self) { try statement.execute(arguments: [value]) }
                #expect(
                    error?.description == "SQLite error 18: string or blob too big - while executing "
                        + "`INSERT INTO t VALUES (?)`")
            }
            try statement.execute(arguments: ["12345678"])
            #expect(try String.fetchAll(db, sql: "SELECT v FROM t") == ["12345678"])
        }
    }

    @Test func traceShowsTheBoundValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)")
            var traced: [String] = []
            db.trace { traced.append($0.expandedDescription) }
            try statement.execute(arguments: ["O'Brien", 3])
            db.trace()
            #expect(traced == ["INSERT INTO t VALUES ('O''Brien', 3)"])
        }
    }

    @Test func observersSeeChangesOfStatementsCompiledBeforeThem() throws {
        let database = try ObservedDatabase(.queue)
        let recorder = EventRecorder(tables: ["player"])
        try database.writer.writeWithoutTransaction { db in
            let statement = try db.makeStatement(sql: "INSERT INTO player (id, name, score) VALUES (?, ?, ?)")
            try statement.execute(arguments: [1, "Arthur", 0])
            db.add(transactionObserver: recorder)
            try statement.execute(arguments: [2, "Barbara", 0])
            db.remove(transactionObserver: recorder)
            try statement.execute(arguments: [3, "Craig", 0])
        }
        #expect(recorder.log == ["insert player(2)", "commit (2 players)"])
    }
}
