import SubCore
import Testing

/// Vector drawings (`\p1`) are shapes, not words: they stay out of the dialogue index (issue 16, item 14).
@Suite struct DrawingDialogueTests {
    static let header = """
        [Script Info]
        ScriptType: v4.00+

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """

    @Test func drawingLinesAndRunsAreNotDialogue() throws {
        let text =
            Self.header
            + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\p1}m 1176.9 68.21 l 1180 70 1190 80{\\p0}\n"
            + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\an7\\pos(10,10)\\p2}m 0 0 l 100 0 100 100\n"
            + "Dialogue: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,你好{\\p1}m 0 0 l 5 5{\\p0}世界\n"
            + "Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\pos(1,2)\\pbo0}m 1 l 2\n"
        let document = try ASSDocument(utf8: Array(text.utf8), file: "d.ass")
        let lines = try document.dialogueLines()
        #expect(lines.map(\.plainText) == ["你好世界", "m 1 l 2"])
        #expect(lines.map(\.startMilliseconds) == [2000, 3000])
    }
}
