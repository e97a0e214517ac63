import Foundation
import SubDB
import Testing

@Suite("FTS5")
struct FTS5Tests {
    struct Book: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var title: String
        var body: String
    }

    @Test("create(virtualTable:) writes GRDB's CREATE VIRTUAL TABLE")
    func createSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let trace = TracedSQL(db)
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = .porter(wrapping: .unicode61(diacritics: .keep, separators: ["-"]))
                t.column("title")
                t.column("isbn").notIndexed()
                t.prefixes = [3, 2]
                t.columnSize = 0
                t.detail = "column"
            }
            #expect(
                trace.last == """
                    CREATE VIRTUAL TABLE "document" USING fts5("title", "isbn" UNINDEXED, \
                    tokenize='porter unicode61 remove_diacritics 0 separators ''-''', prefix='2 3', columnsize=0, \
                    detail=column)
                    """)
            try db.create(virtualTable: "contentless", options: .ifNotExists, using: FTS5()) { t in
                t.content = ""
                t.column("body")
            }
            #expect(trace.last == #"CREATE VIRTUAL TABLE IF NOT EXISTS "contentless" USING fts5("body", content='')"#)
            try db.create(virtualTable: "contentless", ifNotExists: true, using: FTS5()) { t in t.column("body") }
        }
    }

    @Test(
        "Tokenizer descriptors",
        arguments: [
            (FTS5TokenizerDescriptor.unicode61(), ["unicode61"]),
            (
                .unicode61(diacritics: .remove, categories: "L* N*"),
                ["unicode61", "remove_diacritics", "2", "categories", "'L* N*'"]
            ),
            (.unicode61(tokenCharacters: ["_", "-"]), ["unicode61", "tokenchars", "'-_'"]),
            (.ascii(separators: ["x"], tokenCharacters: ["."]), ["ascii", "separators", "'x'", "tokenchars", "'.'"]),
            (.porter(), ["porter"]),
            (.trigram(), ["trigram"]),
            (.trigram(caseSensitive: true), ["trigram", "case_sensitive", "1"]),
        ])
    func descriptors(descriptor: FTS5TokenizerDescriptor, components: [String]) {
        #expect(descriptor.components == components)
    }

    @Test("A table without columns is an error, not a trap")
    func noColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "empty", using: FTS5()) { _ in }
            }
            #expect(error?.message == "FTS5 virtual table requires at least one column")
        }
    }

    @Test(
        "Invalid raw patterns throw SQLite's message",
        arguments: [
            ("AND", #"SQLite error 1: fts5: syntax error near "AND""#),
            ("\"unterminated", #"SQLite error 1: unterminated string"#),
            ("foo AND (bar", #"SQLite error 1: fts5: syntax error near """#),
            ("missing: foo", #"SQLite error 1: no such column: missing"#),
            ("NOT", #"SQLite error 1: fts5: syntax error near "NOT""#),
        ])
    func invalidPatterns(raw: String, message: String) {
        let error = #expect(throws: DatabaseError.self) { try FTS5Pattern(rawPattern: raw) }
        #expect(error?.description == message)
    }

    @Test("Valid raw patterns, and column filters allowed by the table")
    func validPatterns() throws {
        #expect(try FTS5Pattern(rawPattern: "and").rawPattern == "and")
        #expect(
            try FTS5Pattern(rawPattern: "sqlite AND (database OR engine)").rawPattern
                == "sqlite AND (database OR engine)")
        #expect(try FTS5Pattern(rawPattern: "title: sql*", allowedColumns: ["title"]).rawPattern == "title: sql*")
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.column("title")
                t.column("body")
            }
            #expect(try db.makeFTS5Pattern(rawPattern: "body: moby", forTable: "book").rawPattern == "body: moby")
            #expect(throws: DatabaseError.self) { try db.makeFTS5Pattern(rawPattern: "author: x", forTable: "book") }
        }
    }

    @Test("Patterns built from user input; nil when there is no token")
    func builtPatterns() {
        #expect(FTS5Pattern(matchingAllTokensIn: "SQLite, the Database!")?.rawPattern == "sqlite the database")
        #expect(FTS5Pattern(matchingAnyTokenIn: "foo bar")?.rawPattern == "foo OR bar")
        #expect(FTS5Pattern(matchingAllPrefixesIn: "foo bar")?.rawPattern == "foo* bar*")
        #expect(FTS5Pattern(matchingPhrase: "Foo  bar")?.rawPattern == "\"foo bar\"")
        #expect(FTS5Pattern(matchingPrefixPhrase: "the word")?.rawPattern == "^\"the word\"")
        #expect(FTS5Pattern(matchingAllTokensIn: "AND OR NOT")?.rawPattern == "and or not")
        // As in GRDB, diacritics and non-ASCII letters are left to the table's tokenizer.
        #expect(FTS5Pattern(matchingAllTokensIn: "Élan Doré")?.rawPattern == "Élan doré")
        for empty in ["", "   ", "...", "\"*()"] {
            #expect(FTS5Pattern(matchingAllTokensIn: empty) == nil)
            #expect(FTS5Pattern(matchingAnyTokenIn: empty) == nil)
            #expect(FTS5Pattern(matchingAllPrefixesIn: empty) == nil)
            #expect(FTS5Pattern(matchingPhrase: empty) == nil)
        }
    }

    /// Issue #31, item 6: a pattern built from `écarlate` used to be `ecarlate`, which a table that keeps
    /// diacritics never matches.
    @Test("Patterns from user input keep diacritics for tables that keep them")
    func builtPatternsKeepDiacritics() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "keep", using: FTS5()) { t in
                t.tokenizer = .unicode61(diacritics: .keep)
                t.column("body")
            }
            try db.create(virtualTable: "fold", using: FTS5()) { t in
                t.tokenizer = .unicode61()
                t.column("body")
            }
            for table in ["keep", "fold"] {
                try db.execute(sql: "INSERT INTO \(table) (body) VALUES ('Une robe écarlate'), ('Un ciel bleu')")
            }
            let patterns = [
                FTS5Pattern(matchingAnyTokenIn: "écarlate"), FTS5Pattern(matchingAllTokensIn: "robe Écarlate"),
                FTS5Pattern(matchingPhrase: "robe écarlate"), FTS5Pattern(matchingAllPrefixesIn: "écar"),
            ]
            for pattern in patterns {
                let pattern = try #require(pattern)
                for table in ["keep", "fold"] {
                    let bodies = try String.fetchAll(
                        db, sql: "SELECT body FROM \(table) WHERE \(table) MATCH ?", arguments: [pattern])
                    #expect(bodies == ["Une robe écarlate"], "\(table): \(pattern)")
                }
            }
        }
    }

    @Test("matching(_:) with rank ordering; patterns as statement arguments")
    func matching() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.column("id").notIndexed()
                t.column("title")
                t.column("body")
            }
            try Book(id: 1, title: "Moby Dick", body: "Call me Ishmael. The whale, the whale, the whale.").insert(db)
            try Book(id: 2, title: "Whale watching", body: "A guide.").insert(db)
            try Book(id: 3, title: "SQLite", body: "A database engine.").insert(db)
            let trace = TracedSQL(db)
            let pattern = FTS5Pattern(matchingAllTokensIn: "whale")
            let books = try Book.matching(pattern).order(Column.rank).fetchAll(db)
            #expect(trace.last == #"SELECT * FROM "book" WHERE "book" MATCH ? ORDER BY "rank""#)
            #expect(Set(books.map(\.id)) == [1, 2])
            #expect(try Book.matching(nil).fetchAll(db).isEmpty)
            let ranked = try Book.matching(pattern).order(bm25("book", 0.0, 10.0, 1.0)).fetchAll(db)
            #expect(ranked.first?.id == 2)
            #expect(trace.last == #"SELECT * FROM "book" WHERE "book" MATCH ? ORDER BY bm25("book", 0.0, 10.0, 1.0)"#)
            let raw = try FTS5Pattern(rawPattern: "engine OR ishmael")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE book MATCH ?", arguments: [raw]) == 2)
            #expect(
                try Book.filter(Column("title").match(FTS5Pattern(matchingPhrase: "moby dick"))).fetchCount(db) == 1)
        }
    }

    @Test("synchronize(withTable:) indexes existing rows and follows inserts, updates and deletes")
    func synchronized() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.column("author", .text)
            }
            try db.execute(sql: "INSERT INTO book (title, author) VALUES ('Moby Dick', 'Melville')")
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
                t.column("author")
            }
            #expect(try db.triggerExists("__book_ft_ai"))
            func count(_ query: String) throws -> Int? {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH ?", arguments: [query])
            }
            #expect(try count("melville") == 1)
            try db.execute(sql: "INSERT INTO book (title, author) VALUES ('Dune', 'Herbert')")
            #expect(try count("herbert") == 1)
            try db.execute(sql: "UPDATE book SET author = 'Frank Herbert' WHERE title = 'Dune'")
            #expect(try count("frank") == 1)
            try db.execute(sql: "DELETE FROM book WHERE title = 'Moby Dick'")
            #expect(try count("melville") == 0)
            let ids = try Int64.fetchAll(db, sql: "SELECT rowid FROM book_ft WHERE book_ft MATCH 'dune'")
            #expect(ids == [2])
            try db.dropFTS5SynchronizationTriggers(forTable: "book_ft")
            #expect(try !db.triggerExists("__book_ft_ai"))
        }
    }

    @Test("unicode61 misses 你好 inside a run of CJK characters; trigram finds it")
    func chinese() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "line61", using: FTS5()) { t in
                t.tokenizer = .unicode61()
                t.column("text")
            }
            try db.create(virtualTable: "line3", using: FTS5()) { t in
                t.tokenizer = .trigram()
                t.column("text")
            }
            for table in ["line61", "line3"] {
                try db.execute(sql: "INSERT INTO \(table)(text) VALUES ('你好世界'), ('他说：你好，朋友'), ('再见')")
            }
            // unicode61 splits on punctuation and spaces only: '你好世界' is a single token.
            #expect(try FTS5.tokenize("你好世界，朋友") == ["你好世界", "朋友"])
            let hello = try #require(FTS5Pattern(matchingPhrase: "你好"))
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM line61 WHERE line61 MATCH ?", arguments: [hello]) == 1)
            // trigram matches any substring of 3+ characters.
            let world = try #require(FTS5Pattern(matchingPhrase: "好世界"))
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM line3 WHERE line3 MATCH ?", arguments: [world]) == 1)
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM line61 WHERE line61 MATCH ?", arguments: [world]) == 0)
            // Two-character queries are too short for trigram MATCH (and SQLite 3.40's trigram LIKE misses
            // multi-byte two-character patterns): scan with instr() for them.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM line3 WHERE instr(text, '你好') > 0") == 2)
        }
    }
}
