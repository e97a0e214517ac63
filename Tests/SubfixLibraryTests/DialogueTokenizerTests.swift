import SubDB
import Testing

@testable import SubfixLibrary

/// The dialogue tokenizer through SubDB's FTS5 API, as any custom tokenizer.
@Suite struct DialogueTokenizerTests {
    @Test func customTokenizersWorkInCreateVirtualTable() throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(tokenizer: DialogueTokenizer.self) }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.create(virtualTable: "dialogue", using: FTS5()) { t in
                t.tokenizer = DialogueTokenizer.tokenizerDescriptor(arguments: ["fold"])
                t.column("text")
            }
            try db.execute(sql: "INSERT INTO dialogue (text) VALUES ('電視機'), ('电视'), ('你，好')")
            let rows = try String.fetchAll(
                db, sql: "SELECT highlight(dialogue, 0, '[', ']') FROM dialogue WHERE dialogue MATCH ? ORDER BY rowid",
                arguments: [try DialogueQuery("电视").expression])
            #expect(rows == ["[電視]機", "[电视]"])
            #expect(try Int.fetchOne(db, sql: #"SELECT count(*) FROM dialogue WHERE dialogue MATCH '"你 好"'"#) == 0)
            do {
                try db.create(virtualTable: "bad", using: FTS5()) { t in
                    t.tokenizer = DialogueTokenizer.tokenizerDescriptor(arguments: ["nope"])
                    t.column("text")
                }
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "error in tokenizer constructor")
            }
        }
    }

    /// The terms a table holds for `text`, through `fts5vocab`, with the tokenizer's `arguments`.
    static func terms(of text: String, arguments: [String]) throws -> [String] {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(tokenizer: DialogueTokenizer.self) }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        return try dbQueue.write { db in
            let tokenize = DialogueTokenizer.tokenizerDescriptor(arguments: arguments).sqlOptionValue
            try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(text, tokenize=\(tokenize))")
            try db.execute(sql: "CREATE VIRTUAL TABLE terms USING fts5vocab(t, 'row')")
            try db.execute(sql: "INSERT INTO t (text) VALUES (?)", arguments: [text])
            return try String.fetchAll(db, sql: "SELECT term FROM terms ORDER BY term")
        }
    }

    @Test func adjacentCJKCharactersAreAlsoIndexedAsPairs() throws {
        // 好 and 世 are not adjacent (a comma between): no pair; nor across a word.
        #expect(
            try Self.terms(of: "你好，世界ab東", arguments: ["fold"]).sorted()
                == ["ab", "世", "世界", "你", "你好", "好", "界", "东"].sorted())
        // The reference stream for tables with positions: no pairs, a boundary token where CJK characters are apart.
        #expect(
            try Self.terms(of: "你好，世界", arguments: ["positions"]).sorted()
                == ["\u{1}", "世", "你", "好", "界"].sorted())
    }

    @Test func aQueryOfTwoCJKCharactersIsTheirPair() throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(tokenizer: DialogueTokenizer.self) }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            let tokenize = DialogueTokenizer.tokenizerDescriptor(arguments: ["fold"]).sqlOptionValue
            try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(text, tokenize=\(tokenize), detail=none)")
            try db.execute(sql: "INSERT INTO t (text) VALUES ('你好'), ('你，好'), ('好你'), ('電視機')")
            func count(_ expression: String) throws -> Int? {
                try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE t MATCH ?", arguments: [expression])
            }
            #expect(try count(#""你好""#) == 1)
            #expect(try count(#""电视""#) == 1)  // folded as the document was
            #expect(try count(#""你""#) == 3)
            #expect(try count(#""視機""#) == 1)
        }
    }
}
