import Foundation
import SubDB
import Testing

private enum Grape: String, DatabaseValueConvertible {
    case chardonnay, merlot, riesling
}

private enum Color: Int, DatabaseValueConvertible {
    case red, white, rose
}

@Suite struct DatabaseValueTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
    }

    /// Stores the value through a statement argument and reads it back from a query, both ways.
    private func roundTrip<T: DatabaseValueConvertible>(_ value: T) throws -> (slow: T?, fast: DatabaseValue) {
        try dbQueue.read { (db: Database) throws in
            let dbValue = try DatabaseValue.fetchOne(db, sql: "SELECT ?", arguments: [value]) ?? .null
            return (T.fromDatabaseValue(dbValue), dbValue)
        }
    }

    @Test func storageAndIsNull() {
        #expect(DatabaseValue.null.isNull)
        #expect(1.databaseValue.storage == .int64(1))
        #expect("a".databaseValue.storage == .string("a"))
        #expect(1.5.databaseValue.storage == .double(1.5))
        #expect(Data([1]).databaseValue.storage == .blob(Data([1])))
        #expect(true.databaseValue.storage == .int64(1))
        #expect((nil as Int?).databaseValue.isNull)
        #expect(DatabaseValue.null.storage.value == nil)
        #expect(42.databaseValue.storage.value as? Int64 == 42)
    }

    @Test func sqliteComparisonSemantics() {
        #expect(1.databaseValue == 1.0.databaseValue)
        #expect(1.databaseValue.hashValue == 1.0.databaseValue.hashValue)
        #expect(1.databaseValue != 1.5.databaseValue)
        #expect("1".databaseValue != 1.databaseValue)
        #expect("a".databaseValue != Data("a".utf8).databaseValue)
        #expect(Set([1.databaseValue, 1.0.databaseValue, DatabaseValue.null]).count == 2)
    }

    @Test func integerExtremes() throws {
        #expect(try roundTrip(Int64.min).slow == Int64.min)
        #expect(try roundTrip(Int64.max).slow == Int64.max)
        #expect(try roundTrip(Int.min).slow == Int.min)
        #expect(try roundTrip(UInt64(Int64.max)).slow == UInt64(Int64.max))
        // UInt64 beyond Int64.max is stored as REAL and does not convert back exactly.
        #expect(try roundTrip(UInt64.max).slow == nil)
        try dbQueue.read { (db: Database) throws in
            #expect(throws: RowDecodingError.self) { try UInt64.fetchOne(db, sql: "SELECT -1") }
            #expect(UInt64.fromDatabaseValue((-1).databaseValue) == nil)
            #expect(try UInt8.fetchOne(db, sql: "SELECT 255") == 255)
            #expect(UInt8.fromDatabaseValue(256.databaseValue) == nil)
            #expect(Int8.fromDatabaseValue((-129).databaseValue) == nil)
            #expect(Int32.fromDatabaseValue(Int64(Int32.max).databaseValue) == Int32.max)
            #expect(Int32.fromDatabaseValue((Int64(Int32.max) + 1).databaseValue) == nil)
            // Doubles convert by truncation toward zero when in range, as GRDB (and SQLite's CAST) do.
            #expect(Int.fromDatabaseValue(1.5.databaseValue) == 1)
            #expect(Int.fromDatabaseValue((-1.5).databaseValue) == -1)
            #expect(Int.fromDatabaseValue(2.0.databaseValue) == 2)
            #expect(Int.fromDatabaseValue("1".databaseValue) == nil)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 256, 1e30, '20 small cigars'"))
            #expect(throws: RowDecodingError.self) { try row.decode(UInt8.self, atIndex: 0) }
            #expect(throws: RowDecodingError.self) { try row.decode(Int64.self, atIndex: 1) }
            #expect(try Int.fetchOne(db, sql: "SELECT '20 small cigars'") == 20)
        }
    }

    @Test func boolAndFloatingPoint() throws {
        try dbQueue.read { (db: Database) throws in
            let bools = try Bool.fetchAll(db, sql: "SELECT 0 UNION ALL SELECT 2 UNION ALL SELECT 0.5")
            #expect(bools == [false, true, true])
            #expect(Bool.fromDatabaseValue("true".databaseValue) == nil)
            let double = try Double.fetchOne(db, sql: "SELECT 1")
            #expect(double == 1.0)
            let float = try Float.fetchOne(db, sql: "SELECT 0.5")
            #expect(float == 0.5)
            #expect(Double.fromDatabaseValue("1.5".databaseValue) == nil)
        }
        #expect(try roundTrip(Double.pi).slow == Double.pi)
        #expect(try roundTrip(-0.25 as Float).slow == -0.25)
    }

    @Test func stringsAndData() throws {
        #expect(try roundTrip("中文字幕 🎬").slow == "中文字幕 🎬")
        #expect(try roundTrip("").slow == "")
        #expect(try roundTrip(Data([0, 1, 255])).slow == Data([0, 1, 255]))
        #expect(try roundTrip(Data()).slow == Data())
        #expect(String.fromDatabaseValue(1.databaseValue) == nil)
        #expect(Data.fromDatabaseValue("abc".databaseValue) == Data("abc".utf8))
    }

    @Test func datesAreStoredAsUTCText() throws {
        let date = Date(timeIntervalSince1970: 1_441_995_255.123)
        #expect(date.databaseValue == "2015-09-11 18:14:15.123".databaseValue)
        #expect(Date(timeIntervalSince1970: 0).databaseValue == "1970-01-01 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: -1.5).databaseValue == "1969-12-31 23:59:58.500".databaseValue)
        let back = try #require(try roundTrip(date).slow)
        #expect(abs(back.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.0005)
        try dbQueue.read { (db: Database) throws in
            // Comparable with SQLite's own functions.
            #expect(try Bool.fetchOne(db, sql: "SELECT ? < CURRENT_TIMESTAMP", arguments: [date]) == true)
            #expect(try String.fetchOne(db, sql: "SELECT datetime(?)", arguments: [date]) == "2015-09-11 18:14:15")
        }
    }

    @Test(arguments: [
        ("2015-09-11", 1_441_929_600.0),
        ("2015-09-11 18:14", 1_441_995_240.0),
        ("2015-09-11 18:14:15", 1_441_995_255.0),
        ("2015-09-11 18:14:15.123", 1_441_995_255.123),
        ("2015-09-11T18:14:15.123", 1_441_995_255.123),
        ("2015-09-11T18:14:15.123456", 1_441_995_255.123456),
        ("2015-09-11 18:14:15Z", 1_441_995_255.0),
        ("2015-09-11T18:14:15.5+02:00", 1_441_988_055.5),
        ("2015-09-11 18:14 -01:30", 1_442_000_640.0),
        ("2000-02-29 00:00:00", 951_782_400.0),
        ("1969-07-20 20:17:40", -14_182_940.0),
    ])
    func datesDecodeFromEverySQLiteFormat(text: String, timestamp: Double) throws {
        let fromValue = try #require(Date.fromDatabaseValue(text.databaseValue))
        #expect(abs(fromValue.timeIntervalSince1970 - timestamp) < 1e-6)
        let fetched = try #require(try dbQueue.read { db in try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]) })
        #expect(abs(fetched.timeIntervalSince1970 - timestamp) < 1e-6)
        // SQLite agrees.
        let sqliteSeconds = try dbQueue.read { (db: Database) throws in
            try Double.fetchOne(db, sql: "SELECT (julianday(?) - 2440587.5) * 86400.0", arguments: [text])
        }
        #expect(abs((sqliteSeconds ?? 0) - timestamp) < 0.001)
    }

    @Test func datesDecodeFromNumbers() throws {
        try dbQueue.read { (db: Database) throws in
            #expect(try Date.fetchOne(db, sql: "SELECT 86400") == Date(timeIntervalSince1970: 86400))
            #expect(try Date.fetchOne(db, sql: "SELECT 1.5") == Date(timeIntervalSince1970: 1.5))
        }
    }

    @Test(arguments: [
        "Mom’s birthday", "2015-13-01", "2015-09-11 25:00", "2015-09-11 18:14:15.", "2015-09-11X18:14",
        "2015-09-11 18:14+0200", "18:14", "",
    ])
    func invalidDates(text: String) throws {
        #expect(Date.fromDatabaseValue(text.databaseValue) == nil)
        _ = try dbQueue.read { (db: Database) throws in
            #expect(throws: RowDecodingError.self) { try Date.fetchAll(db, sql: "SELECT ?", arguments: [text]) }
        }
    }

    @Test func dateComponents() throws {
        var components = DateComponents()
        components.year = 1973
        components.month = 9
        components.day = 18
        let dbComponents = DatabaseDateComponents(components, format: .YMD)
        #expect(dbComponents.databaseValue == "1973-09-18".databaseValue)
        let read = try dbQueue.read { (db: Database) throws in
            try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [dbComponents])
        }
        #expect(read?.format == .YMD)
        #expect(read?.dateComponents.year == 1973)
        #expect(read?.dateComponents.hour == nil)

        let time = try #require(DatabaseDateComponents.fromDatabaseValue("18:14:15.250".databaseValue))
        #expect(time.format == .HMSS)
        #expect(time.dateComponents.nanosecond == 250_000_000)
        #expect(time.databaseValue == "18:14:15.250".databaseValue)
        let zoned = try #require(DatabaseDateComponents.fromDatabaseValue("2015-09-11T18:14+02:00".databaseValue))
        #expect(zoned.format == .YMD_HM)
        #expect(zoned.dateComponents.timeZone?.secondsFromGMT() == 7200)
        #expect(zoned.databaseValue == "2015-09-11 18:14+02:00".databaseValue)
        #expect(DatabaseDateComponents.fromDatabaseValue("tomorrow".databaseValue) == nil)
    }

    @Test func uuids() throws {
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(
            uuid.databaseValue.storage
                == .blob(
                    Data([
                        0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F,
                    ])))
        #expect(try roundTrip(uuid).slow == uuid)
        try dbQueue.read { (db: Database) throws in
            #expect(try UUID.fetchOne(db, sql: "SELECT 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'") == uuid)
            #expect(try UUID.fetchOne(db, sql: "SELECT ?", arguments: [uuid]) == uuid)
            let error = #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT x'0102'") }
            #expect(
                error?.description
                    == "could not decode UUID from database value Data(2 bytes) - column: \"x'0102'\", column index: 0, row: [x'0102':Data(2 bytes)], sql: `SELECT x'0102'`"
            )
        }
        #expect(UUID.fromDatabaseValue(Data([1, 2]).databaseValue) == nil)
        #expect(UUID.fromDatabaseValue("E621E1F8-C36C-495A-93FC".databaseValue) == nil)
    }

    @Test func decimals() throws {
        #expect(Decimal(10).databaseValue == "10".databaseValue)
        let tenAndHalf = try #require(Decimal(string: "10.5"))
        #expect(tenAndHalf.databaseValue == "10.5".databaseValue)
        let precise = try #require(Decimal(string: "12345678901234567890.123456789"))
        #expect(try roundTrip(precise).slow == precise)
        try dbQueue.read { (db: Database) throws in
            #expect(try Decimal.fetchOne(db, sql: "SELECT -100") == Decimal(-100))
            #expect(try Decimal.fetchOne(db, sql: "SELECT '1.23'") == Decimal(string: "1.23"))
            #expect(try Decimal.fetchOne(db, sql: "SELECT 0.5") == Decimal(string: "0.5"))
        }
        #expect(Decimal.fromDatabaseValue("1.2.3".databaseValue) == nil)
        #expect(Decimal.fromDatabaseValue("abc".databaseValue) == nil)
        #expect(Decimal.fromDatabaseValue("".databaseValue) == nil)
    }

    @Test func numbersAndURLs() throws {
        #expect(NSNumber(value: 10).databaseValue == 10.databaseValue)
        #expect(NSNumber(value: 10.5).databaseValue.storage == .double(10.5))
        #expect(NSDecimalNumber(string: "10.0").databaseValue.storage == .int64(10))
        #expect(NSDecimalNumber(string: "10.5").databaseValue.storage == .double(10.5))
        try dbQueue.read { (db: Database) throws in
            #expect(try NSNumber.fetchOne(db, sql: "SELECT 10")?.intValue == 10)
            #expect(try NSNumber.fetchOne(db, sql: "SELECT '10'") is NSDecimalNumber)
            let decimalNumber = try NSDecimalNumber.fetchOne(db, sql: "SELECT 1.23")
            #expect(decimalNumber?.stringValue == "1.23")
            let decimalInteger = try NSDecimalNumber.fetchOne(db, sql: "SELECT -100")
            #expect(decimalInteger == NSDecimalNumber(value: -100))
            let decimalText = try NSDecimalNumber.fetchOne(db, sql: "SELECT '1.23'")
            #expect(decimalText == NSDecimalNumber(string: "1.23"))
            let url = try #require(URL(string: "https://github.com/groue/GRDB.swift"))
            #expect(try URL.fetchOne(db, sql: "SELECT ?", arguments: [url]) == url)
        }
    }

    @Test func enumsByEmptyConformance() throws {
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE wine (grape TEXT, color INTEGER)")
            try db.execute(sql: "INSERT INTO wine (grape, color) VALUES (?, ?)", arguments: [Grape.merlot, Color.red])
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM wine")
            while let row = try rows.next() {
                let grape: Grape = row["grape"]
                let color: Color = row["color"]
                #expect(grape == .merlot)
                #expect(color == .red)
            }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'syrah'"))
            let dbValue: DatabaseValue = row[0]
            #expect(!dbValue.isNull)
            #expect(Grape.fromDatabaseValue(dbValue) == nil)
            #expect(row[0] as String == "syrah")
            #expect(throws: RowDecodingError.self) { try row.decode(Grape.self, atIndex: 0) }
        }
    }

    @Test func conversionsAtTheLimits() throws {
        #expect(Int32.fromDatabaseValue(2147483647.999999.databaseValue) == Int32.max)
        #expect(Int32.fromDatabaseValue((-2147483648.999999).databaseValue) == Int32.min)
        #expect(Int32.fromDatabaseValue(2147483648.0.databaseValue) == nil)
        #expect(Int64.fromDatabaseValue(9223372036854775808.0.databaseValue) == nil)
        #expect(Int.fromDatabaseValue(Double.nan.databaseValue) == nil)
        #expect(UInt8.fromDatabaseValue(255.9.databaseValue) == 255)
        #expect(UInt8.fromDatabaseValue((-0.5).databaseValue) == 0)
        try dbQueue.read { (db: Database) throws in
            // The fast path (straight from the statement) agrees with fromDatabaseValue.
            #expect(try Int32.fetchOne(db, sql: "SELECT 2147483647.999999") == Int32.max)
            #expect(try Int.fetchOne(db, sql: "SELECT -1.5") == -1)
            #expect(try UInt64.fetchOne(db, sql: "SELECT 1.5") == 1)
            #expect(throws: RowDecodingError.self) { try Int32.fetchOne(db, sql: "SELECT 2147483648.5") }
        }
        // NSDecimalNumber keeps integers at the Int64 limits as INTEGER, beyond them as REAL.
        #expect(NSDecimalNumber(string: "9223372036854775807").databaseValue.storage == .int64(Int64.max))
        #expect(NSDecimalNumber(string: "-9223372036854775808").databaseValue.storage == .int64(Int64.min))
        #expect(NSDecimalNumber(string: "9223372036854775808").databaseValue.storage == .double(9223372036854775808.0))
        #expect(
            NSDecimalNumber(string: "-9223372036854775809").databaseValue.storage == .double(-9223372036854775808.0))
    }

    @Test func urlsDecodeFromText() throws {
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        #expect(URL.fromDatabaseValue(Data("https://example.com/a?b=c".utf8).databaseValue) == url)
        #expect(URL.fromDatabaseValue("https://example.com/a?b=c".databaseValue) == url)
        #expect(URL.fromDatabaseValue(1.databaseValue) == nil)
        #expect(URL.fromDatabaseValue(Data([0xFF, 0xFE]).databaseValue) == nil)
    }

    @Test func foundationObjectsAreConvertible() throws {
        let date = Date(timeIntervalSince1970: 1_000_000)
        let untyped: [AnyHashable: Any] = [
            "null": NSNull(), "date": NSDate(timeIntervalSince1970: 1_000_000), "data": NSData(data: Data([1, 2])),
            "string": NSString(string: "中文"), "number": NSNumber(value: 3),
        ]
        let row = try #require(Row(untyped))
        #expect((row["null"] as DatabaseValue).isNull)
        #expect(row["date"] == date)
        #expect(row["data"] == Data([1, 2]))
        #expect(row["string"] == "中文")
        #expect(row["number"] == 3)
        #expect(Row(["x": NSObject()] as [AnyHashable: Any]) == nil)
        #expect(DatabaseValue(value: NSNull()) == .null)
        #expect(DatabaseValue(value: NSDate(timeIntervalSince1970: 1_000_000)) == date.databaseValue)
        #expect(DatabaseValue(value: 12) == 12.databaseValue)
        #expect(DatabaseValue(value: NSObject()) == nil)
        // Round trips through a statement.
        try dbQueue.read { (db: Database) throws in
            let stored = try Row.fetchOne(
                db, sql: "SELECT ?, ?, ?, ?",
                arguments: [
                    NSNull(), NSDate(timeIntervalSince1970: 1_000_000), NSData(data: Data([7])), NSString(string: "a"),
                ])
            #expect((stored?[0] as DatabaseValue?)?.isNull == true)
            #expect(try NSDate.fetchOne(db, sql: "SELECT ?", arguments: [date]).map { $0 as Date } == date)
            #expect(try NSData.fetchOne(db, sql: "SELECT x'0102'").map { Data(referencing: $0) } == Data([1, 2]))
            #expect(try NSString.fetchOne(db, sql: "SELECT 'abc'") == "abc")
            #expect(
                try NSURL.fetchOne(db, sql: "SELECT 'https://example.com'")?.absoluteString == "https://example.com")
            let uuid = UUID()
            #expect(try NSUUID.fetchOne(db, sql: "SELECT ?", arguments: [uuid]).map { $0 as UUID } == uuid)
            #expect(try NSNull.fetchOne(db, sql: "SELECT NULL") != nil)
            #expect(stored?[1] == date)
        }
    }
}
