import Foundation
import SubDB
import Testing

@Suite("Keys and column enums")
struct KeysAndColumnsTests {
    /// GRDB 6 style columns: an enum of ColumnExpression cases.
    struct Citizenship: Codable, FetchableRecord, PersistableRecord {
        var countryCode: String
        var personId: Int64
        var since: Int

        enum Columns: String, ColumnExpression {
            case countryCode, personId, since
        }
    }

    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "citizenship") { t in
                t.column("countryCode", .text).notNull()
                t.column("personId", .integer).notNull()
                t.column("since", .integer)
                t.primaryKey(["countryCode", "personId"])
            }
            try Citizenship(countryCode: "FR", personId: 1, since: 1990).insert(db)
            try Citizenship(countryCode: "US", personId: 1, since: 2001).insert(db)
        }
        return dbQueue
    }

    @Test("Composite primary keys: fetch, update and delete by key dictionaries")
    func compositeKeys() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.write { (db: Database) throws in
            let trace = TracedSQL(db)
            let us = try Citizenship.fetchOne(db, key: ["countryCode": "US", "personId": 1])
            #expect(us?.since == 2001)
            #expect(trace.last == #"SELECT * FROM "citizenship" WHERE ("countryCode" = ?) AND ("personId" = ?)"#)
            var changed = try #require(us)
            changed.since = 2002
            try changed.update(db)
            #expect(trace.last == #"UPDATE "citizenship" SET "since"=? WHERE "countryCode"=? AND "personId"=?"#)
            #expect(try Citizenship.deleteOne(db, key: ["countryCode": "FR", "personId": 1]))
            let error = #expect(throws: RecordError.self) {
                try Citizenship.find(db, key: ["countryCode": "DE", "personId": 1])
            }
            #expect(error?.description == #"Key not found in table citizenship: [countryCode:"DE" personId:1]"#)
            let wrongKey = #expect(throws: DatabaseError.self) { try Citizenship.fetchOne(db, key: 1) }
            #expect(wrongKey?.message == "invalid key for table citizenship: expected 2 values, got 1")
        }
    }

    @Test("Enum columns work in expressions and in closures")
    func enumColumns() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Citizenship.filter(Citizenship.Columns.since > 2000).fetchCount(db) == 1)
            #expect(try Citizenship.filter { $0.countryCode == "FR" }.fetchOne(db)?.since == 1990)
            #expect(try Citizenship.order { $0.since.desc }.fetchAll(db).map(\.countryCode) == ["US", "FR"])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM citizenship ORDER BY since"))
            #expect(row[Citizenship.Columns.countryCode] as String == "FR")
        }
    }

    @Test("Missing tables and quoted identifiers")
    func hostileNames() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) { try Player.fetchOne(db, key: 1) }
            #expect(error?.message == "no such table: player")
            try db.create(table: #"we"ird table"#) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column(#"a "quoted" column"#, .text)
            }
            #expect(try db.columns(in: #"we"ird table"#).map(\.name) == ["id", #"a "quoted" column"#])
            let request = Table(#"we"ird table"#).filter(Column(#"a "quoted" column"#) == "x")
            #expect(try request.fetchCount(db) == 0)
            #expect(#"we"ird"#.quotedDatabaseIdentifier == #""we""ird""#)
        }
    }
}
