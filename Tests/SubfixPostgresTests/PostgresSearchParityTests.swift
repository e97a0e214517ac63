import Foundation
import SubfixLibrary
import TestSupport
import Testing

@testable import SubfixPostgres

/// The SQLite library and the PostgreSQL library, fed the same corpus, return the same set of hits for the
/// queries of the SQLite search tests, for generated CJK runs, and for hostile input.
@Suite struct PostgresSearchParityTests {
    static let han = Array("你好我是的不了人在有这个们来说电视機視国中大天世界吗")
    static let words = ["the", "tram", "Café", "cafe", "ＡＢＣ", "１２３", "OK", "naïve", "TV", "world", "wordy"]

    static func corpus(count: Int, seed: UInt64) -> [String] {
        DialogueCorpus.lines(count: count, seed: seed, han: han, words: words)
    }

    /// The queries of Tests/SubfixLibraryTests (search and corpus tests), and hostile ones.
    static let fixedQueries = [
        "cafe", "wor*", "ガ", "你", "你好", "世界 OR 吗", "好 -你", "电", "电视", "电视机", "電視", "ｶﾞｷ", "Café",
        "\"the tram\"", "the tram", "tv", "ＡＢＣ", "abc", "123", "naive", "你 好", "你，好", "\"你 好\" OR -x",
        "你 -你", "* OR *", "\"", "NEAR(a b, 2)", "'; DROP TABLE dialogue_line; --", "a\u{0}b", "e\u{301}",
        String(repeating: "你", count: 300), String(repeating: "a ", count: 40), "t*", "ok OR 한국", "-the 你",
    ]

    static func generatedQueries(corpus: [String], seed: UInt64) -> [String] {
        var random = SplitMix64(state: seed)
        var queries: Set<String> = []
        let cjk = han + DialogueCorpus.kana.filter { $0 != "ﾞ" } + DialogueCorpus.hangul
        for length in [1, 2, 3, 5] {
            var found = 0
            for line in corpus.shuffled(using: &random) where found < 6 {
                let characters = Array(line)
                guard characters.count >= length else { continue }
                let start = Int.random(in: 0...(characters.count - length), using: &random)
                let piece = characters[start..<start + length]
                if piece.allSatisfy({ cjk.contains($0) && $0 != "ｶ" }) {
                    queries.insert(String(piece))
                    found += 1
                }
            }
        }
        return queries.sorted()
    }

    /// What a search gave: the lines (by start second) or the error's description.
    enum Outcome: Equatable {
        case hits(Set<Int>)
        case error(String)
    }

    static func outcome(_ body: () throws -> [DialogueHit]) -> Outcome {
        do {
            return .hits(Set(try body().map { $0.line.startMs / 1000 }))
        } catch let error as LibraryError {
            if case .query(let queryError) = error { return .error("\(queryError)") }
            return .error("\(error)")
        } catch {
            return .error("\(error)")
        }
    }

    @Test(arguments: [false, true])
    func bothBackendsFindTheSameLines(fold: Bool) throws {
        let server = try PostgresTestServer.shared()
        let postgres = try PostgresLibrary(url: PostgresURL(try server.makeDatabase()))
        try postgres.prepareDialogueIndex(foldsChinese: fold)
        let directory = try TemporaryDirectory()
        let sqlite = try LibraryDatabase(path: directory.path("library.sqlite"), mode: .create)
        try sqlite.prepareDialogueIndex(foldsChinese: fold)
        let texts = Self.corpus(count: 1500, seed: fold ? 3 : 5)
        let lines = texts.enumerated().map { index, text in
            IndexedLine(startMs: index * 1000, endMs: index * 1000 + 900, style: "Default", text: text)
        }
        let source = SubtitleSourceRecord(mediaFileId: 0, kind: .sidecar, codec: "srt", language: "zh")
        let file = IndexedFile(
            path: "/corpus/a.zh.srt", size: 10, mtime: 1, sources: [IndexedSource(source: source, lines: lines)])
        try sqlite.store([file])
        try postgres.store(file)
        let options = DialogueSearchOptions(limit: 100_000)
        var compared = 0
        for query in Self.fixedQueries + Self.generatedQueries(corpus: texts, seed: 9) {
            let fromSQLite = Self.outcome { try sqlite.search(try DialogueQuery(query), options: options) }
            let fromPostgres = Self.outcome { try postgres.search(query, options: options) }
            #expect(fromSQLite == fromPostgres, "query \(query.prefix(40)) (fold \(fold))")
            if case .hits(let hits) = fromSQLite { compared += hits.count }
        }
        #expect(compared > 500)
    }

    @Test func highlightsAndSnippetsMarkTheMatchedCharactersOnly() throws {
        let server = try PostgresTestServer.shared()
        let library = try PostgresLibrary(url: PostgresURL(try server.makeDatabase()))
        try library.prepareDialogueIndex(foldsChinese: false)
        let texts = ["电视，电视机", "ｶﾞｷの家", "A电B电", "the tram is late"]
        let lines = texts.enumerated().map {
            IndexedLine(startMs: $0 * 1000, endMs: $0 * 1000 + 500, style: "", text: $1)
        }
        let source = SubtitleSourceRecord(mediaFileId: 0, kind: .sidecar, codec: "srt")
        try library.store(
            IndexedFile(path: "/a.srt", size: 1, mtime: 1, sources: [IndexedSource(source: source, lines: lines)]))
        func marked(_ query: String) throws -> [String] {
            try library.search(query, options: DialogueSearchOptions(limit: 100)).map { hit in
                hit.segments.map { $0.isMatch ? "[" + $0.text + "]" : $0.text }.joined()
            }.sorted()
        }
        #expect(try marked("电") == ["A[电]B[电]", "[电]视，[电]视机"])
        #expect(try marked("ガ") == ["[ｶﾞ]ｷの家"])
        #expect(try marked("电视机") == ["电视，[电视机]"])
        #expect(try marked("\"the tram\"") == ["[the tram] is late"])
        let hit = try #require(try library.search("tram", options: DialogueSearchOptions(limit: 1)).first)
        #expect(hit.snippet == "the [tram] is late")
        #expect(hit.rank < 0)
    }

    @Test func languageAndPathFiltersAndContextMatchTheSQLiteSearch() throws {
        let server = try PostgresTestServer.shared()
        let library = try PostgresLibrary(url: PostgresURL(try server.makeDatabase()))
        try library.prepareDialogueIndex(foldsChinese: false)
        for (path, language) in [("/m/a.ja.srt", "ja"), ("/m/b.jpn.srt", "jpn"), ("/n/c.zh.srt", "zh-Hans")] {
            let lines = ["前", "你好", "後"].enumerated().map {
                IndexedLine(startMs: $0 * 1000, endMs: $0 * 1000 + 500, style: "", text: $1)
            }
            let source = SubtitleSourceRecord(mediaFileId: 0, kind: .sidecar, codec: "srt", language: language)
            try library.store(
                IndexedFile(path: path, size: 1, mtime: 1, sources: [IndexedSource(source: source, lines: lines)]))
        }
        func paths(_ options: DialogueSearchOptions) throws -> [String] {
            try library.search("你好", options: options).map(\.path).sorted()
        }
        #expect(try paths(DialogueSearchOptions(language: "ja")) == ["/m/a.ja.srt", "/m/b.jpn.srt"])
        #expect(try paths(DialogueSearchOptions(language: "zh")) == ["/n/c.zh.srt"])
        #expect(try paths(DialogueSearchOptions(pathPattern: "/m/*")) == ["/m/a.ja.srt", "/m/b.jpn.srt"])
        #expect(try paths(DialogueSearchOptions(pathPattern: "/m/a.ja.sr?")) == ["/m/a.ja.srt"])
        #expect(try paths(DialogueSearchOptions(pathPattern: "/m/a(.*")) == [])
        let hit = try #require(try library.search("你好", options: DialogueSearchOptions(limit: 1, context: 1)).first)
        #expect(hit.before.map(\.text) == ["前"])
        #expect(hit.after.map(\.text) == ["後"])
    }

    @Test func migrationsRunOnceAndAreRecorded() throws {
        let server = try PostgresTestServer.shared()
        let url = try PostgresURL(try server.makeDatabase())
        let connection = try PostgresConnection(url: url)
        let versions = PostgresMigrations.all.map(\.version)
        #expect(versions == Array(1...5))
        #expect(try PostgresMigrations.migrate(connection) == versions)
        #expect(try PostgresMigrations.migrate(connection) == [])
        #expect(try PostgresMigrations.versions(connection) == versions)
        // A failing migration rolls back entirely and leaves the version where it was.
        let broken = PostgresMigrations.Migration(
            version: versions.count + 1, name: "broken",
            statements: ["CREATE TABLE half (x int)", "SELECT * FROM nowhere"])
        #expect(throws: PostgresError.self) {
            try PostgresMigrations.migrate(connection, migrations: PostgresMigrations.all + [broken])
        }
        #expect(try PostgresMigrations.versions(connection) == versions)
        #expect(try connection.execute("SELECT to_regclass('half')").text(0, 0) == nil)
    }

    @Test func storingAFileTwiceLeavesTheSameRows() throws {
        let server = try PostgresTestServer.shared()
        let library = try PostgresLibrary(url: PostgresURL(try server.makeDatabase()))
        try library.prepareDialogueIndex(foldsChinese: false)
        let source = SubtitleSourceRecord(mediaFileId: 0, kind: .sidecar, codec: "srt")
        let file = IndexedFile(
            path: "/a.srt", size: 1, mtime: 1,
            sources: [
                IndexedSource(source: source, lines: [IndexedLine(startMs: 0, endMs: 1, style: "", text: "你好\u{0}")])
            ])
        try library.store(file)
        try library.store(file)
        let counts = try library.counts()
        #expect(counts.files == 1 && counts.sources == 1 && counts.lines == 1)
        #expect(throws: LibraryError.self) { try library.prepareDialogueIndex(foldsChinese: true) }
    }
}
