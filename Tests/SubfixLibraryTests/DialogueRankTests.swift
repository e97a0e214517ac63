import SubDB
import Testing

@testable import SubfixLibrary

@Suite struct DialogueRankTests {
    @Test(arguments: [
        (#""你 好""#, true), (#""wor" *"#, true), (#""a""b""#, true), (#""a" AND "b""#, false),
        (#"("a") OR ("b")"#, false), (#"("a") NOT "b""#, false), ("", false),
    ])
    func singlePhrases(expression: String, single: Bool) {
        #expect(DialogueRank.isSinglePhrase(expression) == single)
    }

    @Test func everyQueryOfTheLanguageIsRecognized() throws {
        #expect(DialogueRank.isSinglePhrase(try DialogueQuery("你好").expression))
        #expect(DialogueRank.isSinglePhrase(try DialogueQuery("caf*").expression))
        #expect(!DialogueRank.isSinglePhrase(try DialogueQuery("你好 -再见").expression))
        #expect(!DialogueRank.isSinglePhrase(try DialogueQuery("a b").expression))
    }
}
