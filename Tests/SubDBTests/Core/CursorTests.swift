import Foundation
import SubDB
import Testing

/// A cursor whose `forEach` does not go through `next()`, as GRDB's "Must not be called during forEach" test
/// cursor: wrappers must forward `forEach` to it.
private final class ForEachOnlyCursor: Cursor {
    private let elements: [Int]
    private(set) var nextCalls = 0
    private(set) var forEachCalls = 0

    init(_ elements: [Int]) { self.elements = elements }

    func next() throws -> Int? {
        nextCalls += 1
        return nil
    }

    func forEach(_ body: (Int) throws -> Void) throws {
        forEachCalls += 1
        for element in elements { try body(element) }
    }
}

@Suite struct CursorTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER, team TEXT)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)")
            for n in 1...10 { try statement.execute(arguments: [n, n % 2 == 0 ? "even" : "odd"]) }
        }
    }

    private func numbers(_ db: Database) throws -> FastDatabaseValueCursor<Int> {
        try Int.fetchCursor(db, sql: "SELECT n FROM t ORDER BY n")
    }

    @Test func lazyOperations() throws {
        try dbQueue.read { (db: Database) throws in
            #expect(try Array(numbers(db).map { $0 * 2 }.filter { $0 > 10 }) == [12, 14, 16, 18, 20])
            #expect(try Array(numbers(db).compactMap { $0 % 3 == 0 ? $0 : nil }) == [3, 6, 9])
            #expect(try Array(numbers(db).flatMap { [$0, $0] }.prefix(4)) == [1, 1, 2, 2])
            #expect(try Array(numbers(db).prefix(while: { $0 < 4 })) == [1, 2, 3])
            #expect(try Array(numbers(db).dropFirst(8)) == [9, 10])
            #expect(try Array(numbers(db).dropFirst()).first == 2)
            #expect(try Array(numbers(db).drop(while: { $0 < 9 })) == [9, 10])
            #expect(try numbers(db).dropLast(8) == [1, 2])
            #expect(try numbers(db).suffix(2) == [9, 10])
            #expect(try Array(numbers(db).enumerated().map { $0.offset }).last == 9)
            #expect(try Array(numbers(db).map { [$0] }.joined()).count == 10)
            #expect(
                try String.fetchCursor(db, sql: "SELECT team FROM t ORDER BY n LIMIT 3").joined(separator: ",")
                    == "odd,even,odd")
        }
    }

    @Test func valueCursorsNeedAColumn() throws {
        try dbQueue.write { (db: Database) throws in
            // A statement without result columns: both value cursors refuse it before stepping (nothing runs).
            let fast = #expect(throws: DatabaseError.self) { try Int.fetchCursor(db, sql: "DELETE FROM t") }
            let slow = #expect(throws: DatabaseError.self) { try URL.fetchCursor(db, sql: "DELETE FROM t") }
            for error in [fast, slow] {
                #expect(error?.resultCode == .SQLITE_MISUSE)
                #expect(error?.message == "SQL does not return any column")
                #expect(error?.sql == "DELETE FROM t")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 10)
        }
    }

    @Test func consumingOperations() throws {
        try dbQueue.read { (db: Database) throws in
            #expect(try numbers(db).reduce(0, +) == 55)
            #expect(try numbers(db).reduce(into: [Int]()) { $0.append($1) }.count == 10)
            #expect(try numbers(db).contains(7))
            #expect(try !numbers(db).contains(11))
            #expect(try numbers(db).contains { $0 > 9 })
            #expect(try numbers(db).first { $0 > 4 } == 5)
            #expect(try numbers(db).min() == 1)
            #expect(try numbers(db).max() == 10)
            #expect(try numbers(db).max { $0 % 7 < $1 % 7 } == 6)
            #expect(try numbers(db).allSatisfy { $0 > 0 })
            var sum = 0
            try numbers(db).forEach { sum += $0 }
            #expect(sum == 55)
            #expect(try Int.fetchCursor(db, sql: "SELECT n FROM t WHERE n > 100").isEmpty)
        }
    }

    @Test func collectionsFromCursors() throws {
        try dbQueue.read { (db: Database) throws in
            #expect(try Set(numbers(db)).count == 10)
            #expect(try Array(numbers(db), minimumCapacity: 100).count == 10)
            let grouped = try Dictionary(grouping: Row.fetchCursor(db, sql: "SELECT n, team FROM t").map { $0.copy() })
            {
                $0["team"] as String
            }
            #expect(grouped["even"]?.count == 5)
            let byNumber = try Dictionary(
                uniqueKeysWithValues: Row.fetchCursor(db, sql: "SELECT n, team FROM t").map {
                    ($0["n"] as Int, $0["team"] as String)
                })
            #expect(byNumber[4] == "even")
            let counts = try Dictionary(
                String.fetchCursor(db, sql: "SELECT team FROM t").map { ($0, 1) }, uniquingKeysWith: +)
            #expect(counts == ["odd": 5, "even": 5])
        }
    }

    @Test func cursorErrorsPropagate() throws {
        try dbQueue.read { (db: Database) throws in
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT n, CASE WHEN n = 3 THEN abs(-9223372036854775807 - 1) ELSE n END FROM t")
            #expect(try cursor.next() != nil)
            #expect(try cursor.next() != nil)
            let error = #expect(throws: DatabaseError.self) { try cursor.next() }
            #expect(error?.message == "integer overflow")
            #expect(try cursor.next() == nil)
        }
    }

    @Test func anyCursor() throws {
        var n = 0
        let cursor = AnyCursor<Int> {
            n += 1
            return n <= 3 ? n : nil
        }
        #expect(try Array(cursor) == [1, 2, 3])
        #expect(try Array(AnyCursor([1, 2])) == [1, 2])
    }

    @Test func wrappersForwardForEachToTheirBase() throws {
        var collected: [String] = []
        let mapped = ForEachOnlyCursor([1, 2, 3])
        try mapped.map { $0 * 10 }.forEach { collected.append("\($0)") }
        let filtered = ForEachOnlyCursor([1, 2, 3])
        try filtered.filter { $0 != 2 }.forEach { collected.append("\($0)") }
        let enumerated = ForEachOnlyCursor([7, 8])
        try enumerated.enumerated().forEach { collected.append("\($0.offset):\($0.element)") }
        let chained = ForEachOnlyCursor([1, 2, 3, 4])
        try chained.filter { $0 % 2 == 0 }.map { $0 + 1 }.enumerated().forEach { collected.append("\($0.element)") }
        #expect(collected == ["10", "20", "30", "1", "3", "0:7", "1:8", "3", "5"])
        for cursor in [mapped, filtered, enumerated, chained] {
            #expect(cursor.nextCalls == 0)
            #expect(cursor.forEachCalls == 1)
        }
    }

    @Test func forEachOfDatabaseCursorWrappers() throws {
        try dbQueue.read { (db: Database) throws in
            var sum = 0
            try numbers(db).map { $0 * 2 }.filter { $0 > 10 }.enumerated().forEach { sum += $0.element }
            #expect(sum == 12 + 14 + 16 + 18 + 20)
        }
    }

    @Test func anyCursorFromAnIteratorOrACursor() throws {
        let fromIterator = AnyCursor(iterator: [3, 1, 2].makeIterator())
        #expect(try Array(fromIterator) == [3, 1, 2])
        #expect(try fromIterator.next() == nil)
        // A wrapped cursor keeps its own forEach.
        let base = ForEachOnlyCursor([5, 6])
        var seen: [Int] = []
        try AnyCursor(base).forEach { seen.append($0) }
        #expect(seen == [5, 6])
        #expect(base.nextCalls == 0)
    }
}
