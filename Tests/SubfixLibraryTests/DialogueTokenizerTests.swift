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
}
