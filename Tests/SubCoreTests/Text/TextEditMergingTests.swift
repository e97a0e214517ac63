import SubCore
import Testing

/// Two rounds of edits (font names, then embedded fonts) expressed as edits of the original text.
@Suite struct TextEditMergingTests {
    @Test func secondRoundMapsBackThroughTheFirst() {
        let original = Array("A=xx; B=yyyy; C".utf8)
        let first = [
            TextEdit(range: 2..<4, replacement: Array("LONGER".utf8)),
            TextEdit(range: 8..<12, replacement: Array("z".utf8)),
        ]
        let once = TextEdit.apply(first, to: original)
        #expect(String(decoding: once, as: UTF8.self) == "A=LONGER; B=z; C")
        // Insert before "C" and replace "A" in the edited text.
        let then = [
            TextEdit(range: 0..<1, replacement: Array("a".utf8)),
            TextEdit(range: 15..<15, replacement: Array("+".utf8)),
        ]
        let twice = TextEdit.apply(then, to: once)
        let merged = TextEdit.merging(first, then)
        #expect(TextEdit.apply(merged, to: original) == twice)
        #expect(zip(merged, merged.dropFirst()).allSatisfy { $0.range.upperBound <= $1.range.lowerBound })
        #expect(TextEdit.merging(first, []) == first)
    }
}
