import SubDB
import Testing

@testable import SubfixLibrary

@Suite struct DialogueRankTests {
    /// For a query of one index term, `subfix_rank` orders the lines as FTS5's `bm25()` does: only the IDF factor,
    /// the same for every line, is left out.
    @Test(arguments: ["你", "你好", "hello"])
    func ordersOneTermAsBM25Does(query text: String) throws {
        let test = try TestLibrary()
        var texts: [String] = []
        for index in 0..<60 {
            let repeats = 1 + index % 4
            let filler = String(repeating: "一二三 abc ", count: index % 7)
            texts.append(String(repeating: "你好 hello ", count: repeats) + filler)
        }
        try test.store(path: "/a.srt", texts: texts)
        let query = try DialogueQuery(text)
        #expect(query.isSinglePhrase && !query.needsVerification)
        let (ours, theirs) = try test.library.reader.read { db in
            let sql = "SELECT rowid FROM dialogue_fts WHERE dialogue_fts MATCH ? ORDER BY %@(dialogue_fts), rowid"
            return (
                try Int64.fetchAll(
                    db, sql: sql.replacingOccurrences(of: "%@", with: DialogueRank.name), arguments: [query.expression]),
                try Int64.fetchAll(
                    db, sql: sql.replacingOccurrences(of: "%@", with: "bm25"), arguments: [query.expression])
            )
        }
        #expect(ours.count == 60)
        #expect(ours == theirs)
    }
}
