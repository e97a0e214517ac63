/// Where and why reading a damaged or truncated file stopped early.
public struct ReadInterruption: Sendable, Equatable, CustomStringConvertible {
    /// The time (seconds) of the last packet that could be read, of any stream.
    public var stoppedAt: Double
    /// The container's duration, when known.
    public var duration: Double?
    /// libavformat's reason ("File ended prematurely", "Invalid data found when processing input", ...).
    public var reason: String

    /// "reading stopped at 0:00:01.500 of 0:00:05.000 (File ended prematurely)".
    public var description: String {
        let total = duration.map { " of " + MediaTime.format($0) } ?? ""
        return "reading stopped at \(MediaTime.format(stoppedAt))\(total) (\(reason))"
    }
}
