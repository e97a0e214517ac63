import Foundation
import Testing

@testable import SubCore

/// Media inputs through SubCore/Media (MediaFile, SubtitleExtractor, font attachments): a subtitle track named
/// by player, subtitle or stream index, its font attachments, and the video frame as background. Test media is made with the ffmpeg CLI.
@Suite struct MediaInputTests {
    static let ffmpeg = RenderOracleTests.ffmpeg

    /// A 320x240, 25 fps, 4 s MKV with one ASS track whose style names "subfix Test Sans", and that font
    /// attached (the only place the font exists).
    static func makeMedia(in folder: URL) throws -> URL {
        let script = folder.appendingPathComponent("track.ass")
        try """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 320
        PlayResY: 240

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,subfix Test Sans,40,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,测试字体 ABC
        Dialogue: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,{\\an8}中文 abc

        """.write(to: script, atomically: true, encoding: .utf8)
        let media = folder.appendingPathComponent("movie.mkv")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ffmpeg))
        process.arguments = [
            "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=320x240:r=25:d=4", "-i",
            script.path,
            "-attach", FontTestSupport.fixtures.appendingPathComponent("subfix-test-sans.otf").path,
            "-metadata:s:t:0", "mimetype=application/vnd.ms-opentype", "-metadata:s:t:0", "filename=TestSans.otf",
            "-c:v", "mpeg4", "-q:v", "2", "-c:s", "ass", media.path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return media
    }

    @Test func readsTheTrackAndItsFontAttachments() throws {
        try #require(Self.ffmpeg != nil, "ffmpeg CLI not installed")
        let folder = try FontTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = try Self.makeMedia(in: folder)
        let input = try MediaSubtitles.input(path: media.path, track: .player(1))
        #expect(input.name == media.path + "#s:0")
        #expect(input.attachments.map(\.name) == ["TestSans.otf"])
        let setup = FontSetup(systemFonts: false, attachments: input.attachments)
        let renderer = try SubtitleRenderer(input: input, setup: setup, width: 320, height: 240)
        #expect(renderer.events.map(\.start) == [1000, 2000])
        #expect(renderer.events.map(\.end) == [3000, 3000])
        #expect(renderer.events.map(\.text) == ["测试字体 ABC", "{\\an8}中文 abc"])
        // The attached font is the only font, in --no-system-fonts mode: it resolves, and only 中文 is missing.
        let report = try GlyphChecker.check(renderer, catalog: FontCatalog(setup: setup))
        #expect(report.missing.map { String(String.UnicodeScalarView($0.characters)) } == ["中文"])
        #expect(report.missing.first?.face == "subfix Test Sans (TestSans.otf)")

        // The same track by its other names; TrackIndex's errors come through unchanged.
        #expect(try MediaSubtitles.input(path: media.path, track: .subtitle(0)).assText == input.assText)
        #expect(try MediaSubtitles.input(path: media.path, track: .stream(1)).assText == input.assText)
        #expect(throws: MediaError.disableTrack(file: media.path)) {
            try MediaSubtitles.input(path: media.path, track: .player(0))
        }
        let listing = "the file has 1 subtitle track: track 1 = 0:s:0 = stream 1 (ass)"
        #expect(throws: MediaError.noSuchTrack(file: media.path, requested: "track 2", available: listing)) {
            try MediaSubtitles.input(path: media.path, track: .player(2))
        }
        #expect(
            throws: MediaError.notSubtitle(
                file: media.path, stream: 0, kind: "video", codec: "mpeg4", subtitleStreams: [1])
        ) {
            try MediaSubtitles.input(path: media.path, track: .stream(0))
        }
    }

    /// Subtitles over the media's own video frame match ffmpeg's `subtitles` filter over the same video.
    @Test func drawsTheVideoFrameAsBackground() throws {
        try #require(Self.ffmpeg != nil, "ffmpeg CLI not installed")
        let folder = try FontTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = try Self.makeMedia(in: folder)
        let expectedPath = folder.appendingPathComponent("expected.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.ffmpeg))
        let empty = folder.appendingPathComponent("no-fonts")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        process.arguments = [
            "-nostdin", "-loglevel", "error", "-y", "-i", media.path,
            "-vf", "format=rgb24,subtitles=\(media.path):fontsdir=\(empty.path),select=eq(n\\,50)", "-frames:v", "1",
            expectedPath.path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let expected = try PNGDecoder.decode(try Data(contentsOf: expectedPath))

        let input = try MediaSubtitles.input(path: media.path, track: .player(1))
        let renderer = try SubtitleRenderer(
            input: input, setup: FontSetup(attachments: input.attachments), width: 320, height: 240, shaping: .simple)
        var canvas = try Canvas(width: 320, height: 240, background: .black)
        try VideoBackground(path: media.path).draw(at: 2000, into: &canvas)
        renderer.render(at: 2000, into: &canvas)
        let ours = try PNGDecoder.decode(try PNGEncoder(width: 320, height: 240, opaque: true).encode(canvas))
        let psnr = ours.psnrRGB(against: expected)
        #expect(psnr >= 40, "PSNR \(psnr) dB")

        let script = FontTestSupport.fixtures.appendingPathComponent("render-basic.ass").path
        #expect(throws: RenderError.noVideo(file: script)) { try VideoBackground(path: script) }
        let font = FontTestSupport.bundledFont.path
        #expect(
            throws: RenderError.unreadable(
                file: font,
                cause:
                    "not a media file libavformat can read (avformat_open_input: Invalid data found when processing input)"
            )
        ) { try VideoBackground(path: font) }
    }
}
