import Foundation

/// One subtitle track read out of a media file, held in memory: exactly the bytes
/// `ffmpeg -i IN -map 0:s:N OUT.<format>` would write.
public struct ExtractedTrack: Sendable, Equatable {
    /// The stream it came from (indexes, language, codec).
    public var stream: MediaStream
    /// The format `data` is in.
    public var format: ExtractionFormat
    /// The file's bytes (UTF-8 text).
    public var data: Data
    /// Subtitle packets libavcodec refused and that are therefore missing from `data` (ffmpeg drops them too).
    public var problems: [SubtitleDecodeProblem] = []

    /// A track's bytes and where they came from.
    public init(stream: MediaStream, format: ExtractionFormat, data: Data) {
        self.stream = stream
        self.format = format
        self.data = data
    }

    /// The file name for this track in the `subfix` scheme: `<base>.<subtitleIndex>.<language>.<ext>`, the
    /// language left out when it is unknown or not a plain tag. `SidecarNamer` names it in any scheme.
    public func fileName(base: String) -> String {
        SidecarNamer(naming: .subfix, base: base, streams: [stream]).name(for: stream, format: format).fileName
    }
}
