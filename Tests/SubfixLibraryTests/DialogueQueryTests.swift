import Foundation
import SubDB
import Testing

@testable import SubfixLibrary

@Suite struct DialogueQueryTests {
    @Test(arguments: [
        ("你好", #""你 好""#),
        ("你好 -再见", #"("你 好") NOT "再 见""#),
        ("hello world", #""hello" AND "world""#),
        ("a OR b", #"("a") OR ("b")"#),
        ("a b OR c", #"("a" AND "b") OR ("c")"#),
        ("wor*", #""wor" *"#),
        ("Café*", #""cafe" *"#),
        ("你*", #""你""#),
        ("\"quoted phrase\"", #""quoted phrase""#),
        ("“curly”", #""curly""#),
        ("「东京」", #""东 京""#),
        ("\"unclosed", #""unclosed""#),
        ("\"OR\"", #""or""#),
        ("NEAR(", #""near""#),
        ("NEAR(a b)", #""near a" AND "b""#),
        ("a:b", #""a b""#),
        ("col:你好 ^x", #""col 你 好" AND "x""#),
        ("'; DROP TABLE dialogue_line; --", #""drop" AND "table" AND "dialogue line""#),
        ("a\u{0}b", #""a b""#),
        ("ＡＢＣ", #""abc""#),
        ("OR 你", #""你""#),
        ("你 OR", #""你""#),
    ])
    func translations(query: String, expression: String) throws {
        #expect(try DialogueQuery(query).expression == expression)
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
