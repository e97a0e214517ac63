import Foundation
import SubDB
import Testing

@testable import SubfixLibrary

/// The Swift highlighter against FTS5's own `highlight()` and `snippet()` over the same rows: every line that
/// matches, for queries of one and several phrases, prefixes, exclusions and alternatives, folded or not.
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

    @Test(arguments: [false, true])
    func marksWhatFTS5Marks(foldsChinese: Bool) throws {
        let test = try TestLibrary(foldsChinese: foldsChinese)
        try test.store(path: "/a.srt", texts: Self.lines(count: 400))
        let segmenter = DialogueSegmenter(foldsChinese: foldsChinese)
        var compared = 0
        for text in Self.queries {
            let query = try DialogueQuery(text)
            let highlighter = DialogueHighlighter(phrases: query.phrases, segmenter: segmenter)
            let rows = try test.library.reader.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT text, highlight(dialogue_fts, 0, '<', '>') AS marked,
                               snippet(dialogue_fts, 0, '[', ']', '…', 24) AS snippet,
                               snippet(dialogue_fts, 0, '[', ']', '...', 5) AS short
                        FROM dialogue_fts WHERE dialogue_fts MATCH ?
                        """, arguments: [query.expression])
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
