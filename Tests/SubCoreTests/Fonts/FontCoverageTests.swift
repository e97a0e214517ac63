import Testing

@testable import SubCore

@Suite struct FontCoverageTests {
    @Test func mergesScalarsIntoRangesAndAnswersMembership() {
        let coverage = FontCoverage(scalars: [0x43, 0x41, 0x42, 0x42, 0x4E2D, 0x4E2E, 0x1F600])
        #expect(coverage.ranges == [0x41...0x43, 0x4E2D...0x4E2E, 0x1F600...0x1F600])
        #expect(coverage.count == 6)
        #expect(coverage.contains("中"))
        #expect(!coverage.contains("D"))
        #expect(!coverage.contains(value: 0x40))
        #expect(coverage.contains(value: 0x1F600))
        #expect(!FontCoverage().contains("A"))
    }

    @Test func reportsMissingCharactersOnceInOrderAndIgnoresInvisibleOnes() {
        let coverage = FontCoverage(scalars: "AB中".unicodeScalars.map(\.value))
        #expect(coverage.missing(in: "A文B文 \u{3000}\u{200B}\n字\u{FE0F}") == ["文", "字"])
        #expect(coverage.missing(in: "") == [])
    }

    @Test func countsCharactersPerScript() {
        let coverage = FontCoverage(scalars: "Abc中文かなカ한€".unicodeScalars.map(\.value))
        let counts = Dictionary(uniqueKeysWithValues: coverage.scriptCounts.map { ($0.script, $0.count) })
        #expect(counts == [.latin: 3, .han: 2, .hiragana: 2, .katakana: 1, .hangul: 1, .other: 1])
    }
}
