import Foundation
import Synchronization

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
        switch lowered {
        case "ja", "jp", "jpn", "japanese", "ja-jp": return .language(.japanese)
        case "ko", "kr", "kor", "korean", "ko-kr": return .language(.korean)
        case "zh-hans", "zh-cn", "zh-sg", "chs", "sc", "gb", "zh-hans-cn", "cmn-hans", "zhs":
            return .language(.simplifiedChinese)
        case "zh-hant", "zh-tw", "zh-hk", "zh-mo", "cht", "tc", "big5", "zh-hant-tw", "zh-hant-hk", "cmn-hant", "zht":
            return .language(.traditionalChinese)
        case "zh", "chi", "zho", "cmn", "yue", "chinese": return .chinese
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

    /// The hint a subtitle file's name gives (`movie.ja.ass`, `ep01.chs.ass`, `show.zh-Hant.srt`): the last
    /// dot-separated token before the extension that names a language; where that only says Chinese, a script
    /// named before it decides (`Movie.zh-Hant.zh.forced.ass`, as `SidecarNaming.jellyfin` writes it).
    public static func hint(fromFileName path: String) -> LanguageHint? {
        let base = (path as NSString).lastPathComponent
        let tokens = base.split(separator: ".").dropLast().dropFirst()
        var found: LanguageHint?
        for token in tokens.reversed() {
            guard let hint = hint(from: String(token)) else { continue }
            if hint != .chinese { return found == nil || isChinese(hint) ? hint : found }
            if found == nil { found = hint }
        }
        return found
    }

    private static func isChinese(_ hint: LanguageHint) -> Bool {
        hint == .language(.simplifiedChinese) || hint == .language(.traditionalChinese)
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

    /// Whether `text` holds any Han, kana or Hangul.
    public static func containsCJK(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains { isHan($0) || isKana($0) || isHangul($0) }
    }

    /// The convention `text` is written in. Kana make it Japanese and Hangul Korean (each when they are at least
    /// one in ten of its CJK characters, so a stray の in Chinese text does not count); Han-only text is
    /// Traditional or Simplified Chinese by the characters only one of the two scripts uses. `hint` decides
    /// when the text does not: Han-only text under a Japanese or Korean tag, or as many Traditional-only as
    /// Simplified-only characters. A `weakHint` (the language of the rest of the script, not a tag) makes
    /// Han-only text Japanese or Korean only when it is short (under 4 characters: a `\fn` run, a sign),
    /// so that the Chinese half of a bilingual script stays Chinese.
    public static func guess(
        _ text: some StringProtocol, hint: LanguageHint? = nil, hintSource: String = "tag", weakHint: Bool = false
    ) -> LanguageGuess {
        var han: [Unicode.Scalar] = []
        var kana = 0
        var hangul = 0
        for scalar in text.unicodeScalars {
            if isHan(scalar) {
                han.append(scalar)
            } else if isKana(scalar) {
                kana += 1
            } else if isHangul(scalar) {
                hangul += 1
            }
        }
        let cjk = han.count + kana + hangul
        if hangul > 0, hangul * 10 >= cjk {
            return LanguageGuess(language: .korean, reason: "Hangul in the text")
        }
        if kana > 0, kana * 10 >= cjk {
            return LanguageGuess(language: .japanese, reason: "kana in the text")
        }
        if case .language(let language) = hint, language == .japanese || language == .korean,
            !weakHint || han.count < 4
        {
            let what = cjk == 0 ? "no CJK text" : "Han characters only"
            return LanguageGuess(language: language, reason: "\(what), \(hintSource) says \(language.rawValue)")
        }
        guard !han.isEmpty else {
            if case .language(let language) = hint {
                return LanguageGuess(language: language, reason: "no CJK text, \(hintSource) says \(language.rawValue)")
            }
            return LanguageGuess(language: nil, reason: "no CJK text")
        }
        let (traditional, simplified) = HanVariants.count(han)
        if traditional != simplified {
            let language: CJKLanguage = traditional > simplified ? .traditionalChinese : .simplifiedChinese
            let more =
                traditional > simplified
                ? "Traditional-only than Simplified-only" : "Simplified-only than Traditional-only"
            return LanguageGuess(language: language, reason: "more \(more) characters")
        }
        if case .language(let language) = hint {
            return LanguageGuess(
                language: language,
                reason: "Han characters common to both scripts, \(hintSource) says \(language.rawValue)")
        }
        return LanguageGuess(
            language: .simplifiedChinese, reason: "Han characters common to both scripts (Simplified by default)")
    }
}

/// Which Han characters only Traditional or only Simplified Chinese writes, through ICU's `Hant-Hans` and
/// `Hans-Hant` transforms (built into Foundation): a character that `Hant-Hans` changes is Traditional-only,
/// one that `Hans-Hant` changes is Simplified-only. Answers are remembered per character.
enum HanVariants {
    /// 1 Traditional-only, -1 Simplified-only, 0 common or unknown.
    private static let known = Mutex<[UInt32: Int8]>([:])

    /// How many of `characters` are Traditional-only and how many Simplified-only.
    /// One pass under one lock once every character is known: a script asks for each of its runs' text, hundreds
    /// of thousands of times.
    static func count(_ characters: [Unicode.Scalar]) -> (traditional: Int, simplified: Int) {
        var traditional = 0
        var simplified = 0
        func add(_ variant: Int8) {
            if variant == 1 { traditional += 1 } else if variant == -1 { simplified += 1 }
        }
        var unknown: [Unicode.Scalar] = []
        known.withLock { known in
            for character in characters {
                if let variant = known[character.value] { add(variant) } else { unknown.append(character) }
            }
        }
        guard !unknown.isEmpty else { return (traditional, simplified) }
        let learned = classify(Array(Set(unknown)))
        known.withLock { known in known.merge(learned) { old, _ in old } }
        for character in unknown { add(learned[character.value] ?? 0) }
        return (traditional, simplified)
    }

    /// Classifies each of `characters` through the two transforms, one string each when the transform keeps
    /// the length, one character at a time otherwise.
    private static func classify(_ characters: [Unicode.Scalar]) -> [UInt32: Int8] {
        var result: [UInt32: Int8] = [:]
        let toSimplified = changed(characters, StringTransform("Hant-Hans"))
        let toTraditional = changed(characters, StringTransform("Hans-Hant"))
        for (index, character) in characters.enumerated() {
            if toSimplified[index] && !toTraditional[index] {
                result[character.value] = 1
            } else if toTraditional[index] && !toSimplified[index] {
                result[character.value] = -1
            } else {
                result[character.value] = 0
            }
        }
        return result
    }

    /// Whether `transform` changes each of `characters` (into another character, or into several).
    private static func changed(_ characters: [Unicode.Scalar], _ transform: StringTransform) -> [Bool] {
        zip(characters, HanTransform.map(characters, transform)).map { $0 != $1 }
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
