/// The text format an extracted track is written in.
public enum ExtractionFormat: String, Sendable, Equatable, CaseIterable {
    /// Advanced SubStation Alpha, with the track's own header and styles (libavformat's `ass` muxer).
    case ass
    /// SubRip (libavcodec's `srt` encoder, libavformat's `srt` muxer).
    case srt

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// The libavformat muxer name.
    var muxerName: String { rawValue }

    /// ASS for ASS/SSA tracks (keeps their styles), SubRip for every other text codec.
    public static func automatic(for stream: MediaStream) -> ExtractionFormat {
        stream.codec == "ass" || stream.codec == "ssa" ? .ass : .srt
    }
}

/// What the caller asked for: a fixed format, or `automatic(for:)` per track.
public enum ExtractionFormatChoice: String, Sendable, Equatable, CaseIterable {
    case ass, srt, auto

    /// The format a given track is written in.
    public func resolve(for stream: MediaStream) -> ExtractionFormat {
        switch self {
        case .ass: return .ass
        case .srt: return .srt
        case .auto: return ExtractionFormat.automatic(for: stream)
        }
    }
}
