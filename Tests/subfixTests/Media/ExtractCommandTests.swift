import Foundation
import Testing

@testable import subfix

@Suite struct ExtractCommandTests {
    /// `--track 1` is the player's first subtitle track: the Chinese ASS stream (0:s:0, stream 2).
    @Test func trackOneIsTheChineseTrack() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let out = directory.appendingPathComponent("out")
        let (io, output) = CommandIO.capturing()
        #expect(
            SubfixCLI.run(["extract", MediaCLIFixtures.mkv, "--track", "1", "--out", out.path], io: io) == .success)
        #expect(output.stderr == "")
        #expect(output.stdout == "\(out.path)/tram.0.chi.ass: track 1 = 0:s:0 = stream 2 (ass, chi)\n")
        let text = try String(contentsOf: out.appendingPathComponent("tram.0.chi.ass"), encoding: .utf8)
        #expect(text.contains("末班车十分钟后发车。"))
        #expect(try MediaCLIFixtures.listing(out) == ["tram.0.chi.ass"])
    }

    @Test func allTracksAndAttachmentsAsJSON() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: directory, as: "movie.mkv")
        let fonts = directory.appendingPathComponent("fonts")
        let (io, output) = CommandIO.capturing()
        let status = SubfixCLI.run(
            ["extract", mkv, "--all", "--format", "srt", "--attachments", fonts.path, "--json"], io: io)
        #expect(status == .success)
        #expect(output.stderr == "")
        let dir = directory.path
        #expect(
            output.stdout == """
                {"type":"track","file":"\(mkv)","track":1,"subtitleIndex":0,"stream":2,"codec":"ass","language":"chi","format":"srt","output":"\(dir)/movie.0.chi.srt"}
                {"type":"track","file":"\(mkv)","track":2,"subtitleIndex":1,"stream":3,"codec":"subrip","language":"eng","format":"srt","output":"\(dir)/movie.1.eng.srt"}
                {"type":"track","file":"\(mkv)","track":3,"subtitleIndex":2,"stream":4,"codec":"ass","language":"jpn","format":"srt","output":"\(dir)/movie.2.jpn.srt"}
                {"type":"attachment","file":"\(mkv)","stream":5,"filename":"NotoSansCJKsc-Sample.otf","mimetype":"application/vnd.ms-opentype","size":24168,"output":"\(fonts.path)/NotoSansCJKsc-Sample.otf"}

                """)
        #expect(
            try MediaCLIFixtures.listing(directory)
                == ["fonts", "movie.0.chi.srt", "movie.1.eng.srt", "movie.2.jpn.srt", "movie.mkv"])
    }

    @Test func attachmentsAloneWriteOnlyAttachments() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: directory, as: "movie.mkv")
        let fonts = directory.appendingPathComponent("fonts")
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", mkv, "--attachments", fonts.path], io: io) == .success)
        #expect(output.stdout == "\(fonts.path)/NotoSansCJKsc-Sample.otf: attachment, stream 5 (24168 bytes)\n")
        #expect(try MediaCLIFixtures.listing(directory) == ["fonts", "movie.mkv"])
        // A second run never overwrites: the font comes out under a numbered name.
        let (io2, output2) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", mkv, "--attachments", fonts.path], io: io2) == .success)
        #expect(output2.stdout == "\(fonts.path)/NotoSansCJKsc-Sample-1.otf: attachment, stream 5 (24168 bytes)\n")
    }

    @Test(arguments: [
        (
            ["--track", "0"],
            "track 0 means \"Disable\" (no subtitles) in a player's subtitle menu; the first subtitle track is track 1"
        ),
        (
            ["--track", "4"],
            "there is no track 4; the file has 3 subtitle tracks: track 1 = 0:s:0 = stream 2 (ass, chi); track 2 = 0:s:1 = stream 3 (subrip, eng); track 3 = 0:s:2 = stream 4 (ass, jpn)"
        ),
        (
            ["--subtitle-index", "3"],
            "there is no subtitle index 3 (0:s:3); the file has 3 subtitle tracks: track 1 = 0:s:0 = stream 2 (ass, chi); track 2 = 0:s:1 = stream 3 (subrip, eng); track 3 = 0:s:2 = stream 4 (ass, jpn)"
        ),
        (["--stream", "1"], "stream 1 is audio (flac), not a subtitle stream; subtitle streams are 2, 3, 4"),
        (
            ["--track", "1", "--stream", "0"],
            "stream 0 is video (h264), not a subtitle stream; subtitle streams are 2, 3, 4"
        ),
    ])
    func badTracksFailWithoutWritingAnything(arguments: [String], message: String) throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: directory, as: "tram.mkv")
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", mkv] + arguments, io: io) == .someFailed)
        #expect(output.stderr == "subfix: error: \(mkv): \(message)\n")
        #expect(output.stdout == "")
        #expect(try MediaCLIFixtures.listing(directory) == ["tram.mkv"])
    }

    @Test(arguments: [
        (
            [] as [String],
            "subfix: error: 'extract' needs one of '--track', '--subtitle-index', '--stream', '--all', '--attachments'\n"
        ),
        (["--all", "--track", "1"], "subfix: error: options '--track', '--all' cannot be used together\n"),
        (["--track", "one"], "subfix: error: invalid value 'one' for '--track' (expected a whole number from 0)\n"),
        (
            ["--all", "--format", "vtt"],
            "subfix: error: invalid value 'vtt' for '--format' (expected ass, srt, auto)\n"
        ),
    ])
    func usageErrorsExitTwo(arguments: [String], stderr: String) {
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", MediaCLIFixtures.mkv] + arguments, io: io) == .usage)
        #expect(output.stderr == stderr)
    }

    @Test func notMediaFailsWithNoOutputFile() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let bogus = directory.appendingPathComponent("notes.mkv")
        try Data("WEBVTT? no, just notes\n".utf8).write(to: bogus)
        let (io, output) = CommandIO.capturing()
        #expect(
            SubfixCLI.run(
                ["extract", bogus.path, "--all", "--attachments", directory.appendingPathComponent("f").path], io: io)
                == .someFailed)
        #expect(
            output.stderr
                == "subfix: error: \(bogus.path): not a media file libavformat can read "
                + "(avformat_open_input: Invalid data found when processing input)\n")
        #expect(try MediaCLIFixtures.listing(directory) == ["notes.mkv"])
    }

    @Test func truncatedFileWritesWhatIsReadableWarnsAndExitsOne() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let half = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: directory, as: "half.mkv", fraction: 0.5)
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", half, "--track", "1", "--format", "srt"], io: io) == .someFailed)
        #expect(output.stdout == "\(directory.path)/half.0.chi.srt: track 1 = 0:s:0 = stream 2 (ass, chi)\n")
        #expect(output.stderr.hasPrefix("subfix: warning: \(half): reading stopped at 0:00:0"))
        #expect(
            output.stderr.hasSuffix(" of 0:00:05.000 (File ended prematurely); the tracks hold what was readable\n"))
        let text = try String(contentsOf: directory.appendingPathComponent("half.0.chi.srt"), encoding: .utf8)
        #expect(text.hasPrefix("1\n00:00:00,200 --> 00:00:01,400\n"))
    }

    @Test func bitmapTracksAreNamedAndNeverExtracted() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let pgs = try MediaCLIFixtures.pgsOnlyMKV(in: directory)
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", pgs, "--track", "1"], io: io) == .someFailed)
        #expect(
            output.stderr
                == "subfix: error: \(pgs): track 1 is PGS (bitmap): text extraction needs OCR "
                + "(subfix extract --ocr)\n")
        let (io2, output2) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", pgs, "--all"], io: io2) == .someFailed)
        #expect(
            output2.stderr
                == "subfix: warning: \(pgs): skipped: track 1 is PGS (bitmap): text extraction needs OCR "
                + "(subfix extract --ocr)\nsubfix: error: \(pgs): the file has no text subtitle tracks\n")
        #expect(try MediaCLIFixtures.listing(directory) == ["pgs.mkv", "pgs.sup"])
        let (io3, output3) = CommandIO.capturing()
        #expect(SubfixCLI.run(["probe", pgs], io: io3) == .success)
        #expect(output3.stdout.contains("  1       subtitle  hdmv_pgs_subtitle  bitmap"))
        #expect(output3.stdout.hasSuffix("  0:s:0  1\n"))
    }

    @Test func droppedCuesAreWarnedAboutAndExitOne() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        var srt = Data("1\r\n00:00:00,500 --> 00:00:01,500\r\n".utf8)
        srt.append(contentsOf: [0xD6, 0xD0, 0xCE, 0xC4])  // GBK, not UTF-8
        srt.append(Data("\r\n\r\n2\r\n00:00:02,000 --> 00:00:03,000\r\nplain\r\n".utf8))
        let source = directory.appendingPathComponent("gbk.srt")
        try srt.write(to: source)
        let mkv = directory.appendingPathComponent("gbk.mkv").path
        try MediaCLIFixtures.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=64x36:rate=5:duration=3", "-i", source.path,
            "-map", "0:v", "-map", "1:s", "-c:v", "mpeg4", "-c:s", "copy", mkv,
        ])
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", mkv, "--track", "1"], io: io) == .someFailed)
        #expect(output.stdout == "\(directory.path)/gbk.0.srt: track 1 = 0:s:0 = stream 1 (subrip)\n")
        #expect(
            output.stderr
                == "subfix: warning: \(mkv): track 1: dropped the subtitle at 0:00:00.500: its text is not valid UTF-8\n"
        )
    }

    @Test func outFolderThatIsAFileFailsCleanly() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let blocker = directory.appendingPathComponent("out")
        try Data("I am a file".utf8).write(to: blocker)
        let (io, output) = CommandIO.capturing()
        #expect(
            SubfixCLI.run(["extract", MediaCLIFixtures.mkv, "--all", "--out", blocker.path], io: io) == .someFailed)
        #expect(output.stderr == "subfix: error: \(blocker.path): cannot create the folder\n")
        #expect(try MediaCLIFixtures.listing(directory) == ["out"])
    }

    @Test func helpDescribesTheIndexConventions() {
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", "--help"], io: io) == .success)
        #expect(output.stdout.contains("--track N"))
        #expect(output.stdout.contains("0 is \"Disable\""))
    }
}
