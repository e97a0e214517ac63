internal import CFFmpeg

/// Where and why reading a damaged or truncated file went wrong. Either reading stopped early (a truncated file:
/// `damagedAfter` is nil) or the demuxer skipped damaged data and read on (`damagedAfter` is when it happened).
public struct ReadInterruption: Sendable, Equatable, CustomStringConvertible {
    /// The time (seconds) of the last packet that could be read, of any stream.
    public var stoppedAt: Double
    /// When the demuxer met damaged data and read on past it: the time of the last good packet before it.
    public var damagedAfter: Double?
    /// The container's duration, when known.
    public var duration: Double?
    /// libavformat's reason ("File ended prematurely", "Invalid data found when processing input", ...).
    public var reason: String

    /// A description of where reading went wrong.
    public init(stoppedAt: Double, damagedAfter: Double? = nil, duration: Double?, reason: String) {
        self.stoppedAt = stoppedAt
        self.damagedAfter = damagedAfter
        self.duration = duration
        self.reason = reason
    }

    /// "reading stopped at 0:00:01.500 of 0:00:05.000 (File ended prematurely)", or for damage read past:
    /// "damaged data after 0:00:02.000 was skipped (...); read to 0:00:04.968 of 0:00:05.000".
    public var description: String {
        let total = duration.map { " of " + MediaTime.format($0) } ?? ""
        if let damagedAfter {
            return "damaged data after \(MediaTime.format(damagedAfter)) was skipped (\(reason)); "
                + "read to \(MediaTime.format(stoppedAt))\(total)"
        }
        return "reading stopped at \(MediaTime.format(stoppedAt))\(total) (\(reason))"
    }
}

/// The one rule every demux pass (extraction, the remux's reads, the damage survey) uses to tell a whole read
/// from a damaged or cut one: an error the demuxer logged (while opening and probing too), a read that failed
/// before the end of file, or, where every stream was read, packets that end short of the container's duration.
/// A decoder's complaint about one frame never counts (`MediaLog.Line.isDamage`).
struct DemuxWatch {
    /// How far the last packet may end before the stated duration: frames and blocks are rounded, muxers
    /// round the duration.
    static let durationTolerance = 2.0

    /// The first demuxer error, from opening and probing or from reading.
    private(set) var damage: String?
    /// The latest packet end read, in seconds from the file's start.
    private(set) var lastEnd = 0.0

    /// A watch over a pass of `source` (which may already carry an error from its opening).
    init(_ source: MediaFile) {
        damage = source.openingDamage
    }

    /// Notes the lines libav logged while reading one packet.
    mutating func note(_ lines: [MediaLog.Line]) {
        if damage == nil, let line = lines.first(where: \.isDamage) { damage = line.text }
    }

    /// Notes where a packet ends (seconds).
    mutating func note(end: Double) {
        lastEnd = max(lastEnd, end)
    }

    /// Why the pass is not a whole read, or nil. `code` is `av_read_frame`'s last result; `everyStream` says
    /// whether every stream's packets were read (so the last end can be held against the duration).
    func problem(code: Int32, duration: Double?, everyStream: Bool) -> String? {
        if let damage { return damage }
        if code != cffmpeg_averror_eof() { return MediaError.message(for: code) }
        if everyStream, let duration, lastEnd + DemuxWatch.durationTolerance < duration {
            return "packets end at \(MediaTime.format(lastEnd)) of the stated \(MediaTime.format(duration))"
        }
        return nil
    }
}
