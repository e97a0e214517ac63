import Testing

@testable import SubCore

@Suite struct EventTextRunsTests {
    let style = AssStyle(name: "Default", fontName: "Arial", isBold: false, isItalic: false)

    /// `\fn` inside `\t(...)` ends at the `)`, as libass and the rewriter read it: a fixed file names the fixed
    /// font, not `Noto Sans CJK SC)` (issue 16, item 13).
    @Test(arguments: [
        "{\\t(\\fnNoto Sans CJK SC)}字", "{\\t(0,500,\\fnNoto Sans CJK SC)}字", "{\\t(\\fnNoto Sans CJK SC )\\b1}字",
    ])
    func fontNameInsideAnimationStopsAtTheParenthesis(_ text: String) {
        let runs = EventTextRuns.split(text, style: style, styles: [style])
        #expect(runs.map(\.font.name) == ["Noto Sans CJK SC"])
        #expect(runs.map(\.text) == ["字"])
    }

    /// Outside `\t(...)` a `)` is part of the name, as libass reads it.
    @Test func fontNameOutsideAnimationKeepsItsParenthesis() {
        let runs = EventTextRuns.split("{\\fnA (B)}字", style: style, styles: [style])
        #expect(runs.map(\.font.name) == ["A (B)"])
    }
}
