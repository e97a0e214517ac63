import Foundation
import SubDB
import Testing

@testable import SubfixLibrary

/// Ranking reads lines' lengths from their source's `line_lengths`: the same ranks as SQLite's `length(text)`,
/// and the line itself whenever the stored lengths cannot answer (a long line, a library damaged by hand).
@Suite struct LineLengthsTests {
    @Test func lengthsAreSQLitesLength() throws {
        let texts = ["你好", "see you", "", "é\u{301}", "a\u{0}b", String(repeating: "长", count: 300), "👋🏽 hi"]
        let test = try TestLibrary()
        let sqlite = try test.library.pool.read { db in
            try texts.map { try Int.fetchOne(db, sql: "SELECT length(?)", arguments: [$0]) ?? -1 }
        }
        #expect(texts.map(LineLengths.length(of:)) == sqlite)
        #expect(Array(LineLengths.encode(texts)) == sqlite.map { UInt8(min($0, 255)) })
    }

    /// Hits and ranks of `query` with the window (stored lengths) and without it (`length(text)` in SQL).
    static func ranks(_ test: TestLibrary, _ query: String) throws -> (windowed: [Double], all: [Double]) {
        let parsed = try DialogueQuery(query)
        return (
            try test.library.search(parsed, options: DialogueSearchOptions(limit: 100)).map(\.rank),
            try test.library.search(parsed, options: DialogueSearchOptions(limit: 100, rankWindow: 0)).map(\.rank)
        )
    }

    @Test func longLinesAndSeveralSourcesRankAsTheirText() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["你" + String(repeating: "长", count: 300), "你好", "你"])
        try test.store(path: "/b.srt", texts: ["x 你 y", "你" + String(repeating: "长", count: 254)])
        let (windowed, all) = try Self.ranks(test, "你")
        #expect(windowed == [1, 2, 5, 255, 301])
        #expect(windowed == all)
    }

    @Test(arguments: ["NULL", "X'01'", "X'0102030405'"])
    func damagedStoredLengthsFallBackToTheLines(value: String) throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["你好吗", "你", "你好"])
        try test.library.pool.write { db in try db.execute(sql: "UPDATE subtitle_source SET line_lengths = \(value)") }
        let (windowed, all) = try Self.ranks(test, "你")
        #expect(windowed == [1, 2, 3])
        #expect(windowed == all)
    }

    /// A library from before `library-v3-line-lengths` gets the column, its index and every source's lengths from
    /// the next writer.
    @Test func theNextWriterStoresAnOlderLibrarysLengths() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["你好吗", "你", "你好"])
        try test.store(path: "/b.srt", texts: [])
        let path = test.directory.path("lib/library.sqlite")
        try test.library.pool.write { db in
            try db.execute(
                sql: """
                    DROP INDEX subtitle_source_on_first_line;
                    ALTER TABLE subtitle_source DROP COLUMN line_lengths;
                    DELETE FROM grdb_migrations WHERE identifier = 'library-v3-line-lengths';
                    """)
        }
        #expect(throws: LibraryError.olderSchema(path: path)) { try LibraryDatabase(path: path, mode: .readOnly) }
        let writer = try LibraryDatabase(path: path, mode: .create)
        let stored = try writer.reader.read { db in
            try Row.fetchAll(db, sql: "SELECT line_lengths FROM subtitle_source ORDER BY id").map { $0[0] as Data? }
        }
        #expect(stored == [Data([3, 1, 2]), nil])
        let hits = try writer.search(try DialogueQuery("你"), options: DialogueSearchOptions())
        #expect(hits.map(\.rank) == [1, 2, 3])
    }
}
