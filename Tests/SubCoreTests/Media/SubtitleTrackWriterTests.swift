import Foundation
import SubCore
import Testing

@Suite struct SubtitleTrackWriterTests {
    @Test func writesEachTrackThroughTheTransform() throws {
        let directory = try MediaFixtures.temporaryDirectory()
        let media = try MediaFile(path: MediaFixtures.mkv)
        let result = try SubtitleExtractor(file: media).extract(tracks: media.subtitleStreams, format: .auto)
        let names = SidecarNamer(naming: .subfix, base: "tram", streams: media.subtitleStreams)
        let written = try SubtitleTrackWriter.write(result.tracks, names: names, to: directory) { track in
            Data(
                String(decoding: track.data, as: UTF8.self).replacingOccurrences(of: "微软雅黑", with: "Noto Sans CJK SC")
                    .utf8)
        }
        #expect(written.map(\.url.lastPathComponent) == ["tram.0.chi.ass", "tram.1.eng.srt", "tram.2.jpn.ass"])
        let chinese = try String(contentsOf: written[0].url, encoding: .utf8)
        #expect(chinese.contains("Style: Default,Noto Sans CJK SC,18,"))
        #expect(!chinese.contains("微软雅黑"))
        #expect(try Data(contentsOf: written[1].url) == result.tracks[1].data)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 3)
    }

    /// A transform that fails on the second track leaves no file at all: not the first, not a temporary.
    @Test func aFailingTransformLeavesNothingBehind() throws {
        struct Refused: Error {}
        let directory = try MediaFixtures.temporaryDirectory()
        let media = try MediaFile(path: MediaFixtures.mkv)
        let result = try SubtitleExtractor(file: media).extract(tracks: media.subtitleStreams, format: .srt)
        let names = SidecarNamer(naming: .subfix, base: "tram", streams: media.subtitleStreams)
        #expect(throws: Refused.self) {
            try SubtitleTrackWriter.write(result.tracks, names: names, to: directory) { track in
                if track.stream.subtitleIndex == 1 { throw Refused() }
                return track.data
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func hostileLanguageTagsNeverReachThePath() {
        let stream = MediaStream(
            index: 2, kind: .subtitle, codec: "ass", subtitleEncoding: .text, language: "../x", title: nil,
            isDefault: false, isForced: false, subtitleIndex: 0, playerIndex: 1)
        var track = ExtractedTrack(stream: stream, format: .ass, data: Data())
        #expect(track.fileName(base: "movie") == "movie.0.x.ass")
        track.stream.language = nil
        #expect(track.fileName(base: "movie") == "movie.0.ass")
        track.stream.language = "/."
        #expect(track.fileName(base: "movie") == "movie.0.ass")
    }
}
