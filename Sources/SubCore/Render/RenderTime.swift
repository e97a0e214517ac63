/// Times on the command line: `HH:MM:SS.mmm`, `MM:SS` (fraction allowed) or plain seconds (`12.5`).
///
///     try RenderTime.parse("01:02.5")   // 62_500 (milliseconds)
///     RenderTime.format(62_500)         // "00:01:02.500"
package enum RenderTime {
    /// Milliseconds from a time text.
    package static func parse(_ text: String) throws(RenderError) -> Int {
        guard let value = milliseconds(text) else { throw .badTime(text) }
        return value
    }

    /// Milliseconds from a duration text (a positive time).
    package static func parseDuration(_ text: String) throws(RenderError) -> Int {
        guard let value = milliseconds(text), value > 0 else { throw .badDuration(text) }
        return value
    }

    /// `HH:MM:SS.mmm`.
    package static func format(_ milliseconds: Int) -> String {
        let ms = max(0, milliseconds)
        let seconds = ms / 1000
        return "\(pad(seconds / 3600)):\(pad(seconds / 60 % 60)):\(pad(seconds % 60)).\(pad(ms % 1000, 3))"
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func milliseconds(_ text: String) -> Int? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count), let seconds = fraction(fields[fields.count - 1]) else { return nil }
        if fields.count == 1 { return seconds }
        // With minutes, seconds are two digits below 60; minutes below 60 when hours are given.
        guard seconds < 60_000, fields[fields.count - 1].prefix(while: { $0 != "." }).count == 2 else { return nil }
        var minutes = 0
        for (position, field) in fields.dropLast().enumerated() {
            guard !field.isEmpty, field.count <= 4, field.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(field)
            else { return nil }
            let isMinutesAfterHours = fields.count == 3 && position == 1
            if isMinutesAfterHours && (value >= 60 || field.count != 2) { return nil }
            minutes = minutes * 60 + value
        }
        return minutes * 60_000 + seconds
    }

    /// `SS`, `SS.s`, `SS.mmm` (up to millisecond precision) in milliseconds.
    private static func fraction(_ text: Substring) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 9,
            parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let whole = Int(parts[0])
        else { return nil }
        var ms = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(digits)
            else { return nil }
            ms = value * [100, 10, 1][digits.count - 1]
        }
        return whole * 1000 + ms
    }
}
