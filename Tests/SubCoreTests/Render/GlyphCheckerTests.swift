import Foundation
import Testing

@testable import SubCore

@Suite struct GlyphCheckerTests {
    static let demo = FontTestSupport.root.appendingPathComponent("Samples/render-demo.ass").path

    func report(_ path: String, setup: FontSetup) throws -> GlyphCheckReport {
        let renderer = try SubtitleRenderer(
            input: SubtitleInput(contentsOf: path), setup: setup, width: 640, height: 360)
        return try GlyphChecker.check(renderer, catalog: FontCatalog(setup: setup))
    }

    @Test func reportsEveryCharacterWhenTheStyleFontIsMissingAndThereIsNoFallback() throws {
        let empty = try FontTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = try report(Self.demo, setup: FontSetup(systemFonts: false, directories: [empty.path]))
        #expect(result.events == 3)
        #expect(result.eventsWithMissingGlyphs == 3)
        #expect(result.missing.map(\.font) == ["微软雅黑", "方正准圆_GBK", "SimHei", "微软雅黑"])
        #expect(result.missing.map(\.event) == [1, 2, 2, 3])
        #expect(result.missing[1].text == "注：字幕由 subfix 检查")
        #expect(String(String.UnicodeScalarView(result.missing[1].characters)) == "注：")
        #expect(result.missing.allSatisfy { $0.face == nil })
    }

    @Test func reportsNothingOnceTheFontResolves() throws {
        let folder = try FontTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOfFile: Self.demo, encoding: .utf8)
            .replacingOccurrences(of: "微软雅黑", with: "Noto Sans CJK SC")
            .replacingOccurrences(of: "方正准圆_GBK", with: "Noto Sans CJK SC")
            .replacingOccurrences(of: "SimHei", with: "NotoSansCJKsc-Regular")
        let path = folder.appendingPathComponent("fixed.ass").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try report(
            path, setup: FontSetup(systemFonts: false, directories: [FontTestSupport.fontsDirectory.path]))
        #expect(result.missing == [])
    }

    /// Characters the resolved face lacks are found both from coverage and from libass's own messages.
    @Test func findsCharactersTheResolvedFaceLacks() throws {
        let folder = try FontTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 640
            PlayResY: 360

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,subfix Test Sans,30,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,测试 ABC {\\p1}m 0 0 l 9 9{\\p0}中文
            Dialogue: 0,0:00:01.50,0:00:03.00,Default,,0,0,0,,{\\fnSubfixTestSans-Regular}かなカナ
            """
        let path = folder.appendingPathComponent("partial.ass").path
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let setup = FontSetup(systemFonts: false, directories: [FontTestSupport.fixtures.path])
        let renderer = try SubtitleRenderer(
            input: SubtitleInput(contentsOf: path), setup: setup, width: 320, height: 180)
        let result = try GlyphChecker.check(renderer, catalog: FontCatalog(setup: setup))
        #expect(result.missing.count == 2)
        #expect(result.missing.map(\.event) == [1, 2])
        #expect(result.missing.map { String(String.UnicodeScalarView($0.characters)) } == ["中文", "カナ"])
        #expect(result.missing[0].face == "subfix Test Sans (subfix-test-sans.otf)")
        #expect(result.missing[0].text == "测试 ABC 中文")
    }

    @Test func parsesLibassMissingGlyphMessages() throws {
        let notFound = try #require(
            GlyphChecker.parseMissingGlyph("Glyph 0x4E2D not found in font for (SimHei, 400, 0)"))
        #expect(notFound.0 == 0x4E2D && notFound.1 == "SimHei")
        let noFallback = try #require(
            GlyphChecker.parseMissingGlyph(
                "fontselect: failed to find any fallback with glyph 0x6587 for font: (A, B, 700, 100)"))
        #expect(noFallback.0 == 0x6587 && noFallback.1 == "A, B")
        #expect(
            GlyphChecker.parseMissingGlyph("Glyph 0x4E2D not found, selecting one more font for (X, 400, 0)") == nil)
        #expect(
            GlyphChecker.parseMissingGlyph(
                "fontselect: failed to find any fallback with glyph 0x0 for font: (X, 400, 0)") == nil)
    }

    /// The catalog's pick for a name is the face libass itself reports choosing ("fontselect: (...) -> ...").
    @Test(arguments: [
        ("subfix Test Sans", false, "SubfixTestSans-Regular"), ("SUBFIX TEST SANS", true, "SubfixTestSans-Bold"),
        ("字幕测试黑体", true, "SubfixTestSans-Bold"), ("@字幕测试黑体", false, "SubfixTestSans-Regular"),
        ("SubfixTestSans-Bold", false, "SubfixTestSans-Bold"), ("Noto Sans CJK SC", false, "NotoSansCJKsc-Regular"),
    ])
    func agreesWithLibassFontSelection(name: String, bold: Bool, postScript: String) throws {
        let folder = try FontTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in ["subfix-test-sans.otf", "subfix-test-sans-bold.otf"] {
            try FileManager.default.copyItem(
                at: FontTestSupport.fixtures.appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }
        try FileManager.default.copyItem(at: FontTestSupport.bundledFont, to: folder.appendingPathComponent("noto.otf"))
        let setup = FontSetup(systemFonts: false, directories: [folder.path])
        let script = """
            [Script Info]
            ScriptType: v4.00+

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: S,\(name),30,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,\(bold ? -1 : 0),0,0,0,100,100,0,0,1,1,0,2,10,10,10,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:00.00,0:00:01.00,S,,0,0,0,,AB
            """
        let renderer = try SubtitleRenderer(
            input: SubtitleInput(name: "pick.ass", assText: script), setup: setup, width: 64, height: 64)
        var canvas = try Canvas(width: 64, height: 64)
        _ = renderer.drainMessages()
        renderer.render(at: 500, into: &canvas)
        let selection = renderer.drainMessages().first { $0.text.hasPrefix("fontselect: (") }
        let libassPick = try #require(selection?.text.components(separatedBy: ", ").last)
        #expect(libassPick == postScript)
        let ours = try FontCatalog(setup: setup).resolve(FontRequest(name: name, bold: bold))
        #expect(ours.face?.postScriptName == postScript)
    }
}
