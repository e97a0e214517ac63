import Foundation
import SubCore
import Testing

@Suite struct SubtitleExtractorTests {
    /// Every text track of `path`, extracted in one pass per format, is byte for byte what the ffmpeg CLI writes.
    func expectSameAsFFmpeg(_ path: String, tracks expected: Int) throws {
        let directory = try MediaFixtures.temporaryDirectory()
        for format in [ExtractionFormatChoice.ass, .srt] {
            let media = try MediaFile(path: path)
            let result = try SubtitleExtractor(file: media).extract(tracks: media.subtitleStreams, format: format)
            #expect(result.interruption == nil)
            #expect(result.tracks.count == expected)
            for track in result.tracks {
                let subtitleIndex = try #require(track.stream.subtitleIndex)
                let oracle = try MediaFixtures.ffmpegExtract(
                    path, subtitleIndex: subtitleIndex, format: format.rawValue, in: directory)
                #expect(track.format.rawValue == format.rawValue)
                #expect(!track.data.isEmpty)
                #expect(
                    track.data == oracle,
                    "\(path) 0:s:\(subtitleIndex) \(format): \(String(decoding: track.data, as: UTF8.self))")
            }
        }
    }

    @Test func sampleMKVMatchesFFmpeg() throws {
        try expectSameAsFFmpeg(MediaFixtures.mkv, tracks: 3)
    }

    @Test func sampleMP4MatchesFFmpeg() throws {
        try expectSameAsFFmpeg(MediaFixtures.mp4, tracks: 1)
    }

    /// WebVTT and SubRip in MKV and mov_text in MP4, made in the test; the MKV starts at 10 s, which ffmpeg
    /// shifts away (its input `ts_offset`), so the extractor must too.
    @Test func generatedMediaMatchesFFmpeg() throws {
        let directory = try MediaFixtures.temporaryDirectory()
        let vtt = directory.appendingPathComponent("cues.vtt")
        try Data(
            """
            WEBVTT

            00:00.300 --> 00:01.200
            第一行 <b>粗体</b>

            00:01.250 --> 00:02.900 align:start
            second cue
            two lines

            """.utf8
        ).write(to: vtt)
        let mkv = directory.appendingPathComponent("generated.mkv").path
        try MediaFixtures.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=64x36:rate=5:duration=3", "-i", vtt.path,
            "-i", MediaFixtures.source("en.srt"), "-map", "0:v", "-map", "1:s", "-map", "2:s",
            "-c:v", "mpeg4", "-c:s", "copy", "-output_ts_offset", "10", mkv,
        ])
        #expect(try MediaFile(path: mkv).subtitleStreams.map(\.codec) == ["webvtt", "subrip"])
        try expectSameAsFFmpeg(mkv, tracks: 2)

        // Old SubStation Alpha (v4, "Marked" events) keeps its own header through ffmpeg's ASS muxer.
        let ssa = directory.appendingPathComponent("old.ssa")
        try Data(
            ("[Script Info]\r\nScriptType: v4.00\r\n\r\n[V4 Styles]\r\nFormat: Name, Fontname, Fontsize, "
                + "PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, "
                + "Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding\r\nStyle: Default,SimHei,20,"
                + "16777215,255,0,0,0,0,1,1,0,2,10,10,10,0,134\r\n\r\n[Events]\r\nFormat: Marked, Start, End, "
                + "Style, Name, MarginL, MarginR, MarginV, Effect, Text\r\nDialogue: Marked=0,0:00:00.50,0:00:01.50,"
                + "Default,,0000,0000,0000,,旧格式字幕\r\nDialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0000,0000,"
                + "0000,,second line\r\n").utf8
        ).write(to: ssa)
        let ssaMKV = directory.appendingPathComponent("ssa.mkv").path
        try MediaFixtures.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=64x36:rate=5:duration=3", "-i", ssa.path,
            "-map", "0:v", "-map", "1:s", "-c:v", "mpeg4", "-c:s", "copy", ssaMKV,
        ])
        try expectSameAsFFmpeg(ssaMKV, tracks: 1)

        let mp4 = directory.appendingPathComponent("generated.mp4").path
        try MediaFixtures.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=64x36:rate=5:duration=3", "-i", MediaFixtures.source("en.srt"),
            "-i", MediaFixtures.source("ja.ass"), "-map", "0:v", "-map", "1:s", "-map", "2:s",
            "-c:v", "mpeg4", "-c:s", "mov_text", mp4,
        ])
        try expectSameAsFFmpeg(mp4, tracks: 2)
    }

    @Test func automaticFormatKeepsASSAndUsesSRTForTheRest() throws {
        let media = try MediaFile(path: MediaFixtures.mkv)
        let result = try SubtitleExtractor(file: media).extract(tracks: media.subtitleStreams, format: .auto)
        #expect(result.tracks.map(\.format) == [.ass, .srt, .ass])
        #expect(
            result.tracks.map { $0.fileName(base: "tram") } == ["tram.0.chi.ass", "tram.1.eng.srt", "tram.2.jpn.ass"])
        let chinese = String(decoding: result.tracks[0].data, as: UTF8.self)
        #expect(chinese.contains("Style: Default,微软雅黑,18,"))
        #expect(chinese.contains("Dialogue: 0,0:00:00.20,0:00:01.40,Default,司机,0,0,0,,末班车十分钟后发车。\r\n"))
    }

    /// The seeds' bug: VLC's track 1 handed to `-map 0:s:1` gave the English track. Here track 1 is Chinese.
    @Test func playerTrackOneIsTheFirstSubtitleStream() throws {
        let media = try MediaFile(path: MediaFixtures.mkv)
        let extractor = SubtitleExtractor(file: media)
        let streams = try extractor.streams(for: [.player(1)])
        #expect(streams.map(\.index) == [2])
        let result = try extractor.extract(tracks: streams, format: .srt)
        #expect(String(decoding: result.tracks[0].data, as: UTF8.self).contains("末班车十分钟后发车。"))
    }

    @Test func repeatedSelectorsGiveEachTrackOnceInStreamOrder() throws {
        let media = try MediaFile(path: MediaFixtures.mkv)
        let streams = try SubtitleExtractor(file: media).streams(for: [
            .player(3), .subtitle(0), .stream(4), .player(1),
        ])
        #expect(streams.map(\.index) == [2, 4])
    }

    /// A cue that is not UTF-8 is dropped, as ffmpeg drops it, and reported with its time.
    @Test func wronglyEncodedCuesAreDroppedAndReported() throws {
        let directory = try MediaFixtures.temporaryDirectory()
        let path = try MediaFixtures.gbkMKV(in: directory)
        let media = try MediaFile(path: path)
        let result = try SubtitleExtractor(file: media).extract(tracks: media.subtitleStreams, format: .srt)
        #expect(result.interruption == nil)
        let track = try #require(result.tracks.first)
        #expect(track.problems == [SubtitleDecodeProblem(time: 0.5, reason: "its text is not valid UTF-8")])
        #expect(track.problems.first?.description == "dropped the subtitle at 0:00:00.500: its text is not valid UTF-8")
        #expect(track.data == (try MediaFixtures.ffmpegExtract(path, subtitleIndex: 0, format: "srt", in: directory)))
        #expect(String(decoding: track.data, as: UTF8.self) == "1\n00:00:02,000 --> 00:00:03,000\nplain ascii\n\n")
    }

    @Test func askingForAVideoStreamIsAnError() throws {
        let media = try MediaFile(path: MediaFixtures.mkv)
        let error = try #require(throws: MediaError.self) {
            try SubtitleExtractor(file: media).extract(tracks: [media.streams[0]], format: .auto)
        }
        #expect(error.cause == "stream 0 is video (h264), not a subtitle stream; subtitle streams are 2, 3, 4")
    }

    @Test func theSameFileCanBeExtractedTwice() throws {
        let media = try MediaFile(path: MediaFixtures.mkv)
        let extractor = SubtitleExtractor(file: media)
        let first = try extractor.extract(tracks: [media.subtitleStreams[1]], format: .srt)
        let second = try extractor.extract(tracks: [media.subtitleStreams[1]], format: .srt)
        #expect(first == second)
        #expect(!first.tracks[0].data.isEmpty)
    }

    @Test func bitmapTrackIsAnErrorNamingOCR() throws {
        let directory = try MediaFixtures.temporaryDirectory()
        let media = try MediaFile(path: try MediaFixtures.bitmapMKV(in: directory))
        let extractor = SubtitleExtractor(file: media)
        let error = try #require(throws: MediaError.self) { try extractor.streams(for: [.player(2)]) }
        #expect(error.cause == "track 2 is PGS (bitmap): text extraction needs OCR (subfix extract --ocr)")
        let direct = try #require(throws: MediaError.self) {
            try extractor.extract(tracks: media.subtitleStreams, format: .srt)
        }
        #expect(direct == error)
        #expect(try extractor.extract(tracks: [media.subtitleStreams[0]], format: .srt).tracks.count == 1)
    }

    /// Half of each sample: what was readable comes out (the same as ffmpeg gets from it), with where reading
    /// stopped. The MP4's H.264 parser complains of a NAL unit cut short before the demuxer reports the partial
    /// file; a codec's line is not damage to the container (issue 35, item 4), so the cut reads as a cut.
    @Test(arguments: [
        ("tram.mkv", "reading stopped at 0:00:00.640 of 0:00:05.000 (File ended prematurely)"),
        ("tram.mp4", "reading stopped at 0:00:02.000 of 0:00:05.000 (stream 1, offset 0x3642: partial file)"),
    ])
    func truncatedFileGivesWhatIsReadable(sample: String, message: String) throws {
        let directory = try MediaFixtures.temporaryDirectory()
        let source = MediaFixtures.samples.appendingPathComponent(sample).path
        let half = try MediaFixtures.truncated(source, fraction: 0.5, as: "half-" + sample, in: directory)
        try expectReadableAndReported(half, message: message, in: directory)
    }

    /// 400 bytes of 0xFF in the middle of the MKV: the demuxer skips them and reads on.
    @Test func damagedMiddleIsSkippedAndReported() throws {
        let directory = try MediaFixtures.temporaryDirectory()
        var data = try Data(contentsOf: URL(fileURLWithPath: MediaFixtures.mkv))
        data.replaceSubrange(40_000..<40_400, with: Data(repeating: 0xFF, count: 400))
        let path = directory.appendingPathComponent("damaged.mkv").path
        try data.write(to: URL(fileURLWithPath: path))
        try expectReadableAndReported(
            path,
            message: "damaged data after 0:00:01.512 was skipped (Unknown-sized element at 0x9c9c inside parent with "
                + "finite size); read to 0:00:04.968 of 0:00:05.000",
            in: directory)
    }

    func expectReadableAndReported(_ path: String, message: String, in directory: URL) throws {
        let media = try MediaFile(path: path)
        let result = try SubtitleExtractor(file: media).extract(tracks: media.subtitleStreams, format: .srt)
        let interruption = try #require(result.interruption)
        #expect(interruption.description == message)
        #expect(interruption.duration == 5.0)
        for track in result.tracks {
            let oracle = try MediaFixtures.ffmpegExtract(
                path, subtitleIndex: track.stream.subtitleIndex ?? -1, format: "srt", in: directory)
            #expect(track.data == oracle)
        }
        #expect(result.tracks.contains { !$0.data.isEmpty })
    }

    @Test func mediaTimeFormatting() {
        #expect(MediaTime.format(0) == "0:00:00.000")
        #expect(MediaTime.format(1.5) == "0:00:01.500")
        #expect(MediaTime.format(3_723.0456) == "1:02:03.046")
    }
}
