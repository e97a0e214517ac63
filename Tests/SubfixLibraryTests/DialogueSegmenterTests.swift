import Foundation
import SubDB
import Testing

@testable import SubfixLibrary

@Suite struct DialogueSegmenterTests {
    func tokens(_ text: String, fold: Bool = false) -> [String] {
        DialogueSegmenter(foldsChinese: fold).tokens(in: text).map(\.text)
    }

    func ranges(_ text: String) -> [Range<Int>] {
        DialogueSegmenter().tokens(in: text).map(\.range)
    }

    @Test func oneTokenPerCJKCharacterAndFoldedWords() {
        #expect(tokens("你好, Café!") == ["你", "好", "cafe"])
        #expect(ranges("你好, Café!") == [0..<3, 3..<6, 8..<13])
        #expect(tokens("ひらがなとカタカナ") == ["ひ", "ら", "が", "な", "と", "カ", "タ", "カ", "ナ"])
        #expect(tokens("한국어도") == ["한", "국", "어", "도"])
        #expect(tokens("2024年HeLLo") == ["2024", "年", "hello"])
        #expect(tokens("l'été") == ["l", "ete"])
        #expect(tokens("Straße ΑΘΗΝΑ") == ["straße", "αθηνα"])
    }

    @Test func fullWidthAndHalfWidthFormsAreNormalized() {
        #expect(tokens("ＡＢＣ１２３") == ["abc123"])
        #expect(ranges("ＡＢＣ") == [0..<9])
        #expect(tokens("ｶﾞｷ") == ["ガ", "キ"])
        #expect(ranges("ｶﾞｷ") == [0..<6, 6..<9])
        #expect(tokens("か\u{3099}") == ["が"])
        #expect(tokens("Ｈｅｌｌｏ，世界！") == ["hello", "世", "界"])
    }

    @Test func combiningMarksNeverMakeTokensOfTheirOwn() {
        #expect(tokens("你\u{301}好") == ["你", "好"])
        #expect(ranges("你\u{301}好") == [0..<5, 5..<8])
        #expect(tokens("\u{301}") == [])
        #expect(tokens("\u{301}\u{308} \u{20DD}") == [])
        #expect(tokens("e\u{301}cole") == ["ecole"])
    }

    @Test func traditionalChineseFoldsOnlyWhenAsked() {
        #expect(tokens("電視機") == ["電", "視", "機"])
        #expect(tokens("電視機", fold: true) == ["电", "视", "机"])
        #expect(DialogueSegmenter(foldsChinese: true).tokens(in: "電視").map(\.range) == [0..<3, 3..<6])
        #expect(tokens("电视 TV", fold: true) == ["电", "视", "tv"])
    }

    @Test func invalidUTF8SeparatesTokens() {
        let bytes: [UInt8] = [0x61, 0xE4, 0xBD, 0x62, 0xFF, 0xE4, 0xBD, 0xA0]
        var found: [(String, Range<Int>)] = []
        bytes.withUnsafeBufferPointer { buffer in
            DialogueSegmenter().segment(buffer) { token, range in
                found.append((String(decoding: token, as: UTF8.self), range))
            }
        }
        #expect(found.map(\.0) == ["a", "b", "你"])
        #expect(found.map(\.1) == [0..<1, 3..<4, 5..<8])
    }

    @Test func emptyAndSeparatorOnlyTextHasNoTokens() {
        #expect(tokens("") == [])
        #expect(tokens("  ，。！？… \n\t") == [])
        #expect(tokens("\u{0}") == [])
    }
}
