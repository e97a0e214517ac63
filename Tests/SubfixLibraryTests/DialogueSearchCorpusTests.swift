import Foundation
import SubDB
import TestSupport
import Testing

@testable import SubfixLibrary

/// Generated dialogue in Chinese (simplified and traditional), Japanese (with half-width katakana), Korean,
/// English, mixed scripts and full-width forms, checked against a plain substring scan.
@Suite struct DialogueSearchCorpusTests {
    /// A few characters used often, so that queries of several characters have hits.
    static let han = Array("你好我是的不了人在有这个们来说电视機視国中大天")
    static let words = ["the", "tram", "Café", "ＡＢＣ", "１２３", "OK", "naïve", "TV"]

    static func corpus(count: Int, seed: UInt64) -> [String] {
        DialogueCorpus.lines(count: count, seed: seed, han: han, words: words)
    }

    /// What a CJK query must find: NFKC (and folding) of the line holds NFKC of the query as a substring.
    static func normalized(_ text: String, fold: Bool) -> [Unicode.Scalar] {
        var text = text.precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
        if fold { text = ChineseFolding.simplified(text) }
        return Array(text.unicodeScalars)
    }

    static func contains(_ haystack: [Unicode.Scalar], _ needle: [Unicode.Scalar]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return true }
        }
        return false
    }

    /// Queries of `length` CJK characters: pieces of the corpus (so they have hits) and random ones.
    static func queries(length: Int, corpus: [String], seed: UInt64) -> [String] {
        var random = SplitMix64(state: seed)
        var queries: Set<String> = []
        let cjk = han + DialogueCorpus.kana.filter { $0 != "ﾞ" } + DialogueCorpus.hangul
        for line in corpus.shuffled(using: &random) where queries.count < 12 {
            let scalars = Array(line)
            guard scalars.count >= length else { continue }
            let start = Int.random(in: 0...(scalars.count - length), using: &random)
            let piece = scalars[start..<start + length]
            if piece.allSatisfy({ cjk.contains($0) && $0 != "ｶ" }) { queries.insert(String(piece)) }
        }
        for _ in 0..<4 {
            queries.insert(String((0..<length).map { _ in han.randomElement(using: &random) ?? "你" }))
        }
        return queries.sorted()
    }

    @Test(arguments: [false, true])
    func everyHitContainsTheQueryAndNoLineIsMissed(fold: Bool) throws {
        let test = try TestLibrary(foldsChinese: fold)
        let corpus = Self.corpus(count: 3000, seed: fold ? 7 : 11)
        try test.store(path: "/corpus.srt", texts: corpus)
        let normalizedCorpus = corpus.map { Self.normalized($0, fold: fold) }
        var checked = 0
        for length in [1, 2, 3, 5] {
            for query in Self.queries(length: length, corpus: corpus, seed: UInt64(length)) {
                let needle = Self.normalized(query, fold: fold)
                let expected = Set(corpus.indices.filter { Self.contains(normalizedCorpus[$0], needle) })
                let hits = try test.library.search(
                    try DialogueQuery(query), options: DialogueSearchOptions(limit: 10_000))
                let found = Set(hits.map { Int($0.line.startMs / 1000) })
                #expect(found == expected, "query \(query) (fold \(fold))")
                for hit in hits {
                    #expect(hit.segments.map(\.text).joined() == hit.line.text)
                    // Marked runs hold the query; what is left unmarked never does.
                    for segment in hit.segments where segment.isMatch {
                        #expect(
                            Self.contains(Self.normalized(segment.text, fold: fold), needle),
                            "\(query): \(segment.text)")
                    }
                    let unmarked = hit.segments.map { $0.isMatch ? "\u{1}" : $0.text }.joined()
                    #expect(!Self.contains(Self.normalized(unmarked, fold: fold), needle), "\(query): \(hit.line.text)")
                }
                checked += expected.count
            }
        }
        #expect(checked > 1000)
    }

    @Test func oneCharacterHighlightsMarkOnlyThatCharacter() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["电视，电视机", "ｶﾞｷの家", "A电B电"])
        #expect(try test.search("电").sorted() == ["A[电]B[电]", "[电]视，[电]视机"])
        #expect(try test.search("ガ") == ["[ｶﾞ]ｷの家"])
        #expect(try test.search("ｶﾞｷ") == ["[ｶﾞｷ]の家"])
        #expect(try test.search("电视机") == ["电视，[电视机]"])
    }

    @Test(arguments: [
        "\"", "*", "NEAR(", "NEAR(a b, 2)", "-", "OR", "AND", "NOT", "a AND", "(", ")", "{text}: a", "^a", "a:b",
        "'; DROP TABLE dialogue_line; --", "a\u{0}b", "\u{0}", "\u{301}", "你\u{301}", "e\u{301}",
        String(repeating: "你", count: 10_000), String(repeating: "a", count: 10_000),
        String(repeating: "a ", count: 5_000), String(repeating: "\"", count: 10_000),
        String(repeating: "-", count: 10_000), "你 -你", "\"你 好\" OR -x", "* OR *",
    ])
    func hostileQueriesGiveResultsOrCleanErrors(query: String) throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["你好 a b", "drop table", "école"])
        do {
            let parsed = try DialogueQuery(query)
            _ = try test.library.search(parsed, options: DialogueSearchOptions(limit: 5))
        } catch is DialogueQueryError {
            // a clean, one-line error
        }
    }
}
