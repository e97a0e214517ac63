import SubDB
import Testing

@testable import SubfixLibrary

@Suite struct DialogueRankTests {
    /// `subfix_rank` ranks shorter lines first, counts a term once however often a line holds it, and agrees with
    /// bm25's formula on lines that hold it once.
    @Test(arguments: ["你", "你好", "hello", "东京都", "你 OR hello"])
    func shorterLinesFirstEachTermCountedOnce(query text: String) throws {
        let test = try TestLibrary()
        // Lines of 1 to 6 filler words, holding the query once or three times.
        var texts: [String] = []
        for index in 0..<24 {
            let filler = Array(repeating: "abc", count: 1 + index % 6).joined(separator: " ")
            let match = index % 2 == 0 ? "你好 hello 东京都" : "你好 hello 东京都 你好 hello 东京都 你好 hello 东京都"
            texts.append(index % 2 == 0 ? match + " " + filler + " abc abc abc abc abc abc" : match + " " + filler)
        }
        try test.store(path: "/a.srt", texts: texts)
        let query = try DialogueQuery(text)
        let rows = try test.library.reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT l.id, \(DialogueRank.name)(dialogue_fts) AS rank, l.text FROM dialogue_fts
                    JOIN dialogue_line l ON l.id = dialogue_fts.rowid
                    WHERE dialogue_fts MATCH ? ORDER BY rank, l.id
                    """, arguments: [query.expression])
        }
        #expect(rows.count == 24)
        // The order is by length in index tokens (pairs included), whatever the number of occurrences.
        let segmenter = DialogueSegmenter()
        func length(_ text: String) -> Int {
            let tokens = segmenter.markedTokens(in: text)
            let pairs = zip(tokens, tokens.dropFirst()).filter { $0.isCJK && $1.isCJK }.count
            return tokens.count + pairs
        }
        let lengths = rows.map { length($0["text"]) }
        #expect(lengths == lengths.sorted())
        let ranks: [Double] = rows.map { $0["rank"] }
        #expect(Set(ranks).count > 1)
    }

    /// Two lines of the same length rank the same, although one holds the query twice (bm25 with positions would
    /// put it first).
    @Test func occurrencesAreNotCounted() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["你好 hello 你好 hello", "你好 hello a b c d", "你好 hello a b c d e f g"])
        let ranks = try test.library.reader.read { db in
            try Double.fetchAll(
                db,
                sql:
                    "SELECT \(DialogueRank.name)(dialogue_fts) FROM dialogue_fts WHERE dialogue_fts MATCH ? ORDER BY rowid",
                arguments: [try DialogueQuery("你好").expression])
        }
        #expect(ranks.count == 3)
        #expect(ranks[0] == ranks[1])
        #expect(ranks[2] > ranks[1])
    }
}
