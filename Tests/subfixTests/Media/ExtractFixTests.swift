import Foundation
import SubCore
import Testing

@testable import subfix

/// `subfix extract --fix`: the seeds' whole pipeline in one command.
@Suite struct ExtractFixTests: RunsSubfix {
    /// The Fontname field of each `Style:` line.
    private func styleFonts(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("Style:") }.compactMap {
            $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
        }
    }

    @Test func extractFixEqualsFixOfThePlainExtraction() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let plain = directory.appendingPathComponent("plain").path
        let fixed = directory.appendingPathComponent("fixed").path
        let refixed = directory.appendingPathComponent("refixed").path
        #expect(run(["extract", MediaCLIFixtures.mkv, "--all", "--out", plain]).0 == subfix.ExitStatus.success)
        let (status, stdout, stderr) = run(["extract", MediaCLIFixtures.mkv, "--all", "--fix", "--out", fixed])
        #expect(status == subfix.ExitStatus.success)
        #expect(stderr == "")
        #expect(
            stdout == """
                \(fixed)/tram.0.chi.ass: track 1 = 0:s:0 = stream 2 (ass, chi), fixed (styles 2, \\fn 1, font tags 0)
                  style Default: 微软雅黑 -> Noto Sans CJK SC: known CJK font; Simplified-only characters in its style's text
                  style Sign: SimHei -> Noto Sans CJK SC: known CJK font; Simplified-only characters in its style's text; bold: the family's bold face
                  \\fn: SimHei -> Noto Sans CJK SC: known CJK font; Simplified-only characters in the run
                \(fixed)/tram.1.eng.srt: track 2 = 0:s:1 = stream 3 (subrip, eng), fixed (styles 0, \\fn 0, font tags 1)
                  <font face>: SimHei -> Noto Sans CJK SC: known CJK font; no CJK text, Simplified Chinese by default
                \(fixed)/tram.2.jpn.ass: track 3 = 0:s:2 = stream 4 (ass, jpn), fixed (styles 2, \\fn 1, font tags 0)
                  style Default: MS Gothic -> Noto Sans CJK JP: known CJK font; kana in its style's text
                  style Note: @微软雅黑 -> @Noto Sans CJK JP: known CJK font; tagged Japanese (track title and file name)
                  \\fn: SimHei -> Noto Sans CJK JP: known CJK font; kana in the run

                """)
        #expect(run(["fix", plain, "--out", refixed]).0 == subfix.ExitStatus.success)
        let names = try MediaCLIFixtures.listing(URL(fileURLWithPath: fixed))
        #expect(names == ["tram.0.chi.ass", "tram.1.eng.srt", "tram.2.jpn.ass"])
        #expect(try MediaCLIFixtures.listing(URL(fileURLWithPath: refixed)) == names)
        for name in names {
            let one = try Data(contentsOf: URL(fileURLWithPath: fixed + "/" + name))
            let other = try Data(contentsOf: URL(fileURLWithPath: refixed + "/" + name))
            #expect(one == other, "\(name)")
            #expect(one != (try Data(contentsOf: URL(fileURLWithPath: plain + "/" + name))), "\(name)")
        }
        // Each track gets the face of its language: Simplified Chinese for the Chinese one, Japanese for the
        // Japanese one (kana in its text).
        for (name, face) in [("tram.0.chi.ass", "Noto Sans CJK SC"), ("tram.2.jpn.ass", "Noto Sans CJK JP")] {
            let original = styleFonts(try String(contentsOfFile: plain + "/" + name, encoding: .utf8))
            let rewritten = styleFonts(try String(contentsOfFile: fixed + "/" + name, encoding: .utf8))
            #expect(!original.isEmpty)
            #expect(original.allSatisfy { !$0.contains("Noto Sans CJK") })
            // A vertical font keeps its '@'.
            #expect(rewritten == original.map { ($0.hasPrefix("@") ? "@" : "") + face }, "\(name)")
            #expect(Set(original).isDisjoint(with: rewritten))
        }
    }

    @Test func fixOptionsReachTheRewriterAndTheJSON() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let (status, stdout, stderr) = run([
            "extract", MediaCLIFixtures.mkv, "--track", "1", "--fix", "--policy", "cjk", "--font", "Custom Sans",
            "--out", directory.path, "--json",
        ])
        #expect(status == subfix.ExitStatus.success)
        #expect(
            stderr == "subfix: warning: no font named 'Custom Sans' is available here: the name written will not"
                + " resolve on this machine (players need it installed, or use --embed with a face that is)\n")
        #expect(
            stdout == """
                {"type":"track","file":"\(MediaCLIFixtures.mkv)","track":1,"subtitleIndex":0,"stream":2,"codec":"ass","language":"chi","format":"ass","output":"\(directory.path)/tram.0.chi.ass","styles":2,"fnTags":1,"fontTags":0,"unknownFonts":[],\
                "faces":[{"kind":"style","style":"Default","font":"微软雅黑","face":"Custom Sans","language":null,"reason":"known CJK font","count":1},\
                {"kind":"style","style":"Sign","font":"SimHei","face":"Custom Sans","language":null,"reason":"known CJK font","count":1},\
                {"kind":"fn","style":null,"font":"SimHei","face":"Custom Sans","language":null,"reason":"known CJK font","count":1}],"embedded":[]}

                """)
        let text = try String(contentsOfFile: directory.path + "/tram.0.chi.ass", encoding: .utf8)
        #expect(styleFonts(text) == ["Custom Sans", "Custom Sans"])
        #expect(text.contains("{\\fnCustom Sans}"))
    }

    @Test(arguments: [
        (["--font", "Foo"], "subfix: error: option '--font' needs '--fix'\n"),
        (["--policy", "cjk"], "subfix: error: option '--policy' needs '--fix'\n"),
        (["--also", "Foo", "--policy", "cjk"], "subfix: error: option '--policy' needs '--fix'\n"),
        (
            ["--fix", "--policy", "some"],
            "subfix: error: invalid value 'some' for '--policy' (expected text, all, cjk, missing)\n"
        ),
        (
            ["--fix", "--font", " Foo"],
            "subfix: error: invalid value ' Foo' for '--font' (expected auto, or a font family name without outer blanks"
                + " and without , { } \\ < > \" ')\n"
        ),
    ])
    func fixOptionsWithoutFixAreUsageErrors(arguments: [String], stderr: String) throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let result = run(["extract", MediaCLIFixtures.mkv, "--all", "--out", directory.path] + arguments)
        #expect(result.0 == subfix.ExitStatus.usage)
        #expect(result.1 == "")
        #expect(result.2 == stderr)
        #expect(try MediaCLIFixtures.listing(directory) == [])
    }

    /// Tracks whose bytes the rewriter cannot read (hand-made here: libavformat's muxers always write clean text)
    /// fail the whole set with the rewriter's message before any track is written.
    @Test(
        arguments: [
            (
                [0x5B, 0x53, 0x00, 0xFF], ExtractionFormat.ass,
                "track 1 (x.0.chi.ass): binary data, not text (NUL byte at offset 2)"
            ),
            (
                Array("just words\n".utf8), .ass,
                "track 1 (x.0.chi.ass): 1:1: not an ASS/SSA script (no section header such as [Script Info] or [Events])"
            ),
            (
                Array("hello\nworld\n".utf8), .srt,
                "track 1 (x.0.chi.srt): 1:1: not a SubRip file (no 'HH:MM:SS,mmm --> HH:MM:SS,mmm' timing line)"
            ),
        ] as [([UInt8], ExtractionFormat, String)])
    func unreadableTrackFailsTheWholeWrite(bytes: [UInt8], format: ExtractionFormat, message: String) throws {
        let parsed = try parse(tokenize(["x.mkv", "--all", "--fix"]), for: ExtractCommand.spec)
        let fixer = try TrackFixer(parsed, io: CommandIO.capturing().0)
        func stream(_ index: Int, _ language: String) -> MediaStream {
            MediaStream(
                index: index, kind: .subtitle, codec: "ass", subtitleEncoding: .text, language: language, title: nil,
                isDefault: false, isForced: false, subtitleIndex: index - 2, playerIndex: index - 1)
        }
        let good = ExtractedTrack(
            stream: stream(3, "eng"), format: .srt,
            data: Data("1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">hi</font>\n".utf8))
        let bad = ExtractedTrack(stream: stream(2, "chi"), format: format, data: Data(bytes))
        let names = SidecarNamer(naming: .subfix, base: "x", streams: [good.stream, bad.stream])
        // The whole set fails before anything is handed to the writer.
        #expect(throws: CommandFailure(cause: message)) { try fixer.fix([good, bad], names: names) }
    }
}
