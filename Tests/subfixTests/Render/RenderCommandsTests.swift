import Foundation
import SubCore
import TestSupport
import Testing

@testable import subfix

/// End-to-end runs of `subfix fonts`, `check` and `render`, comparing stdout, stderr and exit status verbatim.
@Suite struct RenderCommandsTests: RunsSubfix {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/SubCoreTests/Fixtures")
    static let demo = root.appendingPathComponent("Samples/render-demo.ass").path
    static let fonts = root.appendingPathComponent("Fonts").path

    /// Runs subfix and returns (status, stdout, stderr).
    func temporaryDirectory() throws -> URL { try TestFiles.temporaryDirectory("subfix-cli-render") }

    @Test func fontsListsTheCatalogAsJSONAndWarnsAboutBrokenFonts() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent("subfix-test-sans.otf"), to: folder.appendingPathComponent("a.otf")
        )
        try Data("junk".utf8).write(to: folder.appendingPathComponent("b.ttf"))
        let (status, out, err) = run(["fonts", "--no-system-fonts", "--fonts-dir", folder.path, "--json"])
        #expect(status == .success)
        #expect(err == "subfix: warning: \(folder.path)/b.ttf: FT_New_Face failed: unknown file format (0x02)\n")
        #expect(
            out == """
                {"type":"font","file":"\(folder.path)/a.otf","index":0,"origin":"directory","families":["subfix Test Sans","字幕测试黑体"],\
                "fullNames":["subfix Test Sans Regular","字幕测试黑体 Regular"],"postScriptName":"SubfixTestSans-Regular",\
                "weight":400,"italic":false,"characters":13,"scripts":{"Latin":6,"Han":4,"Hiragana":2,"Other":1}}

                """)
        let (coverStatus, coverOut, coverErr) = run([
            "fonts", "--no-system-fonts", "--fonts-dir", folder.path, "--covers", "中",
        ])
        #expect(coverStatus == .someFailed)
        #expect(coverOut == "")
        #expect(coverErr.hasSuffix("subfix: error: no font covers '中'\n"))
        let (textStatus, textOut, _) = run(["fonts", "--no-system-fonts", "--fonts-dir", folder.path, "--covers", "测试"])
        #expect(textStatus == .success)
        #expect(
            textOut
                == "subfix Test Sans, 字幕测试黑体 | SubfixTestSans-Regular | 400 upright | directory | \(folder.path)/a.otf"
                + " | 13 chars: Latin 6, Han 4, Hiragana 2, Other 1\n")
    }

    @Test func checkFailsForMissingFontsAndPassesOnceTheyResolve() throws {
        let empty = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        let (status, out, err) = run(["check", Self.demo, "--no-system-fonts", "--fonts-dir", empty.path, "--json"])
        #expect(status == .someFailed)
        #expect(err == "")
        #expect(
            out == """
                {"type":"file","file":"\(Self.demo)","events":3,"eventsWithMissingGlyphs":3,"missing":[\
                {"event":1,"start":"00:00:00.500","text":"今晚的月色真美。The moon is lovely tonight.","font":"微软雅黑",\
                "chars":"今晚的月色真美。Themonislvytg."},\
                {"event":2,"start":"00:00:01.000","text":"注：字幕由 subfix 检查","font":"方正准圆_GBK","chars":"注："},\
                {"event":2,"start":"00:00:01.000","text":"注：字幕由 subfix 检查","font":"SimHei","chars":"字幕由subfix检查"},\
                {"event":3,"start":"00:00:04.500","text":"我們明天見！See you tomorrow!","font":"微软雅黑",\
                "chars":"我們明天見！Seyoutmrw!"}]}

                """)

        let fixed = empty.appendingPathComponent("fixed.ass")
        try String(contentsOfFile: Self.demo, encoding: .utf8)
            .replacingOccurrences(of: "微软雅黑", with: "Noto Sans CJK SC").replacingOccurrences(
                of: "方正准圆_GBK", with: "Noto Sans CJK SC"
            )
            .replacingOccurrences(of: "SimHei", with: "Noto Sans CJK SC")
            .write(to: fixed, atomically: true, encoding: .utf8)
        let (okStatus, okOut, okErr) = run(["check", fixed.path, "--no-system-fonts", "--fonts-dir", Self.fonts])
        #expect(okStatus == .success)
        #expect(okErr == "")
        #expect(okOut == "\(fixed.path): 3 events, all characters covered\n")
    }

    @Test func checkWithADefaultFontReportsOnlyWhatItLacks() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let latin = Self.fixtures.appendingPathComponent("subfix-test-sans.otf").path
        let (status, out, _) = run([
            "check", Self.demo, "--no-system-fonts", "--fonts-dir", folder.path, "--default-font", latin,
        ])
        #expect(status == .someFailed)
        let expected =
            "\(Self.demo): event 1 at 00:00:00.500: font '微软雅黑' (drawn with default font subfix Test Sans"
            + " (subfix-test-sans.otf)) lacks 今晚的月色真美。Themonislvytg. in \"今晚的月色真美。The moon is lovely tonight.\""
        #expect(out.split(separator: "\n").first.map(String.init) == expected)
    }

    @Test func checkTreatsBinaryDataAsMediaAndReportsWhatFFmpegSays() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = folder.appendingPathComponent("junk.dat")
        try Data([0x61, 0x62, 0x63, 0, 0, 0]).write(to: junk)
        let (status, out, err) = run(["check", junk.path])
        #expect(status == .someFailed)
        #expect(out == "")
        #expect(
            err == "subfix: error: \(junk.path): avformat_find_stream_info failed: End of file (error -541478725)\n")
    }

    /// The seeds' second pitfall: an extracted SRT whose `<font face>` names a font the player lacks.
    @Test func checkFindsTheFontFaceOfAnSRT() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let srt = folder.appendingPathComponent("extracted.srt")
        try Data(
            "1\r\n00:00:00,000 --> 00:00:03,018\r\n<font face=\"方正准圆简体\" size=\"21\"><b>你好</b></font>世界\r\n".utf8
        ).write(to: srt)
        let (status, out, err) = run(["check", srt.path, "--no-system-fonts", "--fonts-dir", Self.fonts])
        #expect(status == .someFailed)
        #expect(err == "")
        #expect(
            out == """
                \(srt.path): event 1 at 00:00:00.000: font '方正准圆简体' (not found, nothing to fall back to) lacks 你好 in "你好世界"
                \(srt.path): 1 event, 1 with missing glyphs

                """)
    }

    @Test func checkReportsUnreadableInputsAndGoesOn() throws {
        let (status, out, err) = run(["check", "/nonexistent/a.ass", Self.demo])
        #expect(status == .someFailed)
        #expect(err == "subfix: error: /nonexistent/a.ass: no such file\n")
        #expect(out == "\(Self.demo): 3 events, all characters covered\n")
    }

    @Test func renderWritesFramesAndAContactSheet() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = folder.appendingPathComponent("frames").path
        let sheet = folder.appendingPathComponent("sheet.png").path
        let (status, out, err) = run([
            "render", Self.demo, "--at", "1", "--at", "00:00:05.000", "--at", "01:00", "--size", "320x180",
            "--fonts-dir", Self.fonts, "--no-system-fonts", "--out-dir", frames, "--sheet", sheet, "--background",
            "checker",
        ])
        #expect(status == .success)
        #expect(
            err
                == "subfix: warning: \(Self.demo): 00:01:00.000 is after the last subtitle ends (00:00:08.000): the frame is empty\n"
        )
        #expect(
            out == """
                \(frames)/render-demo-00-00-01.000.png  00:00:01.000  2 events
                \(frames)/render-demo-00-00-05.000.png  00:00:05.000  1 event
                \(frames)/render-demo-00-01-00.000.png  00:01:00.000  0 events
                \(sheet)  contact sheet of 3 frames

                """)
        let image = try PNGDecoder.decode(
            try Data(contentsOf: URL(fileURLWithPath: "\(frames)/render-demo-00-00-01.000.png")))
        #expect(image.width == 320 && image.height == 180)
        let sheetImage = try PNGDecoder.decode(try Data(contentsOf: URL(fileURLWithPath: sheet)))
        #expect(sheetImage.width == 8 + 2 * (320 + 8))
        #expect(sheetImage.height == 8 + 2 * (180 + 28 + 8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: frames).filter { $0.hasPrefix(".") }
        #expect(leftovers == [])
    }

    /// Every written file holds its own frame: frame-threaded encoding delivers PNGs late, and unchanged
    /// frames repeat the previous PNG; each file must still equal a fresh render at its time.
    @Test func renderWritesEachFrameToItsOwnFile() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, _, _) = run([
            "render", Self.demo, "--every", "0.25", "--size", "160x90", "--background", "checker", "--out-dir",
            folder.path,
            "--no-system-fonts", "--fonts-dir", Self.fonts,
        ])
        #expect(status == .success)
        let renderer = try SubtitleRenderer(
            input: SubtitleInput(contentsOf: Self.demo),
            setup: FontSetup(systemFonts: false, directories: [Self.fonts]),
            width: 160, height: 90)
        for time in stride(from: 0, to: 8000, by: 250) {
            let name = "render-demo-\(RenderTime.format(time).replacingOccurrences(of: ":", with: "-")).png"
            let image = try PNGDecoder.decode(try Data(contentsOf: folder.appendingPathComponent(name)))
            var canvas = try Canvas(width: 160, height: 90, background: .checker)
            renderer.render(at: time, into: &canvas)
            #expect(image.rgba == canvas.pixels, "\(name)")
        }
    }

    @Test func renderSkipsFontsLibassCannotOpenWithAWarning() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let font = try Data(contentsOf: Self.fixtures.appendingPathComponent("subfix-test-sans.otf"))
        try font.write(to: folder.appendingPathComponent("good.otf"))
        try font.prefix(font.count / 2).write(to: folder.appendingPathComponent("cut.otf"))
        let png = folder.appendingPathComponent("f.png").path
        let (status, out, err) = run([
            "render", Self.demo, "--at", "1", "--size", "64x36", "--out", png, "--no-system-fonts", "--fonts-dir",
            folder.path,
        ])
        #expect(status == .success)
        #expect(err == "subfix: warning: \(folder.path)/cut.otf: libass cannot open it as a font (skipped)\n")
        #expect(out == "\(png)  00:00:01.000  2 events\n")
    }

    @Test func renderEveryDurationAndJSON() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, out, _) = run([
            "render", Self.demo, "--every", "00:04", "--size", "64x36", "--out-dir", folder.path, "--json",
        ])
        #expect(status == .success)
        let lines = out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines.first
                == #"{"type":"frame","file":"\#(Self.demo)","time":"00:00:00.000","ms":0,"width":64,"height":36,"events":0,"output":"\#(folder.path)/render-demo-00-00-00.000.png"}"#
        )
    }

    @Test(arguments: [
        (
            ["render", "x.ass", "--at", "1:2:3:4", "--out", "a.png"],
            "invalid value '1:2:3:4' for '--at' (expected HH:MM:SS.mmm, MM:SS or seconds)"
        ),
        (
            ["render", "x.ass", "--at", "1", "--size", "9000x10", "--out", "a.png"],
            "invalid value '9000x10' for '--size' (expected WxH from 1x1 to 8192x8192)"
        ),
        (
            ["render", "x.ass", "--every", "0", "--out-dir", "d"],
            "invalid value '0' for '--every' (expected a positive duration such as 0.5 or 00:02)"
        ),
        (["render", "x.ass", "--out", "a.png"], "'render' needs one of '--at', '--every'"),
        (["render", "x.ass", "--at", "1"], "'render' needs one of '--out', '--out-dir', '--sheet'"),
        (
            ["render", "x.ass", "--at", "1", "--out", "a.png", "--out-dir", "d"],
            "options '--out', '--out-dir' cannot be used together"
        ),
        (
            ["render", "x.ass", "--at", "1", "--background", "blue", "--out", "a.png"],
            "invalid value 'blue' for '--background' (expected transparent, black, checker, video)"
        ),
    ])
    func renderUsageErrors(arguments: [String], message: String) {
        let (status, out, err) = run(arguments)
        #expect(status == .usage)
        #expect(out == "")
        #expect(err == "subfix: error: \(message)\n")
    }

    @Test func renderRefusesTwoFramesIntoOneFileAndMediaOptions() throws {
        let (status, _, err) = run(["render", Self.demo, "--at", "1", "--at", "2", "--out", "/tmp/x.png"])
        #expect(status == .usage)
        #expect(
            err == "subfix: error: invalid value '/tmp/x.png' for '--out' (expected one frame; use --out-dir for 2)\n")
        let (trackStatus, _, trackErr) = run(["render", Self.demo, "--track", "1", "--at", "1", "--out", "/tmp/x.png"])
        #expect(trackStatus == .usage)
        #expect(
            trackErr
                == "subfix: error: invalid value '1' for '--track' (expected a media input (\(Self.demo) is a subtitle file))\n"
        )
        let (videoStatus, _, videoErr) = run([
            "render", Self.demo, "--background", "video", "--at", "1", "--out", "/tmp/x.png",
        ])
        #expect(videoStatus == .someFailed)
        #expect(videoErr == "subfix: error: \(Self.demo): no video stream for '--background video'\n")
        let (missingStatus, _, missingErr) = run(["render", "/nonexistent/a.srt", "--at", "1", "--out", "/tmp/x.png"])
        #expect(missingStatus == .someFailed)
        #expect(missingErr == "subfix: error: /nonexistent/a.srt: no such file\n")
    }

    static let tram = root.appendingPathComponent("Samples/tram.mkv").path

    /// `--track` is the player index, as in `extract`: track 1 is the Chinese ASS track (0:s:0, stream 2). With
    /// only the file's attached sample font, the characters it lacks are reported per event.
    @Test func checkTrackOneOfTheMKVIsTheChineseTrack() throws {
        let f = Self.tram + "#s:0"
        let expected = """
            \(f): event 1 at 00:00:00.200: font '微软雅黑' (not found, nothing to fall back to) lacks 末班车十分钟后发。 in "末班车十分钟后发车。"
            \(f): event 2 at 00:00:00.200: font 'SimHei' (not found, nothing to fall back to) lacks 终点站：海港路 in "终点站：海港路"
            \(f): event 3 at 00:00:01.500: font '微软雅黑' (not found, nothing to fall back to) lacks 等一下！ in "等一下！我还没买票。"
            \(f): event 3 at 00:00:01.500: font 'SimHei' (not found, nothing to fall back to) lacks 我还没买票。 in "等一下！我还没买票。"
            \(f): event 4 at 00:00:02.900: font '微软雅黑' (not found, nothing to fall back to) lacks 上车再补也行，别站在门口。 in "上车再补也行，别站在门口。"
            \(f): event 5 at 00:00:04.200: font '微软雅黑' (not found, nothing to fall back to) lacks 谢你。 in "谢谢你。"
            \(f): 5 events, 5 with missing glyphs

            """
        for selector in [["--track", "1"], ["--subtitle-index", "0"], ["--stream", "2"], []] {
            let (status, out, err) = run(["check", Self.tram, "--no-system-fonts"] + selector)
            #expect(status == .someFailed)
            #expect(out == expected)
            #expect(err == "")
        }
        let (status, out, err) = run(["check", Self.tram, "--track", "2", "--no-system-fonts", "--json"])
        #expect(status == .someFailed)
        #expect(err == "")
        #expect(out.hasPrefix("{\"type\":\"file\",\"file\":\"\(Self.tram)#s:1\",\"events\":"))
    }

    @Test func renderTrackOneOfTheMKVDrawsTheChineseTrack() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("t.png").path
        let (status, out, err) = run([
            "render", Self.tram, "--track", "1", "--at", "1", "--size", "320x180", "--out", png, "--json",
        ])
        #expect(status == .success)
        #expect(err == "")
        #expect(
            out == """
                {"type":"frame","file":"\(Self.tram)","time":"00:00:01.000","ms":1000,"width":320,"height":180,"events":2,"output":"\(png)"}

                """)
        let image = try PNGDecoder.decode(try Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(image.rgba.contains { $0 != 0 })
    }

    /// TrackIndex's errors reach the user word for word, in `render` and `check` alike.
    @Test(arguments: ["render", "check"])
    func trackErrorsAreTrackIndexs(command: String) throws {
        let extra = command == "render" ? ["--at", "1", "--out", "/tmp/subfix-never-written.png"] : []
        let (status, out, err) = run([command, Self.tram, "--track", "0"] + extra)
        #expect(status == .someFailed)
        #expect(out == "")
        #expect(
            err == "subfix: error: \(Self.tram): track 0 means \"Disable\" (no subtitles) in a player's subtitle menu;"
                + " the first subtitle track is track 1\n")
        let (pastStatus, _, pastErr) = run([command, Self.tram, "--track", "4"] + extra)
        #expect(pastStatus == .someFailed)
        #expect(
            pastErr == "subfix: error: \(Self.tram): there is no track 4; the file has 3 subtitle tracks:"
                + " track 1 = 0:s:0 = stream 2 (ass, chi); track 2 = 0:s:1 = stream 3 (subrip, eng);"
                + " track 3 = 0:s:2 = stream 4 (ass, jpn)\n")
        let (bothStatus, _, bothErr) = run([command, Self.tram, "--track", "1", "--stream", "2"] + extra)
        #expect(bothStatus == .usage)
        #expect(bothErr == "subfix: error: options '--track', '--stream' cannot be used together\n")
    }
}
