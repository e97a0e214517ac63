/// A character encoding a subtitle file can be written in, named as iconv names it.
///
///     TextEncoding.gb18030.name           // "GB18030"
///     TextEncoding.big5.displayName       // "Big5"
public struct TextEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The name iconv knows the encoding by, such as `GB18030` or `UTF-16LE`.
    public let name: String

    /// An encoding by its iconv name.
    public init(iconvName: String) { self.name = iconvName }

    public var description: String { name }

    /// UTF-8.
    public static let utf8 = TextEncoding(iconvName: "UTF-8")
    /// UTF-16, little-endian.
    public static let utf16LE = TextEncoding(iconvName: "UTF-16LE")
    /// UTF-16, big-endian.
    public static let utf16BE = TextEncoding(iconvName: "UTF-16BE")
    /// UTF-32, little-endian.
    public static let utf32LE = TextEncoding(iconvName: "UTF-32LE")
    /// UTF-32, big-endian.
    public static let utf32BE = TextEncoding(iconvName: "UTF-32BE")
    /// GB18030, used for anything GBK or GB2312 (it is their superset).
    public static let gb18030 = TextEncoding(iconvName: "GB18030")
    /// GBK (code page 936), for a user who says the file is GBK: it refuses what only GB18030 can hold.
    public static let gbk = TextEncoding(iconvName: "GBK")
    /// Big5 as Windows writes it (code page 950).
    public static let big5 = TextEncoding(iconvName: "CP950")
    /// Big5 with the Hong Kong supplementary characters.
    public static let big5HKSCS = TextEncoding(iconvName: "BIG5-HKSCS")
    /// Shift_JIS as Windows writes it (code page 932, with the NEC and IBM extensions; `\` stays a backslash).
    public static let shiftJIS = TextEncoding(iconvName: "CP932")
    public static let eucJP = TextEncoding(iconvName: "EUC-JP")
    /// EUC-KR as Windows writes it (code page 949, its superset).
    public static let eucKR = TextEncoding(iconvName: "CP949")
    /// KOI8-R (Russian).
    public static let koi8R = TextEncoding(iconvName: "KOI8-R")
    /// KOI8-U (Ukrainian).
    public static let koi8U = TextEncoding(iconvName: "KOI8-U")
    /// Thai as Windows writes it (code page 874, a superset of TIS-620).
    public static let thai = TextEncoding(iconvName: "CP874")

    /// Windows code page 1250 to 1258.
    public static func windows(_ codePage: Int) -> TextEncoding {
        TextEncoding(iconvName: "WINDOWS-\(codePage)")
    }

    /// ISO-8859-`part`.
    public static func iso8859(_ part: Int) -> TextEncoding {
        TextEncoding(iconvName: "ISO-8859-\(part)")
    }

    /// Whether this is one of the Unicode encodings (UTF-8, -16, -32).
    public var isUnicode: Bool { name.hasPrefix("UTF-") }

    /// The name people know the encoding by, for messages: `Big5` for CP950, `Shift_JIS` for CP932,
    /// `EUC-KR` for CP949, `windows-1252` for WINDOWS-1252; the iconv name otherwise.
    public var displayName: String {
        switch name {
        case "CP950": return "Big5"
        case "BIG5-HKSCS": return "Big5-HKSCS"
        case "CP932": return "Shift_JIS"
        case "CP949": return "EUC-KR"
        case "CP874": return "windows-874"
        default: return name.hasPrefix("WINDOWS-") ? "windows-" + name.dropFirst(8) : name
        }
    }

    /// The byte order mark this encoding writes, or nothing for encodings without one.
    public var byteOrderMark: [UInt8] {
        switch name {
        case "UTF-8": return [0xEF, 0xBB, 0xBF]
        case "UTF-16LE": return [0xFF, 0xFE]
        case "UTF-16BE": return [0xFE, 0xFF]
        case "UTF-32LE": return [0xFF, 0xFE, 0x00, 0x00]
        case "UTF-32BE": return [0x00, 0x00, 0xFE, 0xFF]
        default: return []
        }
    }

    /// The legacy encodings detection weighs, in order of preference when two of them give the very same text
    /// (a Windows code page before the ISO-8859 part it extends).
    public static let detectable: [TextEncoding] =
        [.gb18030, .big5, .big5HKSCS, .shiftJIS, .eucJP, .eucKR]
        + [1252, 1250, 1251, 1253, 1254, 1255, 1256, 1257, 1258].map(TextEncoding.windows)
        + [.thai, .koi8R, .koi8U]
        + [1, 2, 5, 7, 8, 9, 13, 15, 16].map(TextEncoding.iso8859)

    /// The encoding for an exact encoding name a user gives, with its common aliases (`gbk`, `gb2312`, `cp936`,
    /// `big5`, `sjis`, `cp932`, `euc-kr`, `uhc`, `cp1251`, `1251`, `latin1`, `koi8-r`, `tis-620`, `utf-16le`);
    /// nil for a name it does not know.
    public init?(exactName label: String) {
        let key = label.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " }
        switch key {
        case "utf8": self = .utf8
        case "utf16le": self = .utf16LE
        case "utf16be": self = .utf16BE
        case "utf32le": self = .utf32LE
        case "utf32be": self = .utf32BE
        case "gb18030": self = .gb18030
        case "gbk", "gb2312", "cp936", "936", "euccn", "windows936": self = .gbk
        case "big5", "cp950", "950", "windows950": self = .big5
        case "big5hkscs": self = .big5HKSCS
        case "sjis", "shiftjis", "cp932", "932", "windows31j", "mskanji", "windows932": self = .shiftJIS
        case "eucjp": self = .eucJP
        case "euckr", "cp949", "949", "uhc", "windows949": self = .eucKR
        case "koi8r": self = .koi8R
        case "koi8u": self = .koi8U
        case "cp874", "874", "windows874", "tis620", "iso885911": self = .thai
        case "latin1": self = .iso8859(1)
        case "latin2": self = .iso8859(2)
        default:
            var digits = key
            for prefix in ["windows", "cp"] where digits.hasPrefix(prefix) { digits.removeFirst(prefix.count) }
            if let page = Int(digits), (1250...1258).contains(page) {
                self = .windows(page)
            } else if key.hasPrefix("iso8859"), let part = Int(key.dropFirst(7)), (1...16).contains(part),
                part != 12
            {
                self = .iso8859(part)
            } else {
                return nil
            }
        }
    }

    /// The encoding for a charset name uchardet reports (GBK, GB2312 and HZ become GB18030; EUC-TW becomes
    /// Big5; Shift_JIS becomes CP932), or nil for one outside `detectable`.
    static func fromDetector(_ charset: String) -> TextEncoding? {
        let upper = charset.uppercased()
        switch upper {
        case "GB18030", "GBK", "GB2312", "HZ-GB-2312", "EUC-CN", "X-EUC-CN": return .gb18030
        case "BIG5", "EUC-TW", "CP950": return .big5
        case "BIG5-HKSCS": return .big5HKSCS
        case "SHIFT_JIS", "SJIS", "CP932", "WINDOWS-31J": return .shiftJIS
        case "EUC-JP": return .eucJP
        case "EUC-KR", "UHC", "CP949": return .eucKR
        case "KOI8-R": return .koi8R
        case "KOI8-U": return .koi8U
        case "TIS-620", "WINDOWS-874", "CP874", "ISO-8859-11": return .thai
        default:
            if upper.hasPrefix("WINDOWS-"), let page = Int(upper.dropFirst(8)), (1250...1258).contains(page) {
                return .windows(page)
            }
            if upper.hasPrefix("ISO-8859-"), let part = Int(upper.dropFirst(9)) {
                let encoding = TextEncoding.iso8859(part)
                return detectable.contains(encoding) ? encoding : nil
            }
            return nil
        }
    }
}
