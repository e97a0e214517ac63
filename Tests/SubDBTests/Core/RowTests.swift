import Foundation
import SubDB
import Testing

@Suite struct RowTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, nickname TEXT, score INTEGER);
                    INSERT INTO player VALUES (1, 'Arthur', NULL, 100);
                    INSERT INTO player VALUES (2, 'Barbara', 'Babs', 1000);
                    INSERT INTO player VALUES (3, 'Craig', NULL, NULL);
                    """)
        }
    }

    @Test func subscriptsInferTheType() throws {
        let row = try #require(
            try dbQueue.read { (db: Database) throws in
                try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = ?", arguments: [1])
            })
        let id: Int64 = row["id"]
        let name: String = row[1]
        let nickname: String? = row["nickname"]
        let score: Int = row["SCORE"]
        let hasScore: Bool = row["score"]
        let missing: String? = row["missing"]
        let dbValue: DatabaseValue = row["nickname"]
        let missingValue: DatabaseValue? = row["missing"]
        let nullValue: DatabaseValue? = row["nickname"]
        #expect(id == 1 && name == "Arthur" && nickname == nil && score == 100 && hasScore)
        #expect(missing == nil)
        #expect(dbValue.isNull)
        #expect(missingValue == nil)
        #expect(nullValue == .null)
        #expect(row.count == 4)
        #expect(row.columnNames == ["id", "name", "nickname", "score"])
        #expect(row.hasColumn("NAME"))
        #expect(!row.hasColumn("missing"))
        #expect(row.hasNull(atIndex: 2))
        #expect(row.description == "[id:1 name:\"Arthur\" nickname:NULL score:100]")
    }

    @Test func leftmostOfDuplicateColumns() throws {
        let row = try #require(try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT 1 AS foo, 2 AS foo") })
        #expect(row.columnNames == ["foo", "foo"])
        #expect(row.databaseValues == [1.databaseValue, 2.databaseValue])
        #expect(row["foo"] as Int == 1)
        #expect(row.map { $0.0 + "=" + $0.1.description } == ["foo=1", "foo=2"])
        let dict = Dictionary(row, uniquingKeysWith: { (left, _) in left })
        #expect(dict == ["foo": 1.databaseValue])
        let any = Dictionary(
            row.map { (column, dbValue) in (column, dbValue.storage.value) }, uniquingKeysWith: { (_, right) in right })
        #expect(any["foo"]??.databaseValue == 2.databaseValue)
        let optionalInt: Int?? = try dbQueue.read { db in try Optional.fetchOne(db, sql: "SELECT NULL") }
        #expect(optionalInt == .some(nil))
    }

    @Test func coalesce() throws {
        let names: [String?] = try dbQueue.read { (db: Database) throws in
            try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id").map { $0.coalesce(["nickname", "name"]) }
        }
        #expect(names == ["Arthur", "Babs", "Craig"])
        let row: Row = ["a": nil, "b": nil]
        #expect((row.coalesce(["a", "b"]) as Int?) == nil)
    }

    @Test func dictionaryLiteralsAndInitializers() throws {
        let row: Row = ["name": "foo", "date": nil, "score": 3]
        #expect(row.columnNames == ["name", "date", "score"])
        #expect(row.description == "[name:\"foo\" date:NULL score:3]")
        let fromDictionary = Row(["name": "foo"])
        #expect(fromDictionary["name"] as String == "foo")
        let untyped: [AnyHashable: Any] = ["name": "foo", "n": 1]
        #expect(Row(untyped)?.count == 2)
        let invalid: [AnyHashable: Any] = ["name": Date.self]
        #expect(Row(invalid) == nil)
        #expect(Row().isEmpty)
    }

    @Test func hashableAndEquatable() throws {
        let rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT score FROM player UNION ALL SELECT 100") }
        #expect(Set(rows).count == 3)
        let a: Row = ["a": 1]
        let b: Row = ["a": 1.0]
        let c: Row = ["A": 1]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != c)
        let fetchedSet = try dbQueue.read { db in try Row.fetchSet(db, sql: "SELECT 1 UNION ALL SELECT 1") }
        #expect(fetchedSet.count == 1)
    }

    @Test func throwingDecoding() throws {
        let row: Row = ["id": 1, "name": "Arthur", "nothing": nil]
        #expect(try row.decode(String.self, atIndex: 1) == "Arthur")
        #expect(try row.decode(Int.self, forColumn: "ID") == 1)
        #expect(try row.decode(String?.self, forColumn: "missing") == nil)
        let nullError = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "nothing") }
        #expect(
            nullError?.description
                == "could not decode Int from database value NULL - column: \"nothing\", column index: 2, row: [id:1 name:\"Arthur\" nothing:NULL]"
        )
        let conversion = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: 1) }
        #expect(
            conversion?.description
                == "could not decode Int from database value \"Arthur\" - column index: 1, row: [id:1 name:\"Arthur\" nothing:NULL]"
        )
        let missing = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "score") }
        #expect(missing?.description == "no such column: score, row: [id:1 name:\"Arthur\" nothing:NULL]")
        let range = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: 3) }
        #expect(
            range?.description
                == "row index out of range: 3 (row has 3 columns), row: [id:1 name:\"Arthur\" nothing:NULL]")
    }

    @Test func cursorRowsAreLiveAndCopiesAreNot() throws {
        try dbQueue.read { (db: Database) throws in
            let cursor = try Row.fetchCursor(db, sql: "SELECT id, name FROM player ORDER BY id")
            var live: [Row] = []
            var copies: [Row] = []
            while let row = try cursor.next() {
                live.append(row)
                copies.append(row.copy())
                #expect(row["name"] as String == ["Arthur", "Barbara", "Craig"][live.count - 1])
            }
            #expect(live.count == 3 && live[0] === live[2])
            #expect(copies.map { $0["id"] as Int } == [1, 2, 3])
            let all = try Row.fetchAll(db, sql: "SELECT id, name FROM player ORDER BY id")
            #expect(all == copies)
        }
    }

    @Test func fetchingFromAStatement() throws {
        try dbQueue.read { (db: Database) throws in
            let statement = try db.makeStatement(sql: "SELECT name FROM player WHERE score > ? ORDER BY id")
            #expect(try Row.fetchAll(statement, arguments: [50]).count == 2)
            #expect(try Row.fetchOne(statement, arguments: [500])?["name"] as String? == "Barbara")
            #expect(try String.fetchAll(statement, arguments: [0]) == ["Arthur", "Barbara"])
            #expect(try String.fetchSet(statement, arguments: [0]) == ["Arthur", "Barbara"])
            #expect(try Array(String.fetchCursor(statement, arguments: [500])) == ["Barbara"])
            #expect(try Row.fetchSet(statement, arguments: [2000]).isEmpty)
        }
    }

    @Test func valueQueries() throws {
        try dbQueue.read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT 42 WHERE FALSE") == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT 42") == 42)
            // Optional.fetchOne tells "no row" from "NULL".
            let noRow = try Optional<Int>.fetchOne(db, sql: "SELECT 42 WHERE FALSE")
            let null = try Optional<Int>.fetchOne(db, sql: "SELECT NULL")
            let value = try Optional<Int>.fetchOne(db, sql: "SELECT 42")
            #expect(noRow == .none)
            #expect(null == .some(.none))
            #expect(value == .some(.some(42)))
            let scores = try Optional<Int>.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(scores == [100, 1000, nil])
            #expect(try Optional<Int>.fetchSet(db, sql: "SELECT score FROM player") == [100, 1000, nil])
            #expect(try Int.fetchSet(db, sql: "SELECT id % 2 FROM player") == [0, 1])
            let maxScore = try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player")
            #expect(maxScore == 1000)
            // Slow path (DatabaseValueConvertible only) behaves the same.
            #expect(try DatabaseDateComponents.fetchOne(db, sql: "SELECT NULL") == nil)
            let nulls = try Optional<URL>.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 'https://example.com'")
            #expect(nulls == [nil, URL(string: "https://example.com")])
        }
    }

    @Test func nullInANonOptionalFetchThrows() throws {
        try dbQueue.read { (db: Database) throws in
            let error = #expect(throws: RowDecodingError.self) {
                try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
            }
            #expect(
                error?.description
                    == "could not decode Int from database value NULL - column: \"score\", column index: 0, row: [score:NULL], sql: `SELECT score FROM player ORDER BY id`"
            )
            #expect(throws: RowDecodingError.self) { try URL.fetchAll(db, sql: "SELECT NULL") }
            // The cached statement is usable again.
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id LIMIT 2") == [100, 1000])
        }
    }

    @Test func nestedFetchesWithTheSameSQL() throws {
        try dbQueue.read { (db: Database) throws in
            let sql = "SELECT id FROM player ORDER BY id"
            let outer = try Int.fetchCursor(db, sql: sql)
            var pairs: [[Int]] = []
            while let id = try outer.next() {
                pairs.append([id] + (try Int.fetchAll(db, sql: sql)))
            }
            #expect(pairs == [[1, 1, 2, 3], [2, 1, 2, 3], [3, 1, 2, 3]])
        }
    }

    @Test func unsafeDataWithoutCopy() throws {
        try dbQueue.read { (db: Database) throws in
            let rows = try Row.fetchCursor(db, sql: "SELECT x'010203' AS data, NULL AS absent, x'' AS empty")
            while let row = try rows.next() {
                let count = row.withUnsafeData(name: "data") { $0?.count }
                #expect(count == 3)
                #expect(row.withUnsafeData(name: "absent") { $0 } == nil)
                #expect(row.withUnsafeData(name: "missing") { $0 } == nil)
                #expect(row.withUnsafeData(atIndex: 2) { $0 } == Data())
                #expect(row.copy().withUnsafeData(name: "data") { $0 } == Data([1, 2, 3]))
            }
        }
    }

    @Test func columnSubscripts() throws {
        try dbQueue.read { (db: Database) throws in
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id")
            var names: [String] = []
            while let row = try rows.next() {
                let name: String = row[Column("name")]
                let score: Int? = row[Column("score")]
                let display: String? = row.coalesce([Column("nickname"), Column("name")])
                names.append("\(name) \(score.map(String.init) ?? "-") \(display ?? "")")
                #expect(try row.decode(String.self, forColumn: Column("NAME")) == name)
            }
            #expect(names == ["Arthur 100 Arthur", "Barbara 1000 Babs", "Craig - Craig"])
        }
    }
}
