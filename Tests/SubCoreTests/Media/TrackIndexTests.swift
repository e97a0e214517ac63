import SubCore
import Testing

@Suite struct TrackIndexTests {
    static let listing =
        "the file has 3 subtitle tracks: track 1 = 0:s:0 = stream 2 (ass, chi); "
        + "track 2 = 0:s:1 = stream 3 (subrip, eng); track 3 = 0:s:2 = stream 4 (ass, jpn)"

    /// Every way of naming each subtitle track of the sample lands on the same stream. VLC's track 1 (after
    /// "Disable") is the Chinese track: ffmpeg's 0:s:0, stream 0:2; never 0:s:1 (the seeds' off-by-one).
    @Test(arguments: [
        (1, 0, 2, "chi"),
        (2, 1, 3, "eng"),
        (3, 2, 4, "jpn"),
    ])
    func everyIndexFormAgrees(player: Int, subtitle: Int, stream: Int, language: String) throws {
        let index = try MediaFile(path: MediaFixtures.mkv).trackIndex
        let byPlayer = try index.stream(for: .player(player))
        #expect(try index.stream(for: .subtitle(subtitle)) == byPlayer)
        #expect(try index.stream(for: .stream(stream)) == byPlayer)
        #expect(byPlayer.index == stream)
        #expect(byPlayer.subtitleIndex == subtitle)
        #expect(byPlayer.playerIndex == player)
        #expect(byPlayer.language == language)
        #expect(TrackIndex.playerIndex(forSubtitleIndex: subtitle) == player)
        #expect(TrackIndex.subtitleIndex(forPlayerIndex: player) == subtitle)
    }

    @Test func playerIndexZeroMeansDisable() throws {
        #expect(TrackIndex.subtitleIndex(forPlayerIndex: 0) == nil)
        let index = try MediaFile(path: MediaFixtures.mkv).trackIndex
        let error = try #require(throws: MediaError.self) { try index.stream(for: .player(0)) }
        #expect(
            error.cause
                == "track 0 means \"Disable\" (no subtitles) in a player's subtitle menu; the first subtitle track is track 1"
        )
    }

    @Test(arguments: [
        (TrackIndex.Selector.player(4), "there is no track 4; " + listing),
        (.player(-1), "there is no track -1; " + listing),
        (.subtitle(3), "there is no subtitle index 3 (0:s:3); " + listing),
        (.subtitle(-1), "there is no subtitle index -1 (0:s:-1); " + listing),
        (.stream(6), "there is no stream 6 (0:6); " + listing),
        (.stream(0), "stream 0 is video (h264), not a subtitle stream; subtitle streams are 2, 3, 4"),
        (.stream(1), "stream 1 is audio (flac), not a subtitle stream; subtitle streams are 2, 3, 4"),
        (.stream(5), "stream 5 is attachment (otf), not a subtitle stream; subtitle streams are 2, 3, 4"),
    ])
    func badIndexesNameTheTracksThatExist(selector: TrackIndex.Selector, message: String) throws {
        let index = try MediaFile(path: MediaFixtures.mkv).trackIndex
        let error = try #require(throws: MediaError.self) { try index.stream(for: selector) }
        #expect(error.cause == message)
        #expect(error.file == MediaFixtures.mkv)
    }

    @Test func aFileWithoutSubtitlesSaysSo() throws {
        let directory = try MediaFixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("silent.mkv").path
        try MediaFixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x36:rate=5:duration=1", "-c:v", "mpeg4", path])
        let index = try MediaFile(path: path).trackIndex
        let error = try #require(throws: MediaError.self) { try index.stream(for: .player(1)) }
        #expect(error.cause == "there is no track 1; the file has no subtitle tracks")
        let streamError = try #require(throws: MediaError.self) { try index.stream(for: .stream(0)) }
        #expect(
            streamError.cause
                == "stream 0 is video (mpeg4), not a subtitle stream; the file has no subtitle streams")
    }
}
