import Foundation
import SubDB
import Testing

@Suite struct DatabaseCollationTests {
    @Test func swiftCollationsOrderAndCompare() throws {
        let byLength = DatabaseCollation("byLength") { lhs, rhs in
            lhs.count < rhs.count ? .orderedAscending : lhs.count == rhs.count ? .orderedSame : .orderedDescending
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            db.add(collation: byLength)
            db.add(collation: .localizedStandardCompare)
            db.add(collation: .caseInsensitiveCompare)
            try db.execute(
                sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('file10'), ('File2'), ('中文字幕'), ('a')")
            let byLengthNames = try String.fetchAll(
                db, Table("t").select(Column("name")).order(Column("name").collating(byLength), Column("name")))
            #expect(byLengthNames == ["a", "中文字幕", "File2", "file10"])  // 1, 4, 5 and 6 characters
            let standard = try String.fetchAll(
                db, sql: "SELECT name FROM t WHERE name LIKE 'f%' ORDER BY name COLLATE swiftLocalizedStandardCompare")
            #expect(standard == ["File2", "file10"])
            #expect(
                try Int.fetchOne(db, sql: "SELECT 'ABC' = 'abc' COLLATE swiftCaseInsensitiveCompare") == 1)
            // A removed collation is unknown to SQL again.
            db.remove(collation: byLength)
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "SELECT name FROM t ORDER BY name COLLATE byLength")
            }
        }
    }

    /// Issue #31: GRDB's collations are registered on every connection, without `add(collation:)`.
    @Test func grdbCollationsAreRegisteredByDefault() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("collations.sqlite"))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('b'), ('B'), ('a'), ('é')")
        }
        try dbPool.read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT 'ABC' = 'abc' COLLATE swiftCaseInsensitiveCompare") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT 'é' = 'E' COLLATE swiftLocalizedCaseInsensitiveCompare") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT 'x2' < 'x10' COLLATE swiftLocalizedStandardCompare") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT 'B' < 'a' COLLATE unicodeCompare") == 1)
            let names = try String.fetchAll(
                db, Table("t").select(Column("name")).order(Column("name").collating(.localizedCompare)))
            #expect(names.first == "a" && names.last == "é")
        }
        withExtendedLifetime(directory) {}
    }
}
