import Foundation
import SubDB
import Synchronization
import Testing

/// Live instances of the test tokenizers, to check that FTS5 releases every one.
let liveTokenizers = Mutex<Int>(0)

/// Splits on spaces; lowercases; `fail` as an argument makes the constructor throw, the token `boom` makes
/// tokenization fail.
final class SpaceTokenizer: FTS5CustomTokenizer {
    static let name = "space"
    struct Refused: Error {}

    init(db: Database, arguments: [String]) throws {
        if arguments.contains("fail") { throw Refused() }
        liveTokenizers.withLock { $0 += 1 }
    }

    deinit { liveTokenizers.withLock { $0 -= 1 } }

    func tokenize(
        context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization, pText: UnsafePointer<CChar>?,
        nText: Int32, tokenCallback: FTS5TokenCallback
    ) -> Int32 {
        guard let pText, nText > 0 else { return 0 }
        let bytes = UnsafeRawBufferPointer(start: pText, count: Int(nText))
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x20 {
            if index > start {
                let word = String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
                if word == "boom" { return 1 }
                var copy = word
                let code = copy.withUTF8 { buffer in
                    buffer.withMemoryRebound(to: CChar.self) {
                        tokenCallback(context, 0, $0.baseAddress, Int32($0.count), Int32(start), Int32(index))
                    }
                }
                if code != 0 { return code }
            }
            start = index + 1
        }
        return 0
    }
}

/// unicode61, without the stop word `the`, with `tv` as a synonym of `television`.
final class SynonymTokenizer: FTS5WrapperTokenizer {
    static let name = "synonyms"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(
        token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback
    ) throws {
        if token == "the" { return }
        if token == "crash" { throw SpaceTokenizer.Refused() }
        try tokenCallback(token, flags)
        if token == "television", !tokenization.contains(.query) { try tokenCallback("tv", .colocated) }
    }
}

/// Serialized: `tokenizersAreReleasedWithTheConnection` counts the live test tokenizers of the whole suite.
@Suite(.serialized) struct FTS5TokenizerTests {
    func makeQueue() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(tokenizer: SpaceTokenizer.self)
            db.add(tokenizer: SynonymTokenizer.self)
        }
        return try DatabaseQueue(configuration: configuration)
    }

    @Test func builtInTokenizers() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            let unicode61 = try db.makeTokenizer(.unicode61())
            #expect(try unicode61.tokenize(document: "Hello, Wörld 你好世界") == ["hello", "world", "你好世界"])
            let keep = try db.makeTokenizer(.unicode61(diacritics: .keep))
            #expect(try keep.tokenize(document: "Wörld") == ["wörld"])
            let trigram = try db.makeTokenizer(.trigram())
            #expect(try trigram.tokenize(document: "你好世界") == ["你好世", "好世界"])
            let porter = try db.makeTokenizer(.porter())
            #expect(try porter.tokenize(query: "running") == ["run"])
        }
    }

    @Test func unknownTokenizersAndArgumentsAreErrors() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            #expect(throws: DatabaseError.self) { try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["nope"])) }
            do {
                _ = try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["nope"]))
            } catch let error as DatabaseError {
                #expect(error.message == "no such tokenizer: nope")
            }
            do {
                _ = try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["unicode61", "bad_option", "1"]))
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "cannot create tokenizer unicode61 bad_option 1")
            }
        }
    }

    @Test func customTokenizerIndexesAndHighlights() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try db.execute(
                sql:
                    "CREATE VIRTUAL TABLE doc USING fts5(body, tokenize=\(SpaceTokenizer.tokenizerDescriptor().sqlOptionValue))"
            )
            try db.execute(sql: "INSERT INTO doc (body) VALUES ('Hello big World'), ('small world')")
            let rows = try String.fetchAll(
                db, sql: "SELECT highlight(doc, 0, '[', ']') FROM doc WHERE doc MATCH 'world' ORDER BY rowid")
            #expect(rows == ["Hello big [World]", "small [world]"])
            // A token made by the Swift tokenizer found through xFindTokenizer.
            let space = try db.makeTokenizer(SpaceTokenizer.tokenizerDescriptor())
            #expect(try space.tokenize("A b", for: .query).map(\.token) == ["a", "b"])
        }
    }

    @Test func wrapperTokenizerDropsAndAddsColocatedTokens() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            let tokenizer = try db.makeTokenizer(SynonymTokenizer.tokenizerDescriptor())
            let tokens = try tokenizer.tokenize("The Television", for: .document)
            #expect(tokens.map(\.token) == ["television", "tv"])
            #expect(tokens.map(\.flags) == [[], .colocated])
            try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(body, tokenize='synonyms')")
            try db.execute(sql: "INSERT INTO doc (body) VALUES ('the old Television set')")
            let rows = try String.fetchAll(db, sql: "SELECT highlight(doc, 0, '[', ']') FROM doc WHERE doc MATCH 'tv'")
            #expect(rows == ["the old [Television] set"])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM doc WHERE doc MATCH 'the'") == 0)
        }
    }

    /// `add(tokenizer:)` bound the `fts5_api` pointer with a Swift string that lived only during the bind call,
    /// while SQLite compares it when the statement runs (issue 31, item 1): a registration could silently not
    /// happen. Connections opened from several threads at once, each with heap churn between the calls, all get
    /// the wrapper tokenizer.
    @Test func everyConnectionRegistersTheWrapperTokenizer() throws {
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 40) { round in
            do {
                let dbQueue = try makeQueue()
                try dbQueue.write { db in
                    let noise = (0..<64).map { String(repeating: "x", count: $0 + round) }
                    try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(body, tokenize='synonyms')")
                    try db.execute(sql: "INSERT INTO doc (body) VALUES ('a Television \(noise.count)')")
                    let found = try Int.fetchOne(db, sql: "SELECT count(*) FROM doc WHERE doc MATCH 'tv'")
                    if found != 1 { failures.withLock { $0 += 1 } }
                }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test func swiftErrorsBecomeSQLiteErrors() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            do {
                try db.execute(sql: "CREATE VIRTUAL TABLE bad USING fts5(body, tokenize='space fail')")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message == "error in tokenizer constructor")
            }
            try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(body, tokenize='space')")
            do {
                try db.execute(sql: "INSERT INTO doc (body) VALUES ('it goes boom')")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message == "SQL logic error")
            }
            try db.execute(sql: "CREATE VIRTUAL TABLE syn USING fts5(body, tokenize='synonyms')")
            do {
                try db.execute(sql: "INSERT INTO syn (body) VALUES ('do not crash')")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message == "SQL logic error")
            }
        }
    }

    @Test func tokenizersAreReleasedWithTheConnection() throws {
        let before = liveTokenizers.withLock { $0 }
        do {
            let dbQueue = try makeQueue()
            try dbQueue.write { db in
                try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(body, tokenize='space')")
                try db.execute(sql: "INSERT INTO doc (body) VALUES ('a b c')")
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM doc WHERE doc MATCH 'b'") == 1)
            }
            #expect(liveTokenizers.withLock { $0 } > before)
        }
        #expect(liveTokenizers.withLock { $0 } == before)
    }

    /// Issue #31, item 1: `fts5API()` bound its pointer type as a temporary C string, which SQLite keeps and
    /// compares later; in debug builds the wrapper was then silently not registered ("no such tokenizer").
    /// Registered here on a bare connection, after other strings were made and freed, and used through the
    /// query interface.
    @Test func wrapperTokenizerRegisteredOnABareConnectionIsUsable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            for index in 0..<64 { _ = String(repeating: "x", count: 16 + index).utf8CString }
            db.add(tokenizer: SynonymTokenizer.self)
            try db.create(virtualTable: "notes", using: FTS5()) { t in
                t.tokenizer = SynonymTokenizer.tokenizerDescriptor()
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO notes (body) VALUES ('the new television'), ('a radio')")
            let matches = try String.fetchAll(db, sql: "SELECT body FROM notes WHERE notes MATCH 'tv'")
            #expect(matches == ["the new television"])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM notes WHERE notes MATCH 'radio'") == 1)
        }
    }

    @Test func descriptorQuotesItsComponents() throws {
        #expect(
            FTS5TokenizerDescriptor.unicode61(diacritics: .remove).sqlOptionValue
                == "'unicode61 remove_diacritics 2'")
        #expect(FTS5TokenizerDescriptor(components: ["it's", "a b"]).sqlOptionValue == #"'''it''''s'' ''a b'''"#)
        #expect(FTS5TokenizerDescriptor.porter(wrapping: .ascii()).components == ["porter", "ascii"])
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            let descriptor = FTS5TokenizerDescriptor(components: ["unicode61", "tokenchars", "'-"])
            try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(body, tokenize=\(descriptor.sqlOptionValue))")
            try db.execute(sql: "INSERT INTO doc (body) VALUES ('rock-n-roll isn''t')")
            #expect(try Int.fetchOne(db, sql: #"SELECT count(*) FROM doc WHERE doc MATCH '"rock-n-roll"'"#) == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM doc WHERE doc MATCH '\"isn''t\"'") == 1)
        }
    }
}
