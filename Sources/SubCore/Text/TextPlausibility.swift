/// How plausible a decoded text is as subtitle text, in bits: the cheapest reading of its non-ASCII characters
/// under one `LanguageModel`, plus penalties for word shapes real text does not have (a word that switches
/// script, an uppercase letter right after a lowercase one). A wrong decoding turns one language's letters into
/// another's symbols, rare letters and mixed-script words, and costs many more bits than the right one.
struct TextPlausibility: Sendable {
    /// How often each non-ASCII character occurs.
    private(set) var counts: [Unicode.Scalar: Int] = [:]
    private var kinds: [Unicode.Scalar: CharacterKind] = [:]
    /// Bits of the word-shape penalties, the same under every language.
    private(set) var structure: Float = 0
    /// The number of non-ASCII characters.
    private(set) var nonASCII = 0
    /// Words of one non-ASCII letter, by letter: each language has only a few (French `à`, Greek `η`).
    private var singleLetterWords: [Unicode.Scalar: Int] = [:]
    /// Non-ASCII letters seen inside a word rather than at its start, by letter.
    private var innerLetters: [Unicode.Scalar: Int] = [:]
    /// Words longer than seven letters with a non-ASCII letter in them (no Vietnamese syllable is that long).
    private var longAccentedWords = 0
    /// How often a space separates two Han, kana or Hangul characters: Korean spaces its words, Chinese and
    /// Japanese rarely do.
    private var spacedCJK = 0

    /// Bits for a word that switches between two alphabetic scripts (or Hangul and Han).
    static let scriptSwitch: Float = 10
    /// Bits for a word that switches between Han or kana and Latin letters (`用iPhone` exists, but rarely).
    static let cjkLatinSwitch: Float = 4
    /// Bits for an uppercase letter right after a lowercase one in a word.
    static let caseSwitch: Float = 6
    /// Bits for a combining mark with no letter before it.
    static let strayMark: Float = 8
    /// Bits for a word of one non-ASCII letter that is not a word of the language.
    static let strayLetter: Float = 6
    /// Bits for a symbol such as `±` or `¾` between two letters of a word.
    static let symbolInWord: Float = 8
    /// Bits for a letter a language writes only at the start of words (Icelandic `þ`) seen inside one, and for a
    /// Vietnamese word longer than a syllable can be.
    static let misplacedLetter: Float = 6
    /// Bits for a space between two Han, kana or Hangul characters, except in Korean.
    static let cjkSpace: Float = 3

    private enum Group: Equatable { case script(Script), cjk, hangul }

    /// Measures `utf8` (valid UTF-8); nil when it holds a character that is never subtitle text: a control
    /// character other than tab, line feed, vertical tab, form feed and carriage return, or one that
    /// `CharacterKind` refuses (U+FFFD, private use, unassigned).
    init?(_ utf8: some Collection<UInt8>) {
        var previous: Group?
        var previousLower = false
        // The current word's length in letters and its only letter while it has one; the state of a space
        // that follows a CJK character.
        var wordLength = 0
        var wordLetter: Unicode.Scalar?
        var wordHasNonASCII = false
        var afterCJK = false
        var spaceAfterCJK = false
        // A symbol right after a letter, waiting to see whether a letter follows it.
        var symbolAfterLetter = false
        func endWord(_ plausibility: inout TextPlausibility) {
            if wordLength == 1, let letter = wordLetter { plausibility.singleLetterWords[letter, default: 0] += 1 }
            if wordLength > 7 && wordHasNonASCII { plausibility.longAccentedWords += 1 }
            wordLength = 0
            wordLetter = nil
            wordHasNonASCII = false
        }
        for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
            let value = scalar.value
            var group: Group
            var isLetter = true
            if value < 0x80 {
                if value < 0x20 || value == 0x7F {
                    if value < 0x09 || value > 0x0D { return nil }
                }
                let byte = UInt8(value)
                let upper = byte >= 0x41 && byte <= 0x5A
                let lower = byte >= 0x61 && byte <= 0x7A
                spaceAfterCJK = value == 0x20 && afterCJK
                afterCJK = false
                guard upper || lower else {
                    endWord(&self)
                    symbolAfterLetter = false
                    previous = nil
                    previousLower = false
                    continue
                }
                if symbolAfterLetter { structure += Self.symbolInWord }
                symbolAfterLetter = false
                wordLength += 1
                if upper && previousLower && previous != nil { structure += Self.caseSwitch }
                if let previous, previous != .script(.latin) { structure += Self.penalty(previous, .script(.latin)) }
                previous = .script(.latin)
                previousLower = lower
                continue
            }
            let kind: CharacterKind
            if let known = kinds[scalar] {
                kind = known
            } else {
                guard let made = CharacterKind(scalar) else { return nil }
                kinds[scalar] = made
                kind = made
            }
            counts[scalar, default: 0] += 1
            nonASCII += 1
            switch kind {
            case .letter(let script): group = .script(script)
            case .mark(let script):
                if let previous {
                    if previous != .script(script) { structure += Self.scriptSwitch }
                } else {
                    structure += Self.strayMark
                }
                continue
            case .han, .hiragana, .katakana, .halfwidthKatakana, .bopomofo: group = .cjk
            case .hangul: group = .hangul
            default:
                isLetter = false
                group = .cjk
            }
            let isCJK = isLetter && (group == .cjk || group == .hangul)
            if isCJK && spaceAfterCJK { spacedCJK += 1 }
            afterCJK = isCJK
            spaceAfterCJK = false
            guard isLetter else {
                symbolAfterLetter = kind == .symbol && wordLength > 0
                endWord(&self)
                previous = nil
                previousLower = false
                continue
            }
            if symbolAfterLetter { structure += Self.symbolInWord }
            symbolAfterLetter = false
            if wordLength > 0 && !isCJK { innerLetters[scalar, default: 0] += 1 }
            wordHasNonASCII = true
            wordLength += 1
            wordLetter = isCJK ? nil : scalar
            if let previous, previous != group { structure += Self.penalty(previous, group) }
            let properties = scalar.properties
            if properties.isUppercase && previousLower && previous != nil { structure += Self.caseSwitch }
            previousLower = properties.isLowercase
            previous = group
        }
        endWord(&self)
    }

    private static func penalty(_ first: Group, _ second: Group) -> Float {
        switch (first, second) {
        case (.cjk, .script(.latin)), (.script(.latin), .cjk): return cjkLatinSwitch
        default: return scriptSwitch
        }
    }

    /// The cost of the text under `model`, in bits.
    func cost(under model: LanguageModel) -> Float {
        var total = structure
        for (scalar, count) in counts {
            guard let kind = kinds[scalar] else { continue }
            total += model.cost(scalar, kind) * Float(count)
        }
        for (letter, count) in singleLetterWords where !model.isSingleLetterWord(letter) {
            total += Self.strayLetter * Float(count)
        }
        for letter in model.initialLetters { total += Self.misplacedLetter * Float(innerLetters[letter] ?? 0) }
        if model.language == .vietnamese { total += Self.misplacedLetter * Float(longAccentedWords) }
        if model.language != .korean { total += Self.cjkSpace * Float(spacedCJK) }
        return total
    }

    /// The cheapest reading: the language and its cost in bits.
    func best() -> (language: TextLanguage, cost: Float) {
        var best: (language: TextLanguage, cost: Float) = (.english, .infinity)
        for model in LanguageModel.all {
            let cost = cost(under: model)
            if cost < best.cost { best = (model.language, cost) }
        }
        return best
    }
}
