/// A subtitle packet that could not be decoded, such as a cue whose text is not UTF-8.
public struct SubtitleDecodeProblem: Sendable, Equatable, CustomStringConvertible {
    /// When the subtitle was to be shown (seconds), if the packet said.
    public var time: Double?
    /// Why it was dropped.
    public var reason: String

    /// A problem at `time`.
    public init(time: Double?, reason: String) {
        self.time = time
        self.reason = reason
    }

    /// "dropped the subtitle at 0:00:00.500: its text is not valid UTF-8".
    public var description: String {
        "dropped the subtitle at \(time.map(MediaTime.format) ?? "an unknown time"): \(reason)"
    }
}
