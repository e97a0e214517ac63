/// Converts between the three ways subtitle tracks are counted. This is the one place the conventions live:
///
/// | convention | name here | first subtitle | counts | used by |
/// | --- | --- | --- | --- | --- |
/// | player index | `playerIndex` | 1 | subtitle streams only; **0 is "Disable"** | VLC's subtitle menu (`videoSubTitlesIndexes`: entry 0 is "Disable"), mpv's `sid` (1-based, `sid=no` disables), `subfix extract --track` |
/// | subtitle index | `subtitleIndex` | 0 | subtitle streams only | ffmpeg `-map 0:s:N`, `subfix extract --subtitle-index` |
/// | stream index | `index` | any | every stream (video, audio, attachments, ...) | ffmpeg `-map 0:N`, ffprobe `Stream #0:N`, `subfix extract --stream` |
///
/// So player index = subtitle index + 1, and the stream index depends on the file. The classic bug is
/// passing VLC's index straight to `-map 0:s:N`, which extracts the next track (English instead of Chinese):
///
///     let index = try MediaFile(path: "tram.mkv").trackIndex
///     try index.stream(for: .player(1)).subtitleIndex   // 0: VLC's first subtitle is ffmpeg's 0:s:0
///     try index.stream(for: .player(1)).index           // 2: ffmpeg's 0:2 (after video and audio)
public struct TrackIndex: Sendable, Equatable {
    /// One way of naming a subtitle track.
    public enum Selector: Sendable, Equatable, Hashable {
        /// The player's menu number: 1 is the first subtitle stream, 0 means "Disable".
        case player(Int)
        /// 0-based among subtitle streams (`-map 0:s:N`).
        case subtitle(Int)
        /// The absolute stream index (`-map 0:N`).
        case stream(Int)
    }

    /// The file the streams came from (used in error messages).
    public let file: String
    /// The subtitle streams, in subtitle-index order.
    public let subtitleStreams: [MediaStream]
    private let allStreams: [MediaStream]

    /// An index over `streams` (all of a file's streams, in stream order).
    public init(streams: [MediaStream], file: String) {
        self.file = file
        self.allStreams = streams
        self.subtitleStreams = streams.filter { $0.kind == .subtitle }
    }

    /// The player index of the subtitle stream with subtitle index `subtitleIndex`.
    public static func playerIndex(forSubtitleIndex subtitleIndex: Int) -> Int { subtitleIndex + 1 }

    /// The subtitle index of player index `playerIndex` (nil for 0, "Disable").
    public static func subtitleIndex(forPlayerIndex playerIndex: Int) -> Int? {
        playerIndex >= 1 ? playerIndex - 1 : nil
    }

    /// The subtitle stream `selector` names; throws `MediaError.disableTrack`, `.noSuchTrack` or
    /// `.notSubtitle` with a message listing the tracks that exist.
    public func stream(for selector: Selector) throws -> MediaStream {
        switch selector {
        case .player(let player):
            if player == 0 { throw MediaError.disableTrack(file: file) }
            guard let subtitle = TrackIndex.subtitleIndex(forPlayerIndex: player), subtitle < subtitleStreams.count
            else { throw MediaError.noSuchTrack(file: file, requested: "track \(player)", available: listing) }
            return subtitleStreams[subtitle]
        case .subtitle(let subtitle):
            guard subtitle >= 0, subtitle < subtitleStreams.count else {
                throw MediaError.noSuchTrack(
                    file: file, requested: "subtitle index \(subtitle) (0:s:\(subtitle))", available: listing)
            }
            return subtitleStreams[subtitle]
        case .stream(let index):
            guard let stream = allStreams.first(where: { $0.index == index }) else {
                throw MediaError.noSuchTrack(file: file, requested: "stream \(index) (0:\(index))", available: listing)
            }
            guard stream.kind == .subtitle else {
                throw MediaError.notSubtitle(
                    file: file, stream: index, kind: stream.kind.rawValue, codec: stream.codec,
                    subtitleStreams: subtitleStreams.map(\.index))
            }
            return stream
        }
    }

    /// "the file has 3 subtitle tracks: track 1 = 0:s:0 = stream 2 (ass, chi), ..." for error messages.
    public var listing: String {
        guard !subtitleStreams.isEmpty else { return "the file has no subtitle tracks" }
        let count = subtitleStreams.count == 1 ? "1 subtitle track" : "\(subtitleStreams.count) subtitle tracks"
        let tracks = subtitleStreams.map { stream -> String in
            let player = stream.playerIndex ?? 0
            let subtitle = stream.subtitleIndex ?? 0
            let details = [stream.codec, stream.language].compactMap { $0 }.joined(separator: ", ")
            return "track \(player) = 0:s:\(subtitle) = stream \(stream.index) (\(details))"
        }
        return "the file has \(count): " + tracks.joined(separator: "; ")
    }
}
