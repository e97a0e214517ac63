/// How many bits one character costs in text of one language: a unigram model, coarse on purpose. Letters come
/// from the language's alphabet ranked by how often they occur (from the usual published letter-frequency
/// tables); Han characters, kana and Hangul from the common and rare levels of the national standards
/// (`CharacterTiers`). Only non-ASCII characters are costed: ASCII reads the same in every candidate.
struct LanguageModel: Sendable {
    let language: TextLanguage
    /// The script of the alphabet; nil for Chinese, Japanese and Korean.
    let script: Script?
    /// Lowercase non-ASCII letters (and marks) of the alphabet, with their cost in bits.
    private let letters: LetterTable
    /// The non-ASCII letters that are words on their own (French `à`, Russian `в`); nil when any letter may be
    /// (Vietnamese, Thai).
    private var singleLetterWords: Set<Unicode.Scalar>? = []

    /// Whether the language writes `þ` only at the start of words (Icelandic).
    private(set) var thornStartsWords = false

    /// Whether `letter` (lowercase) alone is a word of the language.
    func isSingleLetterWord(_ letter: Unicode.Scalar) -> Bool {
        singleLetterWords?.contains(letter) ?? true
    }

    /// This model, with `words` as its one-letter words (nil: any letter).
    private func words(_ words: String?) -> LanguageModel {
        var model = self
        model.singleLetterWords = words.map { Set($0.unicodeScalars) }
        return model
    }

    /// Bits for a letter of the language's own script that is not in its alphabet.
    static let foreignLetterOfScript: Float = 15
    /// Bits for a letter of another script, or for a Han, kana or Hangul character in an alphabetic language.
    static let otherScript: Float = 18
    /// Bits for punctuation and symbols subtitles use in any language (dashes, quotes, ellipsis, ♪, ...).
    static let commonSymbol: Float = 7
    /// Bits for any other symbol (¤, ¦, ½, box drawing, ...).
    static let rareSymbol: Float = 14

    /// The cost of one non-ASCII character of class `kind` in this language.
    func cost(_ scalar: Unicode.Scalar, lowercase: Unicode.Scalar, _ kind: CharacterKind) -> Float {
        switch kind {
        case .letter(let letterScript), .mark(let letterScript):
            if let script {
                if let cost = letters[lowercase.value] ?? letters[scalar.value] { return cost }
                return letterScript == script ? Self.foreignLetterOfScript : Self.otherScript
            }
            if case .mark = kind { return 16 }
            return letterScript == .other ? Self.otherScript : 14
        case .han:
            return hanCost(scalar)
        case .hiragana, .katakana:
            switch language {
            case .japanese: return kind == .hiragana ? 7 : 8
            default: return script == nil ? 14 : Self.otherScript
            }
        case .halfwidthKatakana:
            return language == .japanese ? 11 : Self.otherScript
        case .hangul:
            guard language == .korean else { return Self.otherScript }
            return CharacterTiers.shared.flags(scalar).contains(.ksHangul) ? 11 : 14
        case .bopomofo:
            return language == .traditionalChinese ? 12 : language == .simplifiedChinese ? 14 : Self.otherScript
        case .cjkPunctuation:
            return script == nil ? 6 : 16
        case .fullwidthAlphanumeric:
            return script == nil ? 9 : 16
        case .commonSymbol:
            return Self.commonSymbol
        case .symbol:
            return script == nil && scalar.value >= 0x2000 ? 12 : Self.rareSymbol
        }
    }

    private func hanCost(_ scalar: Unicode.Scalar) -> Float {
        let flags = CharacterTiers.shared.flags(scalar)
        switch language {
        case .simplifiedChinese:
            return flags.contains(.gbLevel1) ? 11 : flags.contains(.gbLevel2) ? 15 : 18
        case .traditionalChinese:
            return flags.contains(.big5Level1) ? 11.5 : flags.contains(.big5Level2) ? 15 : 18
        case .japanese:
            return flags.contains(.jisLevel1) ? 12.5 : flags.contains(.jisLevel2) ? 16 : 18
        case .korean:
            return flags.contains(.ksHanja) ? 15 : 18
        default:
            return 20
        }
    }

    /// The lowercase form of `scalar` when it is one scalar, else `scalar`.
    static func lowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first ?? scalar : scalar
    }

    /// A model from letters ranked by frequency: the first costs `first` bits, each next one `step` more.
    private init(_ language: TextLanguage, _ script: Script, ranked: String, first: Float, step: Float) {
        self.language = language
        self.script = script
        var letters: [Unicode.Scalar: Float] = [:]
        for (rank, scalar) in ranked.unicodeScalars.enumerated() where letters[scalar] == nil {
            letters[scalar] = first + Float(rank) * step
        }
        self.letters = LetterTable(letters)
    }

    /// A Latin-script model: `common` letters cost 6 bits, `rare` ones 9.
    private init(latin language: TextLanguage, common: String, rare: String = "") {
        self.language = language
        self.script = .latin
        var letters: [Unicode.Scalar: Float] = [:]
        for scalar in rare.unicodeScalars { letters[scalar] = 9 }
        for scalar in common.unicodeScalars { letters[scalar] = 6 }
        self.letters = LetterTable(letters)
    }

    private init(cjk language: TextLanguage) {
        self.language = language
        self.script = nil
        self.letters = LetterTable([:])
    }

    /// Every model.
    static let all: [LanguageModel] = [
        LanguageModel(cjk: .simplifiedChinese), LanguageModel(cjk: .traditionalChinese),
        LanguageModel(cjk: .japanese), LanguageModel(cjk: .korean),
        LanguageModel(latin: .english, common: "", rare: "éèçïöüñ"),
        LanguageModel(latin: .french, common: "éèàçê", rare: "âîôûùëïüÿœæ").words("à"),
        LanguageModel(latin: .german, common: "äöüß", rare: "é"),
        LanguageModel(latin: .spanish, common: "áéíóúñ", rare: "ü"),
        LanguageModel(latin: .portuguese, common: "ãçáéíóúâêõà", rare: "ôü").words("àéó"),
        LanguageModel(latin: .italian, common: "àèéìòù", rare: "íóú").words("è"),
        LanguageModel(latin: .dutch, common: "ë", rare: "éèïöü"),
        LanguageModel(latin: .swedish, common: "äåö", rare: "é"),
        LanguageModel(latin: .danish, common: "æøå", rare: "é"),
        {
            var model = LanguageModel(latin: .icelandic, common: "áéíóúýþæöð").words("áíóú")
            model.thornStartsWords = true
            return model
        }(),
        LanguageModel(latin: .polish, common: "ąćęłńóśźż"),
        LanguageModel(latin: .czech, common: "áčéěíóřšúůýž", rare: "ďňť"),
        LanguageModel(latin: .slovak, common: "áčéíýúšžťľňôď", rare: "äĺŕó"),
        LanguageModel(latin: .hungarian, common: "áéíóöőúüű"),
        LanguageModel(latin: .romanian, common: "ăâîșț", rare: "şţ"),
        LanguageModel(latin: .croatian, common: "čćđšž"),
        LanguageModel(latin: .turkish, common: "çğıöşü", rare: "âîû"),
        LanguageModel(latin: .lithuanian, common: "ąčęėįšųūž").words("į"),
        LanguageModel(latin: .latvian, common: "āčēģīķļņšūž"),
        LanguageModel(latin: .estonian, common: "äöõüšž"),
        LanguageModel(
            latin: .vietnamese,
            // The base letters, every precomposed letter with a tone (U+1EA0 to U+1EF9) and the combining tone
            // marks windows-1258 writes separately.
            common: "ăâđêôơưàáãèéìíòóõùúýĩũỳỹ"
                + String(String.UnicodeScalarView((0x1EA0...0x1EF9).compactMap(Unicode.Scalar.init)))
                + "\u{300}\u{301}\u{303}\u{309}\u{323}"
        ).words(nil),
        // Letters by frequency, most common first.
        LanguageModel(.russian, .cyrillic, ranked: "оеаинтсрвлкмдпуяыьгзбчйхжшюцщэфъё", first: 3.5, step: 0.2)
            .words("вскуоиая"),
        LanguageModel(.ukrainian, .cyrillic, ranked: "оанвиітерскудлмпяьзбгчхйшжцюїщєфґ", first: 3.5, step: 0.2)
            .words("вузіайяо"),
        LanguageModel(.bulgarian, .cyrillic, ranked: "аоеинтрсвлкдпмзяъугбчйхжщшцюьф", first: 3.5, step: 0.2)
            .words("всиаоуя"),
        LanguageModel(.serbian, .cyrillic, ranked: "аоеинсрјтдвукмлпзгбшчцњћхжљђџф", first: 3.5, step: 0.2)
            .words("уиаско"),
        LanguageModel(
            .greek, .greek, ranked: "αοιετσςνηυρπκμλωδγχθφβξζψάέίόήύώϊϋΐΰ", first: 3.5, step: 0.2
        ).words("οηή"),
        LanguageModel(
            .hebrew, .hebrew,
            ranked: "יוהאלמבתשרנםעכדןקחפסזגטךצףץ"
                + "\u{5B0}\u{5B4}\u{5B5}\u{5B6}\u{5B7}\u{5B8}\u{5B9}\u{5BC}\u{5C1}\u{5C2}\u{5BB}\u{5B3}\u{5B2}\u{5B1}",
            first: 3.5, step: 0.2),
        LanguageModel(
            .arabic, .arabic,
            ranked: "اليمونرتبعدسفكقهحجةخشصضطظذثزغءأإآىئؤ" + "\u{64E}\u{650}\u{64F}\u{652}\u{651}\u{64B}",
            first: 3.5, step: 0.15
        ).words("و"),
        LanguageModel(
            .persian, .arabic, ranked: "اینرمدهوتبسلکشزگفخقجپعحچطصآغضظژثذئأ" + "\u{64E}\u{650}\u{64F}",
            first: 3.5, step: 0.15
        ).words("و"),
        LanguageModel(
            .thai, .thai,
            ranked: "านอรกเงม่ยวดทลสีบ้ขัคตไปิจหแะใชพุโำื็ผถูซญศษธฟภฉฝฐฑฒณฏฎฆฬฮฤฦๆ์ฯ๊๋",
            first: 4, step: 0.1
        ).words("ๆ"),
    ]
}

/// Letter costs by code point, in a sorted array: a binary search over a few dozen letters is several times
/// faster than hashing, and detection looks letters up tens of thousands of times per file.
struct LetterTable: Sendable {
    private let keys: [UInt32]
    private let costs: [Float]

    init(_ letters: [Unicode.Scalar: Float]) {
        let sorted = letters.sorted { $0.key.value < $1.key.value }
        keys = sorted.map(\.key.value)
        costs = sorted.map(\.value)
    }

    subscript(_ value: UInt32) -> Float? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == value ? costs[low] : nil
    }
}

/// The script of a letter, as far as detection tells them apart.
enum Script: Sendable, Equatable {
    case latin, greek, cyrillic, hebrew, arabic, thai, other

    /// The script of a non-ASCII letter or mark.
    init(_ value: UInt32) {
        switch value {
        case 0x00C0...0x024F, 0x1E00...0x1EFF, 0x0300...0x036F: self = .latin
        case 0x0370...0x03FF, 0x1F00...0x1FFF: self = .greek
        case 0x0400...0x052F: self = .cyrillic
        case 0x0590...0x05FF, 0xFB1D...0xFB4F: self = .hebrew
        case 0x0600...0x06FF, 0x0750...0x077F, 0xFB50...0xFDFF, 0xFE70...0xFEFF: self = .arabic
        case 0x0E00...0x0E7F: self = .thai
        default: self = .other
        }
    }
}

/// What a non-ASCII character is, for costing; nil from `init` means it never occurs in a subtitle (a control
/// character, U+FFFD, a private-use, unassigned or noncharacter code point).
enum CharacterKind: Sendable, Equatable {
    case letter(Script)
    case mark(Script)
    case han, hiragana, katakana, halfwidthKatakana, hangul, bopomofo
    case cjkPunctuation, fullwidthAlphanumeric
    case commonSymbol, symbol

    /// Punctuation and symbols any subtitle may use.
    static let commonSymbols: Set<Unicode.Scalar> = Set(
        "\u{A0}–—‘’‚“”„…«»‹›¿¡·•€£°×÷′″♪♫※★☆○●◎◇◆□■△▲▽▼→←↑↓".unicodeScalars)

    init?(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        switch value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: self = .han; return
        case 0x3041...0x309F: self = .hiragana; return
        case 0x30A0...0x30FA, 0x30FC...0x30FF, 0x31F0...0x31FF: self = .katakana; return
        case 0xFF66...0xFF9F: self = .halfwidthKatakana; return
        case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F: self = .hangul; return
        case 0x3100...0x312F, 0x31A0...0x31BF: self = .bopomofo; return
        case 0x3000...0x303F, 0x30FB, 0xFF01...0xFF0F, 0xFF1A...0xFF20, 0xFF3B...0xFF40, 0xFF5B...0xFF65:
            self = .cjkPunctuation; return
        case 0xFF10...0xFF19, 0xFF21...0xFF3A, 0xFF41...0xFF5A: self = .fullwidthAlphanumeric; return
        case 0xFFFD: return nil
        default: break
        }
        let properties = scalar.properties
        if properties.isNoncharacterCodePoint { return nil }
        switch properties.generalCategory {
        case .control, .privateUse, .unassigned, .surrogate, .format:
            // The soft hyphen, the joiners and the direction marks that windows-125x code pages hold are rare but
            // real; every other format character, control or unassigned code point is not text.
            if value == 0xAD || (0x200C...0x200F).contains(value) {
                self = .symbol
                return
            }
            return nil
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .modifierLetter:
            self = value == 0xAA || value == 0xBA ? .symbol : .letter(Script(value))
        case .nonspacingMark, .spacingMark, .enclosingMark:
            self = .mark(Script(value))
        default:
            self = CharacterKind.commonSymbols.contains(scalar) ? .commonSymbol : .symbol
        }
    }
}
