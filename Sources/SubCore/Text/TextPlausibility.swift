/// How plausible a decoded text is as subtitle text, in bits: the cheapest reading of its non-ASCII characters
/// under one `LanguageModel`, plus penalties for word shapes real text does not have (a word that switches
/// script, an uppercase letter right after a lowercase one). A wrong decoding turns one language's letters into
/// another's symbols, rare letters and mixed-script words, and costs many more bits than the right one.
struct TextPlausibility: Sendable {
    /// How often each non-ASCII character occurs.
    private(set) var counts: [Unicode.Scalar: Int] = [:]
    /// Each non-ASCII character's kind and lowercase form, worked out once.
    private var kinds: [Unicode.Scalar: Known] = [:]

    /// What is known about characters, shared by the readings of one file (they mostly hold the same ones).
    struct Cache {
        fileprivate var known: [Unicode.Scalar: Known] = [:]
    }

    fileprivate struct Known {
        var kind: CharacterKind
        var lowercase: Unicode.Scalar
        var isUppercase: Bool
        var isLowercase: Bool
    }
    /// Bits of the word-shape penalties, the same under every language.
    private(set) var structure: Float = 0
    /// The number of non-ASCII characters.
    private(set) var nonASCII = 0
    /// Words of one non-ASCII letter, by lowercase letter: each language has only a few (French `à`, Greek `η`).
    private var singleLetterWords: [Unicode.Scalar: Int] = [:]
    /// How often `þ` occurs inside a word rather than at its start (Icelandic writes it only at the start).
    private var innerThorns = 0
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
    /// Letters beyond which a word of an alphabet written with spaces is too long to be one (the mojibake of
    /// Chinese read as a single-byte code page is one endless word), and the bits each further letter costs.
    static let longestWord = 20
    static let longWordLetter: Float = 4
    /// Bits for a space between two Han, kana or Hangul characters, except in Korean.
    static let cjkSpace: Float = 3

    private enum Group: Equatable { case script(Script), cjk, hangul }

    /// Measures `utf8` (valid UTF-8); nil when it holds a character that is never subtitle text: a control
    /// character other than tab, line feed, vertical tab, form feed and carriage return, or one that
    /// `CharacterKind` refuses (U+FFFD, private use, unassigned).
    init?(_ utf8: some Collection<UInt8>) {
        var cache = Cache()
        self.init(utf8, cache: &cache)
    }

    /// Measures `utf8`, looking characters up in `cache` first.
    init?(_ utf8: some Collection<UInt8>, cache: inout Cache) {
        var previous: Group?
        var previousLower = false
        // The current word's length in letters and its only letter while it has one; the state of a space
        // that follows a CJK character.
        var wordLength = 0
        var wordLetter: Unicode.Scalar?
        var wordHasNonASCII = false
        // Whether the word has letters of a script written without spaces (Han, kana, Hangul, Thai).
        var wordIsSpaceless = false
        var afterCJK = false
        var spaceAfterCJK = false
        // A symbol right after a letter, waiting to see whether a letter follows it.
        var symbolAfterLetter = false
        // The previous character when it was Thai and in the same word, for Thai spelling.
        var previousThai: UInt32?
        func endWord(_ plausibility: inout TextPlausibility) {
            if wordLength == 1, let letter = wordLetter { plausibility.singleLetterWords[letter, default: 0] += 1 }
            if wordLength > 7 && wordHasNonASCII { plausibility.longAccentedWords += 1 }
            if wordLength > Self.longestWord && wordHasNonASCII && !wordIsSpaceless {
                plausibility.structure += Self.longWordLetter * Float(wordLength - Self.longestWord)
            }
            wordIsSpaceless = false
            wordLength = 0
            wordLetter = nil
            wordHasNonASCII = false
        }
        // Decoded in place: no String is built for each candidate's reading.
        var bytes = utf8.makeIterator()
        var decoder = Unicode.UTF8()
        decoding: while true {
            let scalar: Unicode.Scalar
            switch decoder.decode(&bytes) {
            case .scalarValue(let value): scalar = value
            case .emptyInput: break decoding
            case .error: return nil
            }
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
                if let thai = previousThai, Self.isLeadingThaiVowel(thai) { structure += Self.strayMark }
                previousThai = nil
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
            let known: Known
            if let seen = kinds[scalar] {
                known = seen
            } else if let seen = cache.known[scalar] {
                known = seen
                kinds[scalar] = known
            } else {
                guard let made = CharacterKind(scalar) else { return nil }
                let properties = scalar.properties
                known = Known(
                    kind: made, lowercase: LanguageModel.lowercase(scalar), isUppercase: properties.isUppercase,
                    isLowercase: properties.isLowercase)
                kinds[scalar] = known
                cache.known[scalar] = known
            }
            let kind = known.kind
            counts[scalar, default: 0] += 1
            nonASCII += 1
            switch kind {
            case .letter(let script): group = .script(script)
            case .mark(let script):
                if script == .thai {
                    // A Thai vowel or tone mark sits on a consonant (or on the mark before it).
                    if let thai = previousThai, Self.isThaiConsonant(thai) || Self.isThaiMark(thai) {
                    } else {
                        structure += Self.strayMark
                    }
                    previousThai = value
                    continue
                }
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
            if let thai = previousThai, Self.isLeadingThaiVowel(thai), !Self.isThaiConsonant(value) {
                structure += Self.strayMark
            }
            previousThai = isLetter && group == .script(.thai) ? value : nil
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
            if wordLength > 0 && (value == 0xFE || value == 0xDE) { innerThorns += 1 }
            wordHasNonASCII = true
            if isCJK || group == .script(.thai) { wordIsSpaceless = true }
            wordLength += 1
            wordLetter = isCJK ? nil : known.lowercase
            if let previous, previous != group { structure += Self.penalty(previous, group) }
            if known.isUppercase && previousLower && previous != nil { structure += Self.caseSwitch }
            previousLower = known.isLowercase
            previous = group
        }
        endWord(&self)
    }

    /// ก to ฮ.
    private static func isThaiConsonant(_ value: UInt32) -> Bool { (0x0E01...0x0E2E).contains(value) }
    /// เ แ โ ใ ไ, written before the consonant they follow in speech.
    private static func isLeadingThaiVowel(_ value: UInt32) -> Bool { (0x0E40...0x0E44).contains(value) }
    /// The vowel and tone marks written above or below a consonant.
    private static func isThaiMark(_ value: UInt32) -> Bool {
        value == 0x0E31 || (0x0E34...0x0E3A).contains(value) || (0x0E47...0x0E4E).contains(value)
    }

    private static func penalty(_ first: Group, _ second: Group) -> Float {
        switch (first, second) {
        case (.cjk, .script(.latin)), (.script(.latin), .cjk): return cjkLatinSwitch
        default: return scriptSwitch
        }
    }

    /// The cost of the text under `model`, in bits.
    func cost(under model: LanguageModel) -> Float {
        cost(under: model, entries: entries())
    }

    /// The cheapest reading: the language and its cost in bits.
    func best() -> (language: TextLanguage, cost: Float) {
        let entries = entries()
        // An alphabetic model can only be cheapest when the text has letters of its script: it pays the price
        // of a letter of another script for every other letter. The four CJK models are always weighed.
        var scripts: Set<Script> = [.latin]
        for entry in entries {
            if case .letter(let script) = entry.kind { scripts.insert(script) }
        }
        var best: (language: TextLanguage, cost: Float) = (.english, .infinity)
        for model in LanguageModel.all {
            if let script = model.script, !scripts.contains(script) { continue }
            let cost = cost(under: model, entries: entries)
            if cost < best.cost { best = (model.language, cost) }
        }
        return best
    }

    private typealias Entry = (scalar: Unicode.Scalar, lowercase: Unicode.Scalar, kind: CharacterKind, count: Float)

    private func entries() -> [Entry] {
        counts.compactMap { scalar, count in
            kinds[scalar].map { (scalar, $0.lowercase, $0.kind, Float(count)) }
        }
    }

    private func cost(under model: LanguageModel, entries: [Entry]) -> Float {
        var total = structure
        for entry in entries {
            total += model.cost(entry.scalar, lowercase: entry.lowercase, entry.kind) * entry.count
        }
        for (letter, count) in singleLetterWords where !model.isSingleLetterWord(letter) {
            total += Self.strayLetter * Float(count)
        }
        if model.thornStartsWords { total += Self.misplacedLetter * Float(innerThorns) }
        if model.language == .vietnamese { total += Self.misplacedLetter * Float(longAccentedWords) }
        if model.language != .korean { total += Self.cjkSpace * Float(spacedCJK) }
        return total
    }
}
