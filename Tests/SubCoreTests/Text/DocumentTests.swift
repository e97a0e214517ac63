import SubCore
import Testing

@Suite struct DocumentTests {
    /// Every sample: decode, parse, write unchanged, encode back in its own encoding: the same bytes.
    @Test(arguments: textSampleNames)
    func roundTripIsIdentity(name: String) throws {
        let bytes = try sampleBytes(name)
        let decoded = try TextDecoder.decode(bytes, file: name)
        let format = try #require(SubtitleFormat(path: name))
        let document = try SubtitleDocument(decoded.utf8, format: format, file: name)
        #expect(document.utf8 == decoded.utf8)
        let written = try TextDecoder.encode(
            document.utf8, as: decoded.encoding,
            byteOrderMark: decoded.hasByteOrderMark, file: name)
        #expect(written == bytes)
        #expect(try !document.dialogueLines().isEmpty)
    }

    @Test func linesEndOnlyAtLineFeedCarriageReturnOrBoth() {
        let text = utf8("a\u{2028}b\u{85}c\r\nd\re\nf")
        let lines = TextLines.split(text)
        #expect(lines.count == 4)
        #expect(
            lines.map { String(decoding: text[$0.content], as: UTF8.self) } == ["a\u{2028}b\u{85}c", "d", "e", "f"])
        #expect(lines.map { $0.next - $0.end } == [2, 1, 1, 0])
    }

    @Test func assSectionsStylesAndEvents() throws {
        let document = try ASSDocument(utf8: sampleBytes("yahei-styles.ass"), file: "yahei-styles.ass")
        #expect(
            document.sections.map(\.name) == [
                "Script Info", "Aegisub Project Garbage", "V4+ Styles", "Events", "Fonts",
            ])
        #expect(document.sections.map(\.kind) == [.scriptInfo, .other, .styles, .events, .other])
        #expect(document.styles.map(\.name) == ["Default", "微软雅黑", "Sign", "Vertical", "Credits"])
        #expect(document.styles.map(\.fontName) == ["微软雅黑", "方正准圆_GBK ", "SimHei", "@微软雅黑", "Arial"])
        #expect(document.events.count == 9)
        #expect(document.events.filter(\.isComment).count == 1)
        let lines = try document.dialogueLines()
        #expect(lines.count == 8)
        #expect(
            lines[1]
                == DialogueLine(
                    startMilliseconds: 3600, endMilliseconds: 6200, style: "Default",
                    rawText: "{\\fn方正准圆_GBK\\fs60}雨停了,{\\i1}你还要等吗？{\\i0}", plainText: "雨停了,你还要等吗？"))
        // An override block without its closing brace is text.
        #expect(lines[5].plainText == "路径是 D:\\fnatic\\clips，大括号{没有闭合 \\fnSimSun")
    }

    @Test func fieldPositionsComeFromEachSectionsFormatLine() throws {
        let document = try ASSDocument(utf8: sampleBytes("reordered-ja.ass"), file: "reordered-ja.ass")
        #expect(document.styles.map(\.fontName) == ["ＭＳ ゴシック", "@Yu Gothic UI", "Meiryo"])
        let lines = try document.dialogueLines()
        #expect(lines[0].plainText == "明日の朝、駅の\u{2028}前で\u{85}待っています。")
        #expect(lines[4].plainText == "e\n한국어도 한 줄, ok")
        let ssa = try ASSDocument(utf8: sampleBytes("legacy.ssa"), file: "legacy.ssa")
        #expect(ssa.styles.map(\.fontName) == ["宋体", "楷体_GB2312"])
        #expect(try ssa.dialogueLines().map(\.style) == ["Default", "Top"])
    }

    @Test func srtToleratesDamage() throws {
        let document = try SRTDocument(utf8: sampleBytes("font-tags.srt"), file: "font-tags.srt")
        #expect(document.cues.count == 6)
        #expect(document.cues.map(\.startMilliseconds) == [1000, 3300, 6000, 8500, 10100, 12100])
        #expect(document.cues[3].indexLine == nil)
        let lines = document.dialogueLines()
        #expect(lines[1].plainText == "你听见了吗？")
        #expect(lines[4].plainText == "只有大小，没有字体\n宋体 这两个字只是文字")
    }

    @Test func anArrowInDialogueIsText() throws {
        let text = "1\n00:00:01,000 --> 00:00:02,000\nLeft --> right\n\n2\n00:00:03,000 --> 00:00:04,000\nok\n"
        let document = try SRTDocument(utf8: utf8(text), file: "a.srt")
        #expect(document.dialogueLines().map(\.plainText) == ["Left --> right", "ok"])
    }

    @Test func webVTTBlocks() throws {
        let document = try WebVTTDocument(utf8: sampleBytes("cues.vtt"), file: "cues.vtt")
        #expect(document.blocks.map(\.kind) == [.header, .style, .note, .region, .cue, .cue, .cue, .note, .cue])
        let cues = document.blocks.filter { $0.kind == .cue }
        #expect(cues.map(\.settings) == ["align:center line:85%", "position:10% align:start", "vertical:rl", ""])
        #expect(cues[2].startMilliseconds == 5600)
        let lines = document.dialogueLines()
        #expect(lines[1].plainText == "海风吹过 每一条船")
        #expect(lines[2].plainText == "港みなとの朝")
    }

    @Test(arguments: [
        (
            "1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:01:02.5x --> 00:01:03,000\nbad\n", SubtitleFormat.srt,
            "m.srt:6:1: malformed timestamp '00:01:02.5x' (expected HH:MM:SS,mmm)"
        ),
        ("1\n00:00:01,000 -->  1:2\n", .srt, "m.srt:2:19: malformed timestamp '1:2' (expected HH:MM:SS,mmm)"),
        ("hello\nworld\n", .srt, "m.srt:1:1: not a SubRip file (no 'HH:MM:SS,mmm --> HH:MM:SS,mmm' timing line)"),
        (
            "Title: x\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,hi\n", .ass,
            "m.srt:1:1: not an ASS/SSA script (no section header such as [Script Info] or [Events])"
        ),
        (
            "1\n00:00:01.000 --> 00:00:02.000\n", .vtt,
            "m.srt:1:1: missing 'WEBVTT' header (expected the first line to start with WEBVTT)"
        ),
        (
            "WEBVTT\n\n00:00:01.000 --> 00:0x:02.000\nhi\n", .vtt,
            "m.srt:3:18: malformed timestamp '00:0x:02.000' (expected HH:MM:SS.mmm)"
        ),
    ])
    func malformedStructure(text: String, format: SubtitleFormat, message: String) {
        do {
            _ = try SubtitleDocument(utf8(text), format: format, file: "m.srt")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func assTimesAreChecked() throws {
        let text =
            "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: 0,0:00:0x.00,0:00:02.00,Default,,0,0,0,,hi\n"
        let document = try ASSDocument(utf8: utf8(text), file: "t.ass")
        #expect(
            throws: SubtitleParseError(
                file: "t.ass", line: 3, column: 13,
                message: "malformed time '0:00:0x.00' (expected H:MM:SS.cc)")
        ) { try document.dialogueLines() }
    }
}
