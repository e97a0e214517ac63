/// Text from files (names, malformed lines) made safe to print on one line of a terminal: control characters
/// (C0, DEL, C1), line and paragraph separators and bidirectional overrides become visible escapes (`\e]0;`,
/// `\n`, `\u{2028}`), and the raw bytes of a non-UTF-8 file name (see `PathBytes`) print as `\xff`.
///
///     MessageText.escaped("a\u{1B}[31mb")    // "a\\x1b[31mb"
package enum MessageText {
    /// `text` with every character that could move the cursor, change the terminal or split the line escaped.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                output.unicodeScalars.append(scalar)
                continue
            }
            if let byte = PathBytes.rawByte(scalar) {
                output += "\\x" + hex(UInt32(byte), width: 2)
                continue
            }
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                output += scalar.value < 0x80 ? "\\x" + hex(scalar.value, width: 2) : "\\u{" + hex(scalar.value) + "}"
            }
        }
        return output
    }

    /// Whether `scalar` is escaped: C0 controls, DEL, C1 controls, U+2028/U+2029, bidirectional controls, and
    /// the scalars that stand for a file name's raw bytes.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return PathBytes.rawByte(scalar) != nil
        }
    }

    private static func hex(_ value: UInt32, width: Int = 1) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
