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
