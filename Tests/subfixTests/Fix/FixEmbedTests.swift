import Foundation
import SubCore
import TestSupport
import Testing

@testable import subfix

/// `subfix fix --embed`: the fix travels with the file, proven by `check --no-system-fonts`.
@Suite struct FixEmbedTests: RunsSubfix {
    private static let script = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 640
        PlayResY: 360

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Alignment, MarginV
        Style: JP,MS Gothic,40,&H00FFFFFF,0,0,2,20
        Style: CN,微软雅黑,40,&H00FFFFFF,0,0,8,20

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:00.00,0:00:02.00,JP,,0,0,0,,終電に乗り遅れた。{\\fnHiragino Sans}歩いて帰ろう
        Dialogue: 0,0:00:00.00,0:00:02.00,CN,,0,0,0,,我们明天在车站见面，别忘了带伞。

        """

    @Test func embeddedScriptPassesCheckWithNoFontsAtAll() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-embed").path
        let input = folder + "/ep01.ass"
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: input))
        let db = ["--db", folder + "/db.sqlite"]
        let before = run(["check", input, "--no-system-fonts"] + db)
        #expect(before.0 == .someFailed)

        let fixed = run(["fix", input, "--embed", "--out", folder + "/out"] + db)
        #expect(fixed.0 == .success)
        #expect(fixed.2 == "")
        #expect(
            fixed.1.contains("  style JP: MS Gothic -> Noto Sans CJK JP: known CJK font; kana in its style's text\n"))
        #expect(
            fixed.1.contains(
                "  style CN: 微软雅黑 -> Noto Sans CJK SC: known CJK font; Simplified-only characters in its style's text"))
        #expect(fixed.1.contains("  embedded Noto Sans CJK JP: "))
        #expect(fixed.1.contains("  embedded Noto Sans CJK SC: "))
        let output = folder + "/out/ep01.ass"
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("\nfontname: subfix-NotoSansCJKJP_0.otf\n"))
        #expect(text.contains("\nfontname: subfix-NotoSansCJKSC_0.otf\n"))
        // The original is untouched.
        #expect(try String(contentsOfFile: input, encoding: .utf8) == Self.script)

        let after = run(["check", output, "--no-system-fonts"] + db)
        #expect(after.0 == .success)
        #expect(after.1 == "\(output): 2 events, all characters covered\n")

        // Fixing the fixed file changes nothing, embedded fonts included.
        let again = run(["fix", output, "--embed", "--in-place"] + db)
        #expect(again.0 == .success)
        #expect(again.1.hasPrefix("unchanged "))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == text)
        #expect(!FileManager.default.fileExists(atPath: output + ".orig"))
    }

    @Test func jsonReportsFacesAndEmbeddedFonts() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-embed").path
        let input = folder + "/a.ass"
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: input))
        let (status, stdout, _) = run(["fix", input, "--embed", "--dry-run", "--json", "--db", folder + "/db.sqlite"])
        #expect(status == .success)
        let first = try #require(stdout.split(separator: "\n").first)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let embedded = try #require(object["embedded"] as? [[String: Any]])
        #expect(embedded.compactMap { $0["family"] as? String } == ["Noto Sans CJK SC", "Noto Sans CJK JP"])
        #expect(embedded.allSatisfy { ($0["bytes"] as? Int ?? 0) > 1000 })
        let faces = try #require(object["faces"] as? [[String: Any]])
        #expect(faces.compactMap { $0["language"] as? String } == ["ja", "zh-Hans", "ja"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.ass.orig"))
    }

    /// SRT cannot carry fonts: the report says so, and the file is still fixed.
    @Test func srtGetsANoteNotAFailure() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-embed").path
        let input = folder + "/a.srt"
        try Data("1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好</font>\n".utf8)
            .write(to: URL(fileURLWithPath: input))
        let (status, stdout, _) = run(["fix", input, "--embed", "--dry-run", "--db", folder + "/db.sqlite"])
        #expect(status == .success)
        #expect(stdout.contains("  note: SRT cannot carry fonts: nothing embedded (convert to ASS"))
    }

    /// A face that is not available cannot be embedded: one line naming the file, exit 1, nothing written.
    @Test func unavailableFaceFailsTheFileAndWritesNothing() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-embed").path
        let input = folder + "/a.ass"
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: input))
        let (status, stdout, stderr) = run([
            "fix", input, "--embed", "--font", "No Such Face", "--out", folder + "/out", "--db", folder + "/db.sqlite",
        ])
        #expect(status == .someFailed)
        #expect(stdout.hasPrefix("failed    \(input)\n"))
        #expect(
            stderr.hasSuffix(
                "subfix: error: \(input): cannot embed No Such Face: no face of that name is available here (install"
                    + " Debian's fonts-noto-cjk, or give --fonts-dir)\n"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/a.ass"))
        #expect(try String(contentsOfFile: input, encoding: .utf8) == Self.script)
    }

    /// An output folder that cannot be made (a file is in the way): the error names the file, nothing is left.
    @Test func unwritableOutputFailsCleanly() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-embed").path
        let input = folder + "/a.ass"
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: input))
        try Data("in the way".utf8).write(to: URL(fileURLWithPath: folder + "/blocker"))
        let (status, _, stderr) = run([
            "fix", input, "--embed", "--out", folder + "/blocker/out", "--db", folder + "/db.sqlite",
        ])
        #expect(status == .someFailed)
        #expect(stderr.contains("subfix: error: \(input): "))
        #expect(stderr.split(separator: "\n").count == 1)
        #expect(try String(contentsOfFile: input, encoding: .utf8) == Self.script)
    }

    /// `--policy missing` counts the fonts a script carries in `[Fonts]`: an embedded face that covers its text
    /// is kept, even with no other fonts at all.
    @Test func policyMissingCountsEmbeddedFonts() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-embed").path
        let input = folder + "/a.ass"
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: input))
        let db = ["--db", folder + "/db.sqlite"]
        #expect(run(["fix", input, "--embed", "--out", folder + "/out"] + db).0 == .success)
        let embedded = folder + "/out/a.ass"
        let bare = folder + "/bare.ass"
        let text = try String(contentsOfFile: embedded, encoding: .utf8)
        let withoutFonts = text.components(separatedBy: "[Fonts]").first ?? ""
        let events = text.components(separatedBy: "[Events]").last ?? ""
        try Data((withoutFonts + "[Events]" + events).utf8).write(to: URL(fileURLWithPath: bare))

        let kept = run(["fix", embedded, "--policy", "missing", "--no-system-fonts", "--dry-run"] + db)
        #expect(kept.0 == .success)
        #expect(kept.1.hasPrefix("unchanged "))
        #expect(kept.1.contains("kept: Noto Sans CJK JP (resolves to Noto Sans CJK JP, covers all"))
        // Without its [Fonts], the name resolves to nothing: not kept (rewritten to the face chosen for its
        // language, here the same name, which no font of this sandbox has).
        let bareRun = run(["fix", bare, "--policy", "missing", "--no-system-fonts", "--dry-run"] + db)
        #expect(!bareRun.1.contains("kept: Noto Sans CJK JP"))
    }

    /// A `[Fonts]` section with an entry that is no font and one that is not even valid UUencoding: `check`
    /// warns about each, naming the file, and still checks every event; `fix --embed` keeps both entries.
    @Test func brokenEmbeddedFontsAreWarningsNotCrashes() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-embed").path
        let input = folder + "/a.ass"
        let notAFont = String(decoding: SSAFontEncoding.encode(Data("not a font at all".utf8)), as: UTF8.self)
        let broken =
            Self.script.replacingOccurrences(
                of: "[Events]",
                with: "[Fonts]\nfontname: junk_0.ttf\n\(notAFont)\nfontname: cut_0.ttf\n!!!!!\n\n[Events]")
        try Data(broken.utf8).write(to: URL(fileURLWithPath: input))
        let db = ["--db", folder + "/db.sqlite"]
        let (status, stdout, stderr) = run(["check", input, "--no-system-fonts"] + db)
        #expect(status == .someFailed)
        #expect(stdout.hasSuffix("\(input): 2 events, 2 with missing glyphs\n"))
        let warnings = stderr.split(separator: "\n").filter { $0.hasPrefix("subfix: warning: ") }
        #expect(warnings.contains { $0.contains("cut_0.ttf") && $0.contains(input) })
        #expect(warnings.contains { $0.contains("junk_0.ttf") })

        let fixed = run(["fix", input, "--embed", "--out", folder + "/out"] + db)
        #expect(fixed.0 == .success)
        let text = try String(contentsOfFile: folder + "/out/a.ass", encoding: .utf8)
        #expect(text.contains("fontname: junk_0.ttf\n\(notAFont)\nfontname: cut_0.ttf\n!!!!!\n"))
        #expect(run(["check", folder + "/out/a.ass", "--no-system-fonts"] + db).0 == .success)
    }
}
