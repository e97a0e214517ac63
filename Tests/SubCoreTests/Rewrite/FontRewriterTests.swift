import SubCore
import Synchronization
import Testing

/// Rewrites `text` as `format` with target "Noto Sans CJK SC" and returns the result.
private func rewritten(_ text: String, _ format: SubtitleFormat, policy: RewritePolicy = .all) throws
    -> (text: String, result: FontRewrite)
{
    let document = try SubtitleDocument(Array(text.utf8), format: format, file: "t")
    let result = FontRewriter(targetFont: "Noto Sans CJK SC", policy: policy).rewrite(document)
    return (String(decoding: TextEdit.apply(result.edits, to: document.utf8), as: UTF8.self), result)
}

private let assHead = """
    [Script Info]\r
    Title: 微软雅黑\r
    \r
    [V4+ Styles]\r
    Format: Name, Fontname, Fontsize\r

    """
private let eventsHead =
    "\r\n[Events]\r\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\r\n"

private func event(_ text: String) -> String { "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,\(text)\r\n" }

@Suite struct FontRewriterTests {
    /// (override text, expected text, \fn tags rewritten)
    @Test(arguments: [
        ("{\\fnSimHei}你好", "{\\fnNoto Sans CJK SC}你好", 1),
        (
            "{\\b1\\fnMicrosoft YaHei\\bord2}a{\\fn微软雅黑}b", "{\\b1\\fnNoto Sans CJK SC\\bord2}a{\\fnNoto Sans CJK SC}b",
            2
        ),
        ("{\\fnA\\fnB}x", "{\\fnNoto Sans CJK SC\\fnNoto Sans CJK SC}x", 2),
        ("{\\t(0,500,\\fnSimHei\\fs70)}x", "{\\t(0,500,\\fnNoto Sans CJK SC\\fs70)}x", 1),
        ("{\\t(\\fnSimHei)}x", "{\\t(\\fnNoto Sans CJK SC)}x", 1),
        ("{\\fn 华文行楷 \\i1}x", "{\\fn Noto Sans CJK SC \\i1}x", 1),
        ("{\\fn@微软雅黑}竖", "{\\fn@Noto Sans CJK SC}竖", 1),
        ("{\\fn}reset{\\fn0}zero", "{\\fn}reset{\\fn0}zero", 0),
        ("D:\\fnatic\\clips and \\fnSimHei outside", "D:\\fnatic\\clips and \\fnSimHei outside", 0),
        ("{never closed \\fnSimHei", "{never closed \\fnSimHei", 0),
        ("{\\fnA}ok{unclosed \\fnB", "{\\fnNoto Sans CJK SC}ok{unclosed \\fnB", 1),
        ("{\\r微软雅黑}style ref kept", "{\\r微软雅黑}style ref kept", 0),
        ("{\\fnNoto Sans CJK SC}already", "{\\fnNoto Sans CJK SC}already", 0),
        ("{\\fnSimHei}\u{301}combining after brace", "{\\fnNoto Sans CJK SC}\u{301}combining after brace", 1),
        ("text, with, commas {\\fnX}", "text, with, commas {\\fnNoto Sans CJK SC}", 1),
        ("{\\FNSimHei}upper case is not a tag", "{\\FNSimHei}upper case is not a tag", 0),
    ])
    func overrideTags(input: String, expected: String, count: Int) throws {
        let (text, result) = try rewritten(
            assHead + "Style: Default,Noto Sans CJK SC,20\r\n" + eventsHead + event(input), .ass)
        #expect(text == assHead + "Style: Default,Noto Sans CJK SC,20\r\n" + eventsHead + event(expected))
        #expect(result.fnTags == count)
        #expect(result.styles == 0)
    }

    /// (Style line, expected)
    @Test(arguments: [
        ("Style: Default,微软雅黑,20", "Style: Default,Noto Sans CJK SC,20"),
        ("Style: Default,方正准圆_GBK ,20", "Style: Default,Noto Sans CJK SC,20"),
        ("Style: Default, SimHei,20", "Style: Default,Noto Sans CJK SC,20"),
        ("Style: Default,@微软雅黑,20", "Style: Default,@Noto Sans CJK SC,20"),
        ("Style: 微软雅黑,微软雅黑,20", "Style: 微软雅黑,Noto Sans CJK SC,20"),
        ("Style: Default,Noto Sans CJK SC ,20", "Style: Default,Noto Sans CJK SC,20"),
        ("Style: Default,Noto Sans CJK SC,20", "Style: Default,Noto Sans CJK SC,20"),
        ("; Style: Default,SimHei,20", "; Style: Default,SimHei,20"),
    ])
    func styleFontnameIsTheWholeField(line: String, expected: String) throws {
        let (text, _) = try rewritten(assHead + line + "\r\n" + eventsHead, .ass)
        #expect(text == assHead + expected + "\r\n" + eventsHead)
    }

    @Test func fontnameFieldFollowsTheFormatLine() throws {
        let input = "[V4+ Styles]\nFormat: Name, Fontsize, Fontname, Bold\nStyle: SimHei,20,SimHei,0\n"
        let (text, result) = try rewritten(input, .ass)
        #expect(text == "[V4+ Styles]\nFormat: Name, Fontsize, Fontname, Bold\nStyle: SimHei,20,Noto Sans CJK SC,0\n")
        #expect(result.styles == 1)
    }

    @Test func everyEventsSectionWithItsOwnFormat() throws {
        let input =
            "[Events]\nFormat: Start, Text, Style\nDialogue: 0:00:01.00,{\\fnA}x,Default\n"
            + "[Events]\nFormat: Layer, Start, End, Style, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,{\\fnB}, a\n"
        let (text, result) = try rewritten(input, .ass)
        #expect(
            text == "[Events]\nFormat: Start, Text, Style\nDialogue: 0:00:01.00,{\\fnNoto Sans CJK SC}x,Default\n"
                + "[Events]\nFormat: Layer, Start, End, Style, Text\n"
                + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,{\\fnNoto Sans CJK SC}, a\n")
        #expect(result.fnTags == 2)
    }

    @Test func fontsAndGraphicsKeepTheirBytes() throws {
        let input =
            "[Events]\nFormat: Text\nDialogue: {\\fnA}x\n[Fonts]\nfontname: a.ttf\n{\\fnA}Style: a,b,c\n"
            + "[Graphics]\nDialogue: {\\fnA}\n"
        let (text, result) = try rewritten(input, .ass)
        #expect(text == input.replacingOccurrences(of: "Dialogue: {\\fnA}x", with: "Dialogue: {\\fnNoto Sans CJK SC}x"))
        #expect(result.fnTags == 1)
    }

    /// (cue text, expected, font tags rewritten)
    @Test(arguments: [
        ("<font face=\"SimHei\">a</font>", "<font face=\"Noto Sans CJK SC\">a</font>", 1),
        ("<font face='SimHei' size=20>a</font>", "<font face='Noto Sans CJK SC' size=20>a</font>", 1),
        ("<FONT COLOR=red FACE=SimHei>a</FONT>", "<FONT COLOR=red FACE=\"Noto Sans CJK SC\">a</FONT>", 1),
        (
            "<font  face = \"A B\"  color=\"#fff\" >a</font>",
            "<font  face = \"Noto Sans CJK SC\"  color=\"#fff\" >a</font>", 1
        ),
        ("<font color=\"#fff\">a</font>", "<font color=\"#fff\">a</font>", 0),
        ("<font face=\"@微软雅黑\">竖</font>", "<font face=\"@Noto Sans CJK SC\">竖</font>", 1),
        ("<font face=\"SimHei\" never closed", "<font face=\"SimHei\" never closed", 0),
        ("<fontface=\"SimHei\">x", "<fontface=\"SimHei\">x", 0),
        ("SimHei <i>SimHei</i>", "SimHei <i>SimHei</i>", 0),
    ])
    func fontTags(cue: String, expected: String, count: Int) throws {
        let srt = "1\n00:00:01,000 --> 00:00:02,000\n\(cue)\n"
        let (text, result) = try rewritten(srt, .srt)
        #expect(text == "1\n00:00:01,000 --> 00:00:02,000\n\(expected)\n")
        #expect(result.fontTags == count)
        let vtt = "WEBVTT\n\nNOTE \(cue)\n\n00:01.000 --> 00:02.000 align:start\n\(cue)\n"
        let (vttText, _) = try rewritten(vtt, .vtt)
        #expect(vttText == "WEBVTT\n\nNOTE \(cue)\n\n00:01.000 --> 00:02.000 align:start\n\(expected)\n")
    }

    @Test func cjkPolicyLeavesUnknownNamesAndReportsThem() throws {
        let input =
            assHead + "Style: A,Arial,20\r\nStyle: B,ＭＳ ゴシック,20\r\nStyle: C,Foo Sans,20\r\n" + eventsHead
            + event("{\\fnArial}a{\\fnFZLanTingHei-R-GBK}b{\\fnmicrosoft yahei}c")
        let (text, result) = try rewritten(input, .ass, policy: .cjk(also: ["FOO SANS"]))
        #expect(result.unknownFonts == ["Arial"])
        #expect(result.styles == 2)
        #expect(result.fnTags == 2)
        #expect(text.contains("Style: A,Arial,20") && text.contains("{\\fnArial}a{\\fnNoto Sans CJK SC}b"))
    }

    @Test func customPolicySeesTheTextShownWithEachFont() throws {
        let input =
            assHead + "Style: Default,Latin Font,20\r\n" + eventsHead + event("hello") + event("{\\fnX}中文{\\i1}字")
        let seen = Mutex<[String]>([])
        let (_, result) = try rewritten(
            input, .ass,
            policy: .custom { name, text in
                seen.withLock { $0.append("\(name)=\(text)") }
                return RewriteDecision(rewrite: text.unicodeScalars.contains { $0.value >= 0x4E00 }, reason: "test")
            })
        #expect(seen.withLock { $0 } == ["Latin Font=hello\n", "X=中文字"])
        #expect(result.styles == 0)  // the style's font only shows "hello"
        #expect(result.fnTags == 1)
    }

    /// Per style and per `\fn` run: a run ends at the next `\fn` or `\r`; the style's font is back after `\r`,
    /// an empty `\fn` or `\fn0`.
    @Test func customPolicySeesEachRunsOwnText() throws {
        let input =
            assHead + "Style: Default,S,20\r\n" + eventsHead
            + event("a{\\fnX}b{\\i1}c{\\fnY\\b1}d{\\r}e{\\fnZ}f{\\fn}g{\\fnW}h{\\fn0}i{\\pos(1,2)}j")
        let seen = Mutex<[String]>([])
        _ = try rewritten(
            input, .ass,
            policy: .custom { name, text in
                seen.withLock { $0.append("\(name)=\(text)") }
                return RewriteDecision(rewrite: false, reason: "test")
            })
        #expect(seen.withLock { $0 } == ["S=aegij", "X=bc", "Y=d", "Z=f", "W=h"])
    }

    /// A `<font face>` shows the text up to its own `</font>` (nested tags counted), not the rest of the cue.
    @Test(arguments: [SubtitleFormat.srt, .vtt])
    func customPolicySeesEachFontTagsOwnText(format: SubtitleFormat) throws {
        let cue =
            "a<font face=\"X\">b<FONT color=red>c</font>d</font>e<font face=Y>f<i>g</i></font><font face='Z'>h"
        let input =
            format == .srt
            ? "1\n00:00:01,000 --> 00:00:02,000\n\(cue)\n" : "WEBVTT\n\n00:01.000 --> 00:02.000\n\(cue)\n"
        let seen = Mutex<[String]>([])
        _ = try rewritten(
            input, format,
            policy: .custom { name, text in
                seen.withLock { $0.append("\(name)=\(text)") }
                return RewriteDecision(rewrite: false, reason: "test")
            })
        #expect(seen.withLock { $0 } == ["X=bcd", "Y=fg", "Z=h"])
    }

    @Test(arguments: textSampleNames)
    func fixingAFixedFileChangesNothing(name: String) throws {
        let decoded = try TextDecoder.decode(sampleBytes(name), file: name)
        let format = try #require(SubtitleFormat(path: name))
        let rewriter = FontRewriter()
        let once = rewriter.rewrite(try SubtitleDocument(decoded.utf8, format: format, file: name))
        #expect(!once.isEmpty)
        let fixed = TextEdit.apply(once.edits, to: decoded.utf8)
        let twice = rewriter.rewrite(try SubtitleDocument(fixed, format: format, file: name))
        #expect(twice.isEmpty)
    }

    @Test(arguments: [
        ("SimHei", true), ("simhei", true), ("@微软雅黑", true), ("ＭＳ ゴシック", true), ("MS Gothic", true),
        ("ＭＳ　明朝", true), ("Microsoft YaHei UI", true), ("MicrosoftYaHei", true), ("FZLanTingHei-R-GBK", true),
        ("方正准圆简体", true), ("STKaiti", true), ("华文行楷", true), ("Source Han Sans CN", true),
        ("Noto Sans CJK JP", true), ("PingFang HK", true), ("Malgun Gothic", true), ("나눔고딕", true),
        ("Arial", false), ("Times New Roman", false), ("Fz", false), ("Stencil", false), ("", false),
    ])
    func knownFonts(name: String, known: Bool) {
        #expect(KnownCJKFonts.contains(name) == known)
    }
}
