/// A language whose subtitles are commonly saved in a legacy encoding. Detection reads each candidate decoding
/// as text of each language (`LanguageModel`) and keeps the reading that costs the fewest bits.
public enum TextLanguage: String, Sendable, CaseIterable {
    case simplifiedChinese = "zh-Hans"
    case traditionalChinese = "zh-Hant"
    case japanese = "ja"
    case korean = "ko"
    case english = "en"
    case french = "fr"
    case german = "de"
    case spanish = "es"
    case portuguese = "pt"
    case italian = "it"
    case dutch = "nl"
    case swedish = "sv"
    case danish = "da"
    case icelandic = "is"
    case polish = "pl"
    case czech = "cs"
    case slovak = "sk"
    case hungarian = "hu"
    case romanian = "ro"
    case croatian = "hr"
    case turkish = "tr"
    case lithuanian = "lt"
    case latvian = "lv"
    case estonian = "et"
    case vietnamese = "vi"
    case russian = "ru"
    case ukrainian = "uk"
    case bulgarian = "bg"
    case serbian = "sr"
    case greek = "el"
    case hebrew = "he"
    case arabic = "ar"
    case persian = "fa"
    case thai = "th"

    /// The language for a tag such as `zh-Hans`, `zh_TW`, `ja`, `ko` or `ru` (case, `_` and `-` ignored;
    /// `zh` alone is Simplified Chinese); nil for anything else.
    public init?(label: String) {
        let key = label.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " }
        switch key {
        case "zh", "zhhans", "zhcn", "zhsg", "chs", "sc": self = .simplifiedChinese
        case "zhhant", "zhtw", "zhhk", "zhmo", "cht", "tc": self = .traditionalChinese
        case "jp": self = .japanese
        case "kr": self = .korean
        case "sl", "bs": self = .croatian
        default:
            // Three-letter codes through the one table of codes (`jpn`, `ger`, `chi`).
            if key.count == 3, let two = ISO639.alpha2(key) {
                self.init(label: two)
                return
            }
            guard let found = TextLanguage.allCases.first(where: { $0.rawValue.lowercased() == key }) else {
                return nil
            }
            self = found
        }
    }
}
