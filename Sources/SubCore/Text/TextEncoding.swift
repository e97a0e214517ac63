/// A character encoding a subtitle file can be written in, named as iconv names it.
///
///     TextEncoding.gb18030.name      // "GB18030"
///     TextEncoding(label: "gbk")     // .gb18030 (GBK and GB2312 are read as their superset)
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
    /// Big5 as Windows writes it (code page 950).
    public static let big5 = TextEncoding(iconvName: "CP950")
    /// Shift_JIS as Windows writes it (code page 932).
    public static let shiftJIS = TextEncoding(iconvName: "CP932")
    /// EUC-JP.
    public static let eucJP = TextEncoding(iconvName: "EUC-JP")
    /// EUC-KR as Windows writes it (code page 949, its superset).
    public static let eucKR = TextEncoding(iconvName: "CP949")

    /// Windows code page 1250 to 1258.
    public static func windows(_ codePage: Int) -> TextEncoding {
        TextEncoding(iconvName: "WINDOWS-\(codePage)")
    }

    /// Whether this is one of the Unicode encodings (UTF-8, -16, -32).
    public var isUnicode: Bool { name.hasPrefix("UTF-") }

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

    /// The legacy encodings detection may choose, in the order tried when nothing else decides.
    public static let detectable: [TextEncoding] =
        [.gb18030, .big5, .shiftJIS, .eucJP, .eucKR] + (1250...1258).map(TextEncoding.windows)

    /// The encoding for a label a user or a detector gives: a language (`zh-Hans`, `zh-Hant`, `ja`, `ko`, `ru`)
    /// or a code page (`gbk`, `gb2312`, `cp936`, `big5`, `sjis`, `cp932`, `euc-kr`, `1251`, `windows-1252`).
    /// Returns nil for a label it does not know.
    public init?(label: String) {
        let key = label.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " }
        switch key {
        case "utf8": self = .utf8
        case "utf16le": self = .utf16LE
        case "utf16be": self = .utf16BE
        case "utf32le": self = .utf32LE
        case "utf32be": self = .utf32BE
        case "zh", "zhhans", "zhcn", "zhsg", "chs", "sc", "gbk", "gb2312", "gb18030", "cp936", "936", "euccn",
            "hzgb2312", "windows936":
            self = .gb18030
        case "zhhant", "zhtw", "zhhk", "zhmo", "cht", "tc", "big5", "big5hkscs", "cp950", "950", "windows950":
            self = .big5
        case "ja", "jp", "jpn", "sjis", "shiftjis", "cp932", "932", "windows31j", "mskanji", "windows932":
            self = .shiftJIS
        case "eucjp": self = .eucJP
        case "ko", "kr", "kor", "euckr", "cp949", "949", "uhc", "windows949": self = .eucKR
        case "ru", "uk", "be", "bg", "sr", "mk": self = .windows(1251)
        case "pl", "cs", "sk", "hu", "hr", "sl", "ro": self = .windows(1250)
        case "el": self = .windows(1253)
        case "tr": self = .windows(1254)
        case "he": self = .windows(1255)
        case "ar", "fa": self = .windows(1256)
        case "et", "lv", "lt": self = .windows(1257)
        case "vi": self = .windows(1258)
        case "en", "fr", "de", "es", "it", "pt", "nl", "latin1", "iso88591", "ascii", "usascii": self = .windows(1252)
        default:
            var digits = key
            for prefix in ["windows", "cp"] where digits.hasPrefix(prefix) { digits.removeFirst(prefix.count) }
            if let page = Int(digits), (1250...1258).contains(page) {
                self = .windows(page)
            } else {
                return nil
            }
        }
    }

    /// The encoding for a charset name uchardet reports, mapped onto `detectable` (GBK, GB2312 and HZ become
    /// GB18030; EUC-TW and Big5 become Big5); nil for anything outside that list.
    static func fromDetector(_ charset: String) -> TextEncoding? {
        switch charset.uppercased() {
        case "GB18030", "GBK", "GB2312", "HZ-GB-2312", "EUC-CN", "X-EUC-CN": return .gb18030
        case "BIG5", "BIG5-HKSCS", "EUC-TW", "CP950": return .big5
        case "SHIFT_JIS", "SJIS", "CP932", "WINDOWS-31J": return .shiftJIS
        case "EUC-JP": return .eucJP
        case "EUC-KR", "UHC", "CP949": return .eucKR
        case "UTF-8", "ASCII": return .utf8
        case "ISO-8859-1": return .windows(1252)
        case "ISO-8859-2": return .windows(1250)
        case "ISO-8859-5", "KOI8-R", "IBM855", "IBM866", "MAC-CYRILLIC", "X-MAC-CYRILLIC": return .windows(1251)
        case "ISO-8859-7": return .windows(1253)
        case "ISO-8859-9": return .windows(1254)
        case "ISO-8859-8": return .windows(1255)
        default:
            if charset.uppercased().hasPrefix("WINDOWS-"), let page = Int(charset.dropFirst(8)),
                (1250...1258).contains(page)
            {
                return .windows(page)
            }
            return nil
        }
    }
}
