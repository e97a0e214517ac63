import Foundation

/// The four CJK writing conventions a face is chosen for. Han unification gives one code point to characters
/// that Japanese, Simplified and Traditional Chinese draw differently, so each needs its own face.
public enum CJKLanguage: String, Sendable, Hashable, CaseIterable, Codable {
    case simplifiedChinese = "zh-Hans"
    case traditionalChinese = "zh-Hant"
    case japanese = "ja"
    case korean = "ko"

    /// The Noto Sans CJK face drawn for this language (Debian's `fonts-noto-cjk` has all four).
    public var notoFamily: String {
        switch self {
        case .simplifiedChinese: return "Noto Sans CJK SC"
        case .traditionalChinese: return "Noto Sans CJK TC"
        case .japanese: return "Noto Sans CJK JP"
        case .korean: return "Noto Sans CJK KR"
        }
    }

    /// The Noto Serif CJK face drawn for this language (in Debian's `fonts-noto-cjk` too).
    public var notoSerifFamily: String {
        switch self {
        case .simplifiedChinese: return "Noto Serif CJK SC"
        case .traditionalChinese: return "Noto Serif CJK TC"
        case .japanese: return "Noto Serif CJK JP"
        case .korean: return "Noto Serif CJK KR"
        }
    }

    /// The families of `faceClass` drawn this way, in order of preference.
    public func families(_ faceClass: FaceClass) -> [String] {
        switch faceClass {
        case .sans: return preferredFamilies
        case .serif:
            let suffix = notoSerifFamily.split(separator: " ").last.map(String.init) ?? ""
            return [notoSerifFamily, "Source Han Serif \(suffix)"]
        }
    }

    /// Families drawn the same way, in order of preference: Noto Sans CJK, then Adobe's Source Han Sans release
    /// of the same design.
    public var preferredFamilies: [String] {
        switch self {
        case .simplifiedChinese: return [notoFamily, "Source Han Sans SC", "Source Han Sans CN"]
        case .traditionalChinese: return [notoFamily, "Source Han Sans TC", "Source Han Sans TW", "Noto Sans CJK HK"]
        case .japanese: return [notoFamily, "Source Han Sans JP", "Source Han Sans"]
        case .korean: return [notoFamily, "Source Han Sans KR", "Source Han Sans K"]
        }
    }

    /// The language a track tag, a file-name token or a track title names: ISO 639-2 (`jpn`, `chi`, `zho`,
    /// `kor`), BCP 47 (`ja`, `zh-Hant`, `zh-TW`, `zh-CN`, `ko`), the fansub tokens `chs`/`cht`/`sc`/`tc`/`gb`/
    /// `big5`, or words such as 简体, 繁體, 日本語. Nil for anything else; `zh` alone is
    /// `.simplifiedChinese`'s family only as a hint (see `LanguageHint`).
    public static func hint(from tag: String) -> LanguageHint? {
        let lowered = tag.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: "-")
        // Three-letter codes through the one table of codes (`jpn`, `kor`, `chi`, `zho`).
        let code = lowered.count == 3 ? ISO639.alpha2(lowered) ?? lowered : lowered
        switch code {
        case "ja", "jp", "japanese", "ja-jp": return .language(.japanese)
        case "ko", "kr", "korean", "ko-kr": return .language(.korean)
        case "zh-hans", "zh-cn", "zh-sg", "chs", "sc", "gb", "zh-hans-cn", "cmn-hans", "zhs":
            return .language(.simplifiedChinese)
        case "zh-hant", "zh-tw", "zh-hk", "zh-mo", "cht", "tc", "big5", "zh-hant-tw", "zh-hant-hk", "cmn-hant", "zht":
            return .language(.traditionalChinese)
        case "zh", "cmn", "yue", "chinese": return .chinese
        default: break
        }
        if lowered.contains("简") || lowered.contains("簡体") { return .language(.simplifiedChinese) }
        if lowered.contains("繁") { return .language(.traditionalChinese) }
        if lowered.contains("日本語") || lowered.contains("日文") || lowered.contains("日语") || lowered.contains("日語") {
            return .language(.japanese)
        }
        if lowered.contains("한국어") || lowered.contains("韩") || lowered.contains("韓") { return .language(.korean) }
        return nil
    }
}

/// What a track's tags or a file's name say about its language, used to break ties the text leaves open.
public enum LanguageHint: Sendable, Hashable {
    /// One of the four conventions.
    case language(CJKLanguage)
    /// Chinese, without saying which script.
    case chinese
}

/// The language of some text, and what decided it.
public struct LanguageGuess: Sendable, Hashable {
    /// The convention to draw the text with; nil when the text has no Han, kana or Hangul and no hint names one.
    public var language: CJKLanguage?
    /// Why: `kana in the text`, `12 Traditional-only characters against 1 Simplified-only`, `track tagged jpn`.
    public var reason: String
}

/// Counts the scripts of subtitle text and decides which CJK convention it is written in.
///
///     CJKText.guess("終電に乗り遅れた").language          // .japanese (kana)
///     CJKText.guess("這個問題").language                 // .traditionalChinese (這, 個, 問, 題)
///     CJKText.guess("東京", hint: .language(.japanese))  // .japanese: no kana, so the hint decides
public enum CJKText {
    /// Whether `scalar` is a Han ideograph (unified, extensions, compatibility).
    public static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: return true
        default: return false
        }
    }

    /// Whether `scalar` is Hiragana or Katakana (halfwidth and the phonetic extensions too; not the shared
    /// prolonged sound mark alone).
    public static func isKana(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3041...0x3096, 0x309D...0x309F, 0x30A1...0x30FA, 0x30FD...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D:
            return true
        default: return false
        }
    }

    /// Whether `scalar` is Hangul (syllables and jamo).
    public static func isHangul(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xD7B0...0xD7FF: return true
        default: return false
        }
    }

    /// Whether `text` holds a character a player's Latin default font lacks and a CJK face draws: Han, kana,
    /// Hangul, CJK punctuation (`「」`, `、`), full-width forms, and the symbols CJK scripts draw from their own
    /// fonts (`♥`, `★`, `※`).
    public static func needsCJKFont(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x2E80...0x33FF, 0xFE30...0xFE4F, 0xFF00...0xFFEF, 0x2600...0x26FF, 0x2700...0x27BF, 0x203B,
                0x25A0...0x25FF:
                return true
            default:
                return isHan(scalar) || isKana(scalar) || isHangul(scalar)
            }
        }
    }

    /// Whether `text` holds any Han, kana or Hangul.
    public static func containsCJK(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains { isHan($0) || isKana($0) || isHangul($0) }
    }

    /// The convention `text` alone is written in (`LanguageContext` with the text as its only level), with
    /// `hint` (a track's tag) as the tag level: kana make it Japanese and Hangul Korean when they are one in ten
    /// of its CJK characters and outweigh its Chinese-only signs; Han-only text is Traditional or Simplified
    /// Chinese by the characters only one script writes, or follows the hint. Nil for text with no CJK and no
    /// hint.
    public static func guess(_ text: some StringProtocol, hint: LanguageHint? = nil, hintSource: String = "tag")
        -> LanguageGuess
    {
        let evidence = CJKEvidence(text)
        var tags: LanguageTags?
        switch hint {
        case .language(let language): tags = LanguageTags(languages: [language], source: hintSource)
        case .chinese: tags = LanguageTags(languages: [], chinese: true, source: hintSource)
        case nil: if evidence.cjk == 0 { return LanguageGuess(language: nil, reason: "no CJK text") }
        }
        return LanguageContext(levels: [.init("the text", evidence)], tags: tags).resolve()
    }
}

/// ICU's transforms between Traditional and Simplified Chinese (`Hant-Hans`, `Hans-Hant`, built into
/// Foundation), applied one character at a time: what the dialogue index folds with and what language guesses
/// count with.
public enum HanTransform {
    /// What `transform` makes of each of `characters`: the one character it gives, or nil when it gives several
    /// or none. One transform call for the whole list when it keeps the length; one per character otherwise.
    public static func map(_ characters: [Unicode.Scalar], _ transform: StringTransform) -> [Unicode.Scalar?] {
        var source = String.UnicodeScalarView()
        source.append(contentsOf: characters)
        if let transformed = String(source).applyingTransform(transform, reverse: false),
            case let result = Array(transformed.unicodeScalars), result.count == characters.count
        {
            return result
        }
        return characters.map { character in
            guard let result = String(Character(character)).applyingTransform(transform, reverse: false),
                case let scalars = Array(result.unicodeScalars), scalars.count == 1
            else { return nil }
            return scalars[0]
        }
    }
}
