import Foundation
import SubDB
import Testing

@testable import SubfixLibrary

@Suite struct DialogueQueryTests {
    /// Each phrase becomes its index terms: a pair for two adjacent CJK characters, a lone character, a word.
    @Test(arguments: [
        ("你好", #""你好""#, false),
        ("你好 -再见", #"("你好") NOT "再见""#, false),
        ("东京都", #""东京" AND "京都""#, true),
        ("你好吗 -再见了", #""你好" AND "好吗""#, true),
        ("hello world", #""hello" AND "world""#, false),
        ("a OR b", #"("a") OR ("b")"#, false),
        ("a b OR c", #"("a" AND "b") OR ("c")"#, false),
        ("wor*", #""wor" *"#, false),
        ("Café*", #""cafe" *"#, false),
        ("你*", #""你""#, false),
        ("\"quoted phrase\"", #""quoted" AND "phrase""#, true),
        ("“curly”", #""curly""#, false),
        ("「东京」", #""东京""#, false),
        ("\"unclosed", #""unclosed""#, false),
        ("\"OR\"", #""or""#, false),
        ("NEAR(", #""near""#, false),
        ("NEAR(a b)", #""near" AND "a" AND "b""#, true),
        ("a:b", #""a" AND "b""#, true),
        ("col:你好 ^x", #""col" AND "你好" AND "x""#, true),
        ("你a好", #""你" AND "a" AND "好""#, true),
        ("'; DROP TABLE dialogue_line; --", #""drop" AND "table" AND "dialogue" AND "line""#, true),
        ("a\u{0}b", #""a" AND "b""#, true),
        ("ＡＢＣ", #""abc""#, false),
        ("OR 你", #""你""#, false),
        ("你 OR", #""你""#, false),
    ])
    func translations(query: String, expression: String, needsVerification: Bool) throws {
        let parsed = try DialogueQuery(query)
        #expect(parsed.expression == expression)
        #expect(parsed.needsVerification == needsVerification)
    }

    @Test func exclusionsAreKeptForTheCheck() throws {
        let query = try DialogueQuery("你好 -再见了 -x")
        #expect(query.excluded.map(\.tokens) == [["再", "见", "了"], ["x"]])
        #expect(query.excluded.map(\.alternative) == [0, 1])
        // The exact exclusion goes to FTS5; the three characters only to the check.
        #expect(query.expression == #"("你好") NOT "x""#)
    }

    @Test(arguments: [
        ("", DialogueQueryError.nothingToSearch),
        ("\"", .nothingToSearch),
        ("*", .nothingToSearch),
        ("-", .nothingToSearch),
        ("OR", .nothingToSearch),
        ("OR OR", .nothingToSearch),
        ("\u{301}", .nothingToSearch),
        ("，。！", .nothingToSearch),
        ("-a", .onlyExclusions),
        ("-你 -\"b c\"", .onlyExclusions),
        (String(repeating: "a ", count: 65), .tooManyTerms(maximum: 64)),
    ])
    func errors(query: String, error: DialogueQueryError) {
        #expect(throws: error) { try DialogueQuery(query) }
    }

    @Test func messagesAreOneLine() {
        #expect(
            "\(DialogueQueryError.nothingToSearch)"
                == "the query has nothing to search for (no letters, digits or CJK characters)")
        #expect("\(DialogueQueryError.onlyExclusions)" == "the query only excludes words: add a word to find")
        #expect("\(DialogueQueryError.tooManyTerms(maximum: 64))" == "the query has more than 64 words")
    }

    @Test func termsAreKeptForDisplay() throws {
        #expect(try DialogueQuery("你好 -再见 cafe").terms == ["你好", "cafe"])
    }
}
