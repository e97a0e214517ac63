/// The result of one demux pass: every requested track, and whether reading stopped before the end.
public struct ExtractionResult: Sendable, Equatable {
    /// The tracks, in subtitle-index order.
    public var tracks: [ExtractedTrack]
    /// Set when the file is truncated or damaged: the tracks then hold what was readable.
    public var interruption: ReadInterruption?
}
