import Foundation
import SubfixLibrary
import TestSupport
import Testing

@testable import SubfixPostgres

/// The rank window on PostgreSQL follows the SQLite library's rule: without filters, only the `rankWindow` most
/// recently indexed matches are ranked; with `--lang` or `--path`, or a window of 0, every match is.
@Suite struct PostgresRankWindowTests {
    /// 200 lines holding 你: the 50 oldest rank best (你 four times in a short line), the 150 newer ones worse.
    static func file() -> IndexedFile {
        let lines = (0..<200).map { index in
            IndexedLine(
                startMs: index * 1000, endMs: index * 1000 + 900, style: "",
                text: index < 50 ? "你你你你" : "你 said the tram driver to nobody in particular \(index)")
        }
        let source = SubtitleSourceRecord(mediaFileId: 0, kind: .sidecar, codec: "srt", language: "zh")
        return IndexedFile(
            path: "/w/a.zh.srt", size: 1, mtime: 1, sources: [IndexedSource(source: source, lines: lines)])
    }

    /// The line numbers (start seconds) of the hits of 你 on each backend.
    static func hits(_ options: DialogueSearchOptions, postgres: PostgresLibrary, sqlite: LibraryDatabase) throws
        -> (postgres: [Int], sqlite: [Int])
    {
        (
            try postgres.search("你", options: options).map { $0.line.startMs / 1000 },
            try sqlite.search(try DialogueQuery("你"), options: options).map { $0.line.startMs / 1000 }
        )
    }

    @Test func bothBackendsRankOnlyTheNewestMatchesWithoutFilters() throws {
        let server = try PostgresTestServer.shared()
        let postgres = try PostgresLibrary(url: PostgresURL(try server.makeDatabase()))
        try postgres.prepareDialogueIndex(foldsChinese: false)
        let directory = try TemporaryDirectory()
        let sqlite = try LibraryDatabase(path: directory.path("library.sqlite"), mode: .create)
        try sqlite.prepareDialogueIndex(foldsChinese: false)
        try postgres.store(Self.file())
        try sqlite.store([Self.file()])

        // A window of 10: the 3 best of the 10 newest lines, never one of the better-ranked old ones.
        let windowed = try Self.hits(
            DialogueSearchOptions(limit: 3, rankWindow: 10), postgres: postgres, sqlite: sqlite)
        #expect(windowed.postgres.count == 3)
        #expect(windowed.postgres.allSatisfy { $0 >= 190 }, "\(windowed.postgres)")
        #expect(Set(windowed.postgres) == Set(windowed.sqlite))

        // A window smaller than the limit ranks `limit` lines.
        let small = try Self.hits(DialogueSearchOptions(limit: 5, rankWindow: 2), postgres: postgres, sqlite: sqlite)
        #expect(Set(small.postgres) == Set(195..<200))
        #expect(Set(small.sqlite) == Set(195..<200))

        // No window, or a filter: every match is ranked, and the old short lines win.
        for options in [
            DialogueSearchOptions(limit: 3, rankWindow: 0), DialogueSearchOptions(language: "zh", limit: 3),
            DialogueSearchOptions(pathPattern: "/w/*", limit: 3),
        ] {
            let all = try Self.hits(options, postgres: postgres, sqlite: sqlite)
            #expect(all.postgres.count == 3)
            #expect(all.postgres.allSatisfy { $0 < 50 }, "\(options): \(all.postgres)")
            #expect(all.sqlite.allSatisfy { $0 < 50 }, "\(options): \(all.sqlite)")
        }

        // Counting (search --count) is never windowed.
        let counts = try postgres.matchCounts("你", options: DialogueSearchOptions(limit: 3, rankWindow: 10))
        #expect(counts.map(\.path) == ["/w/a.zh.srt"])
        #expect(counts.map(\.count) == [200])
    }
}
