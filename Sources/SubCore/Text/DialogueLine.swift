/// One event or cue as the dialogue index sees it: when it is shown, with which style, and its text both raw
/// (tags kept) and plain (override blocks and markup removed, `\N` and `\n` as line breaks).
public struct DialogueLine: Sendable, Equatable {
    /// Start time in milliseconds.
    public var startMilliseconds: Int
    /// End time in milliseconds.
    public var endMilliseconds: Int
    /// The ASS/SSA style name; empty for SRT and WebVTT.
    public var style: String
    /// The text as written in the file.
    public var rawText: String
    /// The text as shown: tags removed, line breaks as "\n".
    public var plainText: String

    public init(startMilliseconds: Int, endMilliseconds: Int, style: String, rawText: String, plainText: String) {
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
        self.style = style
        self.rawText = rawText
        self.plainText = plainText
    }
}

/// Reads the timestamps subtitles use.
enum Timestamp {
    /// Parses `[H:]MM:SS(.|,)fff`: hours optional, fraction of 1 to 3 digits (`.5` is 500 ms, ASS `.50` is
    /// 500 ms). Returns milliseconds, or nil when `range` holds anything else.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var parts: [Int] = []
        var fraction: Int?
        var fractionDigits = 0
        var current = 0
        var digits = 0
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = buffer[index]
            if byte.isDigit {
                if fraction != nil {
                    guard fractionDigits < 3 else { return nil }
                    fraction = (fraction ?? 0) * 10 + Int(byte - 0x30)
                    fractionDigits += 1
                } else {
                    guard digits < 9 else { return nil }
                    current = current * 10 + Int(byte - 0x30)
                    digits += 1
                }
            } else if byte == 0x3A, fraction == nil {  // ':'
                guard digits > 0, parts.count < 2 else { return nil }
                parts.append(current)
                current = 0
                digits = 0
            } else if byte == 0x2E || byte == 0x2C, fraction == nil {  // '.' ','
                guard digits > 0 else { return nil }
                parts.append(current)
                current = 0
                digits = 0
                fraction = 0
            } else {
                return nil
            }
            index += 1
        }
        guard let fraction, fractionDigits > 0, parts.count >= 2, parts.count <= 3 else { return nil }
        var scaled = fraction
        for _ in fractionDigits..<3 { scaled *= 10 }
        let seconds = parts[parts.count - 1]
        let minutes = parts[parts.count - 2]
        let hours = parts.count == 3 ? parts[0] : 0
        guard seconds < 60, minutes < 60 || parts.count == 2 else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + scaled
    }
}
