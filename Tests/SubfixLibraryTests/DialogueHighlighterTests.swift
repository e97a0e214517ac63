import Foundation
import SubDB
import Testing

@testable import SubfixLibrary

/// The Swift highlighter against FTS5's own `highlight()` and `snippet()` over the same rows of a table with
/// positions (phrase queries, `tokenize='subfix positions'`): every line that matches, for queries of one and
/// several phrases, prefixes, exclusions and alternatives, folded or not. The library's own index keeps no
/// positions; that table is the reference for what a phrase matches.
@Suite struct DialogueHighlighterTests {
    /// Deterministic lines: CJK runs, English words, punctuation that makes boundary tokens, sentence ends
    /// (`. ` and `: `), line breaks, full-width forms; some long enough for the snippet window to move.
    static func lines(count: Int) -> [String] {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let pieces = [
            "你好", "你", "好", "世界", "電視", "电视", "我说", "吗", "终电", "は", "十分", "カタカナ", "한국어", "hello",
            "World", "wor", "working", "Café", "ＡＢＣ", "see you", "tomorrow", "，", "。", ". ", ": ", "! ", " ", " ",
            "\n", "…", "「", "」", "（笑）", "123", "你好你好", "好你",
        ]
        return (0..<count).map { _ in
            let length = next(4) == 0 ? 20 + next(40) : 1 + next(8)
            return (0..<length).map { _ in pieces[next(pieces.count)] }.joined()
        }
    }

    static let queries = [
        "你", "好", "你好", "你好 世界", "hello", "wor*", "你 -好", "世界 OR 吗", "电视", "電視", "see you",
        "\"see you\" tomorrow", "カタカナ", "한국어", "cafe", "abc", "你好 OR hello world", "十分 は", "123", "好你",
    ]

    /// The query as FTS5 phrases (`"你 好"`), for a table with positions.
    static func phraseExpression(_ query: DialogueQuery) -> String {
        func quoted(_ phrase: DialogueQuery.Phrase) -> String {
            DialogueQuery.quoted(phrase.tokens.joined(separator: " ")) + (phrase.isPrefix ? " *" : "")
        }
        let alternatives = Dictionary(grouping: query.phrases, by: \.alternative).sorted { $0.key < $1.key }
            .map { $0.value.map(quoted).joined(separator: " AND ") }
        var expression =
            alternatives.count == 1 ? alternatives[0] : alternatives.map { "(" + $0 + ")" }.joined(separator: " OR ")
        for phrase in query.excluded { expression = "(" + expression + ") NOT " + quoted(phrase) }
        return expression
    }

    @Test(arguments: [false, true])
    func marksWhatFTS5Marks(foldsChinese: Bool) throws {
        let test = try TestLibrary(foldsChinese: foldsChinese)
        let lines = Self.lines(count: 400)
        try test.library.pool.write { db in
            try db.execute(
                sql:
                    "CREATE VIRTUAL TABLE oracle USING fts5(text, tokenize='subfix positions\(foldsChinese ? " fold" : "")')"
            )
            for line in lines { try db.execute(sql: "INSERT INTO oracle (text) VALUES (?)", arguments: [line]) }
        }
        let segmenter = DialogueSegmenter(foldsChinese: foldsChinese)
        var compared = 0
        for text in Self.queries {
            let query = try DialogueQuery(text)
            let highlighter = DialogueHighlighter(phrases: query.phrases, segmenter: segmenter)
            let rows = try test.library.reader.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT text, highlight(oracle, 0, '<', '>') AS marked,
                               snippet(oracle, 0, '[', ']', '…', 24) AS snippet,
                               snippet(oracle, 0, '[', ']', '...', 5) AS short
                        FROM oracle WHERE oracle MATCH ?
                        """, arguments: [Self.phraseExpression(query)])
            }
            for row in rows {
                let line: String = row["text"]
                #expect(highlighter.highlight(line, open: "<", close: ">") == row["marked"], "\(text): \(line)")
                #expect(
                    highlighter.snippet(line, open: "[", close: "]", ellipsis: "…", tokenCount: 24) == row["snippet"],
                    "\(text): \(line)")
                #expect(
                    highlighter.snippet(line, open: "[", close: "]", ellipsis: "...", tokenCount: 5) == row["short"],
                    "\(text): \(line)")
                compared += 1
            }
        }
        #expect(compared > 1000)
    }

    /// The pairs index with verification finds exactly the lines the phrase queries of a table with positions
    /// find, for every query: the index terms narrow, the check against the text decides.
    @Test(arguments: [false, true])
    func theIndexFindsWhatPhraseQueriesFind(foldsChinese: Bool) throws {
        let test = try TestLibrary(foldsChinese: foldsChinese)
        let lines = Self.lines(count: 400)
        try test.store(path: "/a.srt", texts: lines)
        try test.library.pool.write { db in
            try db.execute(
                sql:
                    "CREATE VIRTUAL TABLE oracle USING fts5(text, tokenize='subfix positions\(foldsChinese ? " fold" : "")')"
            )
            for line in lines { try db.execute(sql: "INSERT INTO oracle (text) VALUES (?)", arguments: [line]) }
        }
        let queries =
            Self.queries + [
                "你好你", "好你好", "十分ＡＢＣ", "你好 -好你", "-你好你 好", "终电 -\"see you\"", "\"you tomorrow\" OR 你好你好",
                "世界吗", "電視你", "电视你好",
            ]
        for text in queries {
            let query = try DialogueQuery(text)
            let expected = try test.library.reader.read { db in
                try String.fetchAll(
                    db, sql: "SELECT text FROM oracle WHERE oracle MATCH ?", arguments: [Self.phraseExpression(query)])
            }
            let ranked = try test.library.search(query, options: DialogueSearchOptions(limit: 10_000, rankWindow: 0))
            #expect(ranked.map(\.line.text).sorted() == expected.sorted(), "\(text)")
            let newest = try test.library.search(query, options: DialogueSearchOptions(limit: 10_000))
            #expect(newest.map(\.line.text).sorted() == expected.sorted(), "\(text)")
            let counted = try test.library.matchCounts(query, options: DialogueSearchOptions())
            #expect(counted.map(\.count).reduce(0, +) == expected.count, "\(text)")
        }
    }

    @Test func hostileTextIsMarkedWithoutCrashing() {
        let query = try? DialogueQuery("你好 a*")
        let highlighter = DialogueHighlighter(phrases: query?.phrases ?? [], segmenter: DialogueSegmenter())
        for text in ["", "\u{2}\u{3}", "你\u{0}好", "a", String(repeating: "你好。 ", count: 200), "\u{FFFD}好"] {
            let marked = highlighter.highlight(text, open: "[", close: "]")
            #expect(marked.replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "") == text)
            _ = highlighter.snippet(text, open: "[", close: "]", ellipsis: "…", tokenCount: 24)
        }
        #expect(highlighter.highlight("ab 你好", open: "[", close: "]") == "[ab] [你好]")
    }

    @Test func queriesListTheirPhrasesWithoutExclusions() throws {
        let query = try DialogueQuery("你好 wor* -再见 OR \"see you\"")
        #expect(
            query.phrases == [
                DialogueQuery.Phrase(tokens: ["你", "好"], isPrefix: false, alternative: 0),
                DialogueQuery.Phrase(tokens: ["wor"], isPrefix: true, alternative: 0),
                DialogueQuery.Phrase(tokens: ["see", "you"], isPrefix: false, alternative: 1),
            ])
        #expect(try DialogueQuery("say \"x\"").expression == "\"say\" AND \"x\"")
        #expect(LibraryDatabase.foldingOption == DialogueTokenizer.descriptor(foldsChinese: true).sqlOptionValue)
    }
}
