import SubCore

/// Turns untrusted strings (file names, dialogue, font names, error messages) into HTML that can only ever show
/// them as text: the page `subfix report` writes never lets a subtitle's `<script>` or `onerror=` become markup.
enum HTMLText {
    /// `text` for an element's content or a quoted attribute value: `& < > " '` as entities; raw file-name bytes
    /// and controls other than tab and newline (which could hide or reorder text) as `\xff`, `\x1b`,
    /// `\u{202e}`, the way the terminal messages show them (`MessageText`).
    static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "\n", "\t": output.unicodeScalars.append(scalar)
            default:
                if let byte = PathBytes.rawByte(scalar) {
                    output += "\\x" + hex(UInt32(byte), width: 2)
                } else if isControl(scalar) {
                    output +=
                        scalar.value < 0x80 ? "\\x" + hex(scalar.value, width: 2) : "\\u{" + hex(scalar.value) + "}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    /// C0 and C1 controls, DEL, the line and paragraph separators, the bidirectional controls (which could make
    /// a name read backwards) and noncharacters: none is text a reader should get raw.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069, 0xFDD0...0xFDEF: return true
        default: return scalar.value & 0xFFFE == 0xFFFE
        }
    }

    private static func hex(_ value: UInt32, width: Int = 1) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A path as the value of an `href`: every byte outside `A-Z a-z 0-9 - . _ ~ /` percent-encoded (so a quote,
    /// `<`, `:` or `#` in a name is data, and no path can read as a `javascript:` URL), then attribute-escaped.
    /// `path` is relative (to the page) or absolute; an absolute one becomes a `file://` URL.
    static func href(_ path: String) -> String {
        var encoded = path.hasPrefix("/") ? "file://" : ""
        for byte in PathBytes.encode(path) {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + hex(UInt32(byte), width: 2).uppercased()
            }
        }
        return encoded.isEmpty ? "." : escaped(encoded)
    }

    /// `path` as seen from the folder `base` (both made absolute against `directory`, `.` and `..` resolved by
    /// name): `sub/a.ass`, `../b.srt`; the absolute path when they share nothing but the root.
    static func relativePath(_ path: String, from base: String, directory: String) -> String {
        let target = components(absolute(path, directory: directory))
        let folder = components(absolute(base, directory: directory))
        var common = 0
        while common < target.count, common < folder.count, target[common] == folder[common] { common += 1 }
        if common == 0 { return "/" + target.joined(separator: "/") }
        let up = Array(repeating: "..", count: folder.count - common)
        return (up + target[common...]).joined(separator: "/")
    }

    private static func absolute(_ path: String, directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }

    /// The names of an absolute path, `.` dropped and `..` applied.
    private static func components(_ path: String) -> [String] {
        var names: [String] = []
        for name in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch name {
            case ".": continue
            case "..": _ = names.popLast()
            default: names.append(String(name))
            }
        }
        return names
    }
}
