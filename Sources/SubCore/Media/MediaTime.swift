/// Formats media times for people.
package enum MediaTime {
    /// `H:MM:SS.mmm`, such as `0:01:02.500`.
    package static func format(_ seconds: Double) -> String {
        let totalMilliseconds = max(0, Int((seconds * 1000).rounded()))
        let hours = totalMilliseconds / 3_600_000
        let minutes = totalMilliseconds / 60_000 % 60
        let secs = totalMilliseconds / 1000 % 60
        let millis = totalMilliseconds % 1000
        return "\(hours):" + pad(minutes, 2) + ":" + pad(secs, 2) + "." + pad(millis, 3)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
