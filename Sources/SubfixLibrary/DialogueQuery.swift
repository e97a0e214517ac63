import SubDB

/// A search typed by a user, turned into a safe FTS5 query expression.
///
/// The language: words are all required; `"quoted phrases"` match in order; a run of CJK characters is a phrase
/// (`你好` matches 你 followed by 好); `prefix*` matches words that start with a Latin prefix; `-word` excludes;
/// `OR` between terms makes alternatives. Every term is quoted before FTS5 sees it, so whatever the user types
/// gives results or a `DialogueQueryError`, never an SQLite syntax error.
///
/// The index keeps no positions (see ``DialogueTokenizer``), so a phrase becomes the conjunction of its index
/// terms: a CJK pair for each two adjacent characters, a lone CJK character, a word. When that conjunction can
/// hold lines without the phrase (three or more CJK characters, several words), ``needsVerification`` is true and
/// the search keeps only the candidates whose text holds it (``DialogueMatcher``).
///
///     try DialogueQuery("你好 -再见").expression   // "你好" NOT "再见"
public struct DialogueQuery: Sendable, Equatable {
    /// The FTS5 expression to pass to `MATCH`: every line that matches the query matches it.
    public let expression: String
    /// The terms to find, normalized, for display ("searching for 你好, cafe").
    public let terms: [String]
    /// The phrases to find (not the excluded ones), in the order the expression names them.
    public let phrases: [Phrase]
    /// The excluded phrases (`-word`), each its own alternative.
    public let excluded: [Phrase]
    /// Whether `expression` may match lines the query does not (a phrase of several index terms): each candidate
    /// must then be checked against its text.
    public let needsVerification: Bool

    /// A phrase of the expression: its normalized tokens, in order; the last one is a prefix when `isPrefix`.
    public struct Phrase: Sendable, Equatable {
        /// The tokens, as the query segmenter made them.
        public var tokens: [String]
        /// Whether the last token matches any token it starts (`word*`).
        public var isPrefix: Bool
        /// Which `OR` alternative the phrase belongs to (0 for the first); a line matches an alternative when it
        /// holds all of its phrases.
        public var alternative: Int
    }

    /// The most terms a query may have.
    static let maximumTerms = 64

    /// Parses a user query. Throws when nothing searchable is left, when only excluded terms remain, or when
    /// there are more than `maximumTerms` terms.
    public init(_ query: String, segmenter: DialogueSegmenter = DialogueSegmenter()) throws(DialogueQueryError) {
        var alternatives: [[String]] = [[]]
        var positive: [[Phrase]] = [[]]
        var excludedTerms: [String] = []
        var excluded: [Phrase] = []
        var display: [String] = []
        var inexact = false
        var count = 0
        for word in Self.lex(query) {
            if word.isOperatorOR {
                if !(alternatives.last?.isEmpty ?? true) {
                    alternatives.append([])
                    positive.append([])
                }
                continue
            }
            let tokens = segmenter.markedTokens(in: word.text)
            guard !tokens.isEmpty else { continue }
            count += 1
            guard count <= Self.maximumTerms else { throw .tooManyTerms(maximum: Self.maximumTerms) }
            let isLatinPrefix =
                word.isPrefix && tokens.count == 1
                && tokens[0].text.unicodeScalars.allSatisfy { $0.isASCII }
            let (indexTerms, exact) = Self.indexTerms(tokens, isPrefix: isLatinPrefix)
            let phrase = Phrase(tokens: tokens.map(\.text), isPrefix: isLatinPrefix, alternative: 0)
            if word.isExcluded {
                // An inexact exclusion cannot go to FTS5 (its terms apart would exclude too much): it is checked
                // against each candidate's text.
                if exact { excludedTerms += indexTerms } else { inexact = true }
                excluded.append(Phrase(tokens: phrase.tokens, isPrefix: isLatinPrefix, alternative: excluded.count))
            } else {
                if !exact { inexact = true }
                alternatives[alternatives.count - 1] += indexTerms
                positive[positive.count - 1].append(phrase)
                display.append(word.text)
            }
        }
        let groups = alternatives.filter { !$0.isEmpty }
        guard !groups.isEmpty else {
            throw excluded.isEmpty ? .nothingToSearch : .onlyExclusions
        }
        let conjunctions = groups.map { $0.joined(separator: " AND ") }
        var expression =
            conjunctions.count == 1
            ? conjunctions[0] : conjunctions.map { "(" + $0 + ")" }.joined(separator: " OR ")
        for term in excludedTerms {
            expression = "(" + expression + ") NOT " + term
        }
        self.expression = expression
        self.terms = display
        self.phrases = positive.filter { !$0.isEmpty }.enumerated().flatMap { alternative, phrases in
            phrases.map { Phrase(tokens: $0.tokens, isPrefix: $0.isPrefix, alternative: alternative) }
        }
        self.excluded = excluded
        self.needsVerification = inexact
    }

    /// A phrase's FTS5 terms, quoted, and whether their conjunction matches exactly the lines that hold the
    /// phrase: one term for a word or a lone CJK character, one for each two adjacent CJK characters (their pair).
    static func indexTerms(_ tokens: [DialogueSegmenter.MarkedToken], isPrefix: Bool) -> (terms: [String], exact: Bool)
    {
        var terms: [String] = []
        for (index, token) in tokens.enumerated() {
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            if token.isCJK {
                if let next, next.isCJK {
                    terms.append(quoted(token.text + next.text))
                } else if index == 0 || !tokens[index - 1].isCJK {
                    terms.append(quoted(token.text))
                }
            } else {
                terms.append(quoted(token.text) + (isPrefix && next == nil ? " *" : ""))
            }
        }
        let exact = tokens.count == 1 || (tokens.count == 2 && tokens[0].isCJK && tokens[1].isCJK)
        return (terms, exact)
    }

    /// `text` as an FTS5 string: in double quotes, each quote doubled. FTS5 runs the table's tokenizer over it again.
    /// (No Foundation here: its first string call costs a command-line search a millisecond.)
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for character in text {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        quoted.append("\"")
        return quoted
    }

    struct Word {
        var text: String
        var isExcluded = false
        var isPrefix = false
        var isQuoted = false
        var isOperatorOR: Bool { !isQuoted && !isExcluded && text == "OR" }
    }

    /// Splits on white space, keeping "quoted phrases" (straight or curly quotes) together.
    static func lex(_ query: String) -> [Word] {
        var words: [Word] = []
        var scalars = Array(query.unicodeScalars)[...]
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }
        let closing: [Unicode.Scalar: Unicode.Scalar] = ["\"": "\"", "\u{201C}": "\u{201D}", "\u{300C}": "\u{300D}"]
        while let first = scalars.first {
            if isSpace(first) {
                scalars = scalars.dropFirst()
                continue
            }
            var word = Word(text: "")
            if first == "-", scalars.count > 1, let next = scalars.dropFirst().first, !isSpace(next) {
                word.isExcluded = true
                scalars = scalars.dropFirst()
            }
            if let open = scalars.first, let close = closing[open] {
                scalars = scalars.dropFirst()
                let end = scalars.firstIndex(of: close) ?? scalars.endIndex
                word.text = String(String.UnicodeScalarView(scalars[..<end]))
                word.isQuoted = true
                scalars = end < scalars.endIndex ? scalars[(end + 1)...] : scalars[end...]
            } else {
                let end = scalars.firstIndex(where: isSpace) ?? scalars.endIndex
                var text = String(String.UnicodeScalarView(scalars[..<end]))
                if text.count > 1, text.hasSuffix("*") {
                    text.removeLast()
                    word.isPrefix = true
                }
                word.text = text
                scalars = scalars[end...]
            }
            words.append(word)
        }
        return words
    }
}

/// Why a search query cannot run, in words a user can act on.
public enum DialogueQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The query has no letters, digits or CJK characters.
    case nothingToSearch
    /// Every term is excluded with `-`.
    case onlyExclusions
    /// More terms than `DialogueQuery.maximumTerms`.
    case tooManyTerms(maximum: Int)

    public var description: String {
        switch self {
        case .nothingToSearch: return "the query has nothing to search for (no letters, digits or CJK characters)"
        case .onlyExclusions: return "the query only excludes words: add a word to find"
        case .tooManyTerms(let maximum): return "the query has more than \(maximum) words"
        }
    }
}
