import Foundation
import SubCore
import TestSupport
import Testing

@testable import subfix

/// `subfix fix --policy missing`: only references that do not resolve in the catalog, or resolve to a face
/// lacking characters shown with them, are rewritten; the report says why each kept font was kept. The catalog is
/// the test fonts alone (`--no-system-fonts --fonts-dir Fixtures`): "subfix Test Sans" (also named 字幕测试黑体 and
/// SubfixTestSans-Regular) covers only `ABCabc 测试字体かな`.
@Suite struct FixMissingPolicyTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/SubCoreTests/Fixtures").path
    static let fonts = ["--no-system-fonts", "--fonts-dir", fixtures]

    static let header = """
        [Script Info]
        ScriptType: v4.00+

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
        Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, \
        MarginR, MarginV, Encoding

        """
    static let style = ",40,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1\n"

    /// Latin: a present font covering everything shown with it (kept). Missing: a CJK name the catalog does not
    /// have (rewritten). Lacking: a present font (by PostScript name) shown with CJK text it lacks (rewritten).
    /// In the events, `\fn` to the localized family over text it covers (kept), to the family over 中文, which it
    /// lacks (rewritten), and to an absent name inside a Latin event (rewritten, while the Latin style, which
    /// draws only the text outside that run, is kept).
    static func script(
        latin: String, missing: String, lacking: String, fnLacking: String, fnMissing: String
    ) -> String {
        header + "Style: Latin,\(latin)" + style + "Style: Missing,\(missing)" + style
            + "Style: Lacking,\(lacking)" + style + """

                [Events]
                Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
                Dialogue: 0,0:00:01.00,0:00:02.00,Latin,,0,0,0,,ABC abc
                Dialogue: 0,0:00:02.00,0:00:03.00,Latin,,0,0,0,,测试 cab
                Dialogue: 0,0:00:03.00,0:00:04.00,Missing,,0,0,0,,今晚{\\fn字幕测试黑体}字体かな
                Dialogue: 0,0:00:04.00,0:00:05.00,Lacking,,0,0,0,,月色{\\fn\(fnLacking)}中文
                Dialogue: 0,0:00:05.00,0:00:06.00,Latin,,0,0,0,,abc{\\fn\(fnMissing)}中文{\\r}cba

                """
    }

    func run(_ arguments: [String]) -> (subfix.ExitStatus, String, String) {
        let (io, output) = CommandIO.capturing()
        let status = SubfixCLI.run(arguments, io: io)
        return (status, reportLinesOnly(output.stdout), output.stderr)
    }

    /// `folder/mix.ass`: `script` with a present Latin font, an absent CJK name and a present font that lacks
    /// the CJK text shown with it.
    static func writeMixedScript(in folder: String) throws -> String {
        let input = folder + "/mix.ass"
        try Data(
            script(
                latin: "subfix Test Sans", missing: "微软雅黑", lacking: "SubfixTestSans-Regular",
                fnLacking: "subfix Test Sans", fnMissing: "微软雅黑"
            ).utf8
        ).write(to: URL(fileURLWithPath: input))
        return input
    }

    func temporaryFolder() throws -> String { try TestFiles.temporaryDirectory("subfix-fix-missing").path }

    @Test func rewritesOnlyWhatDoesNotResolveOrLacksGlyphs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try Self.writeMixedScript(in: folder)
        let (status, out, err) = run(["fix", input, "--out", folder + "/out", "--policy", "missing"] + Self.fonts)
        #expect(status == .success)
        #expect(err == "")
        let output = folder + "/out/mix.ass"
        #expect(
            out == "changed   \(input) -> \(output) (styles 2, \\fn 2, font tags 0; UTF-8)"
                + "; kept: subfix Test Sans (resolves to subfix Test Sans, covers all 8 characters shown)"
                + "; kept: 字幕测试黑体 (resolves to subfix Test Sans, covers all 4 characters shown)\n"
                + "1 file: 1 changed, 0 unchanged, 0 failed\n")
        // The rewritten references get the face of their text's language (the default --font auto): their text is
        // Han alone, and the rest of the script's two kana do not outweigh its Chinese-only 测试: Chinese.
        let fixed = try String(contentsOfFile: output, encoding: .utf8)
        #expect(
            fixed
                == Self.script(
                    latin: "subfix Test Sans", missing: "Noto Sans CJK SC", lacking: "Noto Sans CJK SC",
                    fnLacking: "Noto Sans CJK SC", fnMissing: "Noto Sans CJK SC"))

        // Fixing the fixed file again changes nothing, and keeps the same fonts for the same reasons.
        let (againStatus, againOut, againErr) = run(["fix", output, "--dry-run", "--policy", "missing"] + Self.fonts)
        #expect(againStatus == .success)
        #expect(againErr == "")
        #expect(
            againOut == "unchanged \(output) (styles 0, \\fn 0, font tags 0; UTF-8)"
                + "; kept: subfix Test Sans (resolves to subfix Test Sans, covers all 8 characters shown)"
                + "; kept: 字幕测试黑体 (resolves to subfix Test Sans, covers all 4 characters shown)\n"
                + "1 file: 0 changed, 1 unchanged, 0 failed\n")
    }

    @Test func jsonListsEachKeptFontWithItsReason() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try Self.writeMixedScript(in: folder)
        let (status, out, err) = run(["fix", input, "--dry-run", "--json", "--policy", "missing"] + Self.fonts)
        #expect(status == .success)
        #expect(err == "")
        let lines = out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines.first
                == """
                {"type":"file","file":"\(input)","output":null,"status":"changed","encoding":"UTF-8","runnerUp":null,"outputEncoding":"UTF-8","styles":2,"fnTags":2,\
                "fontTags":0,"unknownFonts":["subfix Test Sans","字幕测试黑体"],"keptFonts":[{"font":"subfix Test Sans",\
                "reason":"resolves to subfix Test Sans, covers all 8 characters shown"},{"font":"字幕测试黑体",\
                "reason":"resolves to subfix Test Sans, covers all 4 characters shown"}],"faces":[{"kind":"style",\
                "style":"Missing","font":"微软雅黑","face":"Noto Sans CJK SC","language":"zh-Hans","reason":"does not \
                resolve; the rest of the script is zh-Hans; Noto Sans CJK SC is not available here","count":1},\
                {"kind":"style","style":"Lacking","font":"SubfixTestSans-Regular","face":"Noto Sans CJK SC",\
                "language":"zh-Hans","reason":"subfix Test Sans lacks 2 characters shown; the rest of the script is \
                zh-Hans; Noto Sans CJK SC is not available here","count":1},{"kind":"fn","style":null,\
                "font":"subfix Test Sans","face":"Noto Sans CJK SC","language":"zh-Hans","reason":"subfix Test Sans \
                lacks 2 characters shown; the rest of the script is zh-Hans; Noto Sans CJK SC is not available \
                here","count":1},{"kind":"fn","style":null,"font":"微软雅黑","face":"Noto Sans CJK SC",\
                "language":"zh-Hans","reason":"does not resolve; Simplified-only characters in its style's text; \
                Noto Sans CJK SC is not available here","count":1}],"embedded":[],"error":null}
                """)
    }

    /// Font options are accepted with the default policy too: they say which faces exist to choose from (and to
    /// embed). Without system fonts, and with only the test font, the chosen face is not available, and the report
    /// says so; other policies' JSON has no `keptFonts`.
    @Test func fontOptionsWorkWithTheDefaultPolicy() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/a.srt"
        try Data("1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好</font>\n".utf8)
            .write(to: URL(fileURLWithPath: input))
        func fix(_ options: [String]) -> (subfix.ExitStatus, String, String) {
            let (io, output) = CommandIO.capturing()
            let status = SubfixCLI.run(["fix", input, "--dry-run"] + options, io: io)
            return (status, output.stdout, output.stderr)
        }
        let reason = "known CJK font; Han characters only; Simplified by default"
        let unavailable =
            "changed   \(input) (styles 0, \\fn 0, font tags 1; UTF-8)\n"
            + "  <font face>: SimHei -> Noto Sans CJK SC: \(reason); Noto Sans CJK SC is not available here\n"
            + "1 file: 1 changed, 0 unchanged, 0 failed\n"
        #expect(fix(["--no-system-fonts"]) == (.success, unavailable, ""))
        // With the system's fonts (Debian's fonts-noto-cjk) next to a font folder, the face is there: no note.
        let available =
            "changed   \(input) (styles 0, \\fn 0, font tags 1; UTF-8)\n"
            + "  <font face>: SimHei -> Noto Sans CJK SC: \(reason)\n1 file: 1 changed, 0 unchanged, 0 failed\n"
        #expect(fix(["--fonts-dir", Self.fixtures]) == (.success, available, ""))
        // The test font covers none of 你好, so a catalog of it alone has no face for it either.
        #expect(fix(Self.fonts) == (.success, unavailable, ""))
        let (jsonStatus, json, jsonErr) = fix(Self.fonts + ["--json"])
        #expect(jsonStatus == .success)
        #expect(jsonErr == "")
        #expect(!json.contains("keptFonts"))
        #expect(
            json.contains(
                #""faces":[{"kind":"font","style":null,"font":"SimHei","face":"Noto Sans CJK SC","#
                    + #""language":"zh-Hans","reason":"\#(reason); Noto Sans CJK SC is not available here","#
                    + #""count":1}],"embedded":[],"error":null}"#))

        let (badStatus, _, badErr) = run(["fix", "a.ass", "--dry-run", "--policy", "absent"])
        #expect(badStatus == .usage)
        #expect(badErr == "subfix: error: invalid value 'absent' for '--policy' (expected text, all, cjk, missing)\n")
    }

    /// A font folder with a broken font: the font is skipped with a warning, the rest of the catalog still decides.
    @Test func brokenFontsInTheCatalogAreWarnedAbout() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/fonts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.fixtures + "/subfix-test-sans.otf", toPath: folder + "/fonts/a.otf")
        try Data([0x00, 0x01, 0x00, 0x00, 0x00]).write(to: URL(fileURLWithPath: folder + "/fonts/cut.ttf"))
        let input = folder + "/a.srt"
        try Data("1\n00:00:01,000 --> 00:00:02,000\n<font face=\"subfix Test Sans\">中文</font>\n".utf8)
            .write(to: URL(fileURLWithPath: input))
        let (status, out, err) = run([
            "fix", input, "--dry-run", "--policy", "missing", "--no-system-fonts", "--fonts-dir", folder + "/fonts",
        ])
        #expect(status == .success)
        #expect(err.hasPrefix("subfix: warning: \(folder)/fonts/cut.ttf: "))
        #expect(
            out
                == "changed   \(input) (styles 0, \\fn 0, font tags 1; UTF-8)\n1 file: 1 changed, 0 unchanged, 0 failed\n"
        )
    }
}
