import Foundation

/// What a file's name, or a track's language tag and title, say about the languages of its text: one language
/// (`.chs`, `jpn`, `zh-Hant`, `[繁]`), or two at once (`.JPSC.`, `.JPTC.`, `简日双语`), as fansub releases name
/// their bilingual scripts.
///
///     LanguageTags(fileName: "[Group] Show - 01.JPSC.ass")?.languages   // [.japanese, .simplifiedChinese]
public struct LanguageTags: Sendable, Hashable {
    /// The languages named.
    public var languages: Set<CJKLanguage>
    /// Whether Chinese is named without saying which script (`chi`, `zh`).
    public var chinese: Bool
    /// Where they were read, for reasons: `file name`, `track title`.
    public var source: String

    /// Tags naming `languages` (and Chinese without a script, when `chinese`), read from `source`.
    public init(languages: Set<CJKLanguage>, chinese: Bool = false, source: String) {
        self.languages = languages
        self.chinese = chinese
        self.source = source
    }

    /// The tags of one label (a track's language or title, a token of a file name); nil when it names no CJK
    /// language.
    public init?(tag: String, source: String) {
        guard let (languages, chinese) = LanguageTags.parse(tag) else { return nil }
        self.init(languages: languages, chinese: chinese, source: source)
    }

    /// The tags of a subtitle file's name (`Show.S01E01.JPSC.ass`, `[Group] Show - 01 [简日双语].ass`): every
    /// token of its dot-separated parts after the first (the extension left out), and every bracketed token of the
    /// first part (the title itself, `tc.srt`, is no tag). Tokens are split at brackets, parentheses and blanks.
    public init?(fileName path: String) {
        var parts = (path as NSString).lastPathComponent.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count > 1 { parts.removeLast() }
        var tokens: [Substring] = []
        var depth = 0
        var current = ""
        // The first part's bracketed words only.
        for character in parts.first ?? "" {
            if "[(【".contains(character) {
                depth += 1
            } else if "])】".contains(character) {
                depth = max(0, depth - 1)
                tokens.append(Substring(current))
                current = ""
            } else if depth > 0 {
                if character == " " {
                    tokens.append(Substring(current))
                    current = ""
                } else {
                    current.append(character)
                }
            }
        }
        for part in parts.dropFirst() { tokens += part.split(whereSeparator: { "[]()【】 ".contains($0) }) }
        var found: LanguageTags?
        for token in tokens where !token.isEmpty {
            guard let tags = LanguageTags(tag: String(token), source: "file name") else { continue }
            found = found.map { $0.adding(tags) } ?? tags
        }
        guard let found else { return nil }
        self = found
    }

    /// These tags and `other`'s together, named by both sources.
    public func adding(_ other: LanguageTags) -> LanguageTags {
        let source = other.source == self.source ? source : "\(source) and \(other.source)"
        return LanguageTags(
            languages: languages.union(other.languages), chinese: chinese || other.chinese, source: source)
    }

    /// The one writing system named, or nil when none or several are.
    public var script: CJKScript? {
        var scripts = Set(languages.map(\.script))
        if chinese { scripts.insert(.chinese) }
        return scripts.count == 1 ? scripts.first : nil
    }

    /// Whether both Japanese and Chinese are named (a bilingual fansub script).
    public var namesJapaneseAndChinese: Bool {
        languages.contains(.japanese) && (chinese || languages.contains { $0.script == .chinese })
    }

    /// The one Chinese script named, or nil.
    public var variant: CJKLanguage? {
        let chinese = languages.filter { $0.script == .chinese }
        return chinese.count == 1 ? chinese.first : nil
    }

    /// What one label says: a single language (through `CJKLanguage.hint(from:)`), or a run of the parts
    /// fansub names combine (`jpsc`, `chs&jpn`, `简日双语`, `繁日`).
    static func parse(_ tag: String) -> (Set<CJKLanguage>, Bool)? {
        if let combined = parseCombined(tag) { return combined }
        switch CJKLanguage.hint(from: tag) {
        case .language(let language): return ([language], false)
        case .chinese: return ([], true)
        case nil: return nil
        }
    }

    /// A label made of two or more language parts, or nil.
    private static func parseCombined(_ tag: String) -> (Set<CJKLanguage>, Bool)? {
        var rest = Substring(tag.lowercased())
        var languages: Set<CJKLanguage> = []
        var chinese = false
        var named = 0
        parsing: while !rest.isEmpty {
            if let first = rest.first, "&+-_ ".contains(first) {
                rest = rest.dropFirst()
                continue
            }
            for (part, meaning) in compositeParts where rest.hasPrefix(part) {
                rest = rest.dropFirst(part.count)
                switch meaning {
                case .language(let language):
                    languages.insert(language)
                    named += 1
                case .chinese:
                    chinese = true
                    named += 1
                case nil:
                    break
                }
                continue parsing
            }
            return nil
        }
        return named >= 2 ? (languages, chinese) : nil
    }

    /// The parts of a combined label, longest first; nil for words that name no language (`双语`, bilingual).
    private static let compositeParts: [(String, LanguageHint?)] = [
        ("big5", .language(.traditionalChinese)), ("jpn", .language(.japanese)), ("chs", .language(.simplifiedChinese)),
        ("cht", .language(.traditionalChinese)), ("kor", .language(.korean)), ("双语", nil), ("雙語", nil),
        ("字幕", nil), ("jp", .language(.japanese)), ("ja", .language(.japanese)), ("sc", .language(.simplifiedChinese)),
        ("tc", .language(.traditionalChinese)), ("gb", .language(.simplifiedChinese)), ("kr", .language(.korean)),
        ("zh", .chinese), ("简", .language(.simplifiedChinese)), ("簡", .language(.simplifiedChinese)),
        ("繁", .language(.traditionalChinese)), ("日", .language(.japanese)), ("韩", .language(.korean)),
        ("韓", .language(.korean)), ("中", .chinese), ("体", nil), ("體", nil),
    ]
}

extension CJKScript {
    /// The language's English name, for reasons.
    public var name: String {
        switch self {
        case .chinese: return "Chinese"
        case .japanese: return "Japanese"
        case .korean: return "Korean"
        }
    }
}

extension CJKLanguage {
    /// The writing system of this convention.
    public var script: CJKScript {
        switch self {
        case .simplifiedChinese, .traditionalChinese: return .chinese
        case .japanese: return .japanese
        case .korean: return .korean
        }
    }
}

/// Everything that may decide the language of one run of text, nearest first: the run's own text, the rest
/// of its line, all the text drawn in its style, then the file's tags, then the whole script. The first that
/// tells decides, in two steps: the writing system (Chinese, Japanese, Korean), then for Chinese the script.
///
///     var context = LanguageContext(levels: [.init("the run", CJKEvidence("我不明白！"))])
///     context.tags = LanguageTags(fileName: "ep01.JPSC.ass")
///     context.resolve().language   // .simplifiedChinese: Han only, in a Japanese+Chinese file
public struct LanguageContext: Sendable {
    /// One stretch of text and what it says.
    public struct Level: Sendable {
        /// How a reason names it: `the run`, `its line`, `its style's text`.
        public var label: String
        public var evidence: CJKEvidence

        /// A level named `label`.
        public init(_ label: String, _ evidence: CJKEvidence) {
            self.label = label
            self.evidence = evidence
        }
    }

    /// The text around the run, nearest first (the run itself first).
    public var levels: [Level]
    /// The file's and track's tags.
    public var tags: LanguageTags?
    /// The whole script's text.
    public var script: CJKEvidence?

    /// A context of `levels`, `tags` and the whole `script`.
    public init(levels: [Level], tags: LanguageTags? = nil, script: CJKEvidence? = nil) {
        self.levels = levels
        self.tags = tags
        self.script = script
    }

    /// The language of the run and which level decided it. A run of Han characters both languages write
    /// is Chinese in a Japanese+Chinese file (its Japanese lines have kana), and follows the script elsewhere.
    /// Text with no CJK anywhere is Simplified Chinese by default.
    public func resolve() -> LanguageGuess {
        let own = levels.first?.evidence ?? CJKEvidence()
        // Korean from around the run only for a run with no Han of its own: Korean subtitles write Hangul, and
        // Han-only text beside Korean lines is the Chinese or Japanese of a multilingual script.
        func accepts(_ script: CJKScript, nearest: Bool) -> Bool { nearest || script != .korean || own.han == 0 }
        var decided: (script: CJKScript, label: String?, why: String)?
        for (index, level) in levels.enumerated() {
            if let script = level.evidence.script, accepts(script, nearest: index == 0) {
                decided = (script, level.label, Self.describe(script) + " in " + level.label)
                break
            }
        }
        if decided == nil, let tags {
            if let script = tags.script, accepts(script, nearest: false) {
                decided = (script, nil, "tagged \(script.name) (\(tags.source))")
            } else if tags.namesJapaneseAndChinese {
                decided = (.chinese, nil, "Han only, in a file tagged Japanese and Chinese (\(tags.source))")
            }
        }
        if decided == nil, let script, script.cjk > 0 {
            if script.isJapaneseAndChinese {
                decided = (.chinese, nil, "Han only, in a Japanese+Chinese script")
            } else if let whole = script.script, accepts(whole, nearest: false) {
                decided = (whole, "the rest of the script", "the rest of the script is \(whole.name)")
            }
        }
        let hasCJK = levels.contains { $0.evidence.cjk > 0 }
        if decided == nil {
            guard hasCJK else {
                return LanguageGuess(language: .simplifiedChinese, reason: "no CJK text, Simplified Chinese by default")
            }
            decided = (.chinese, nil, "Han characters only")
        }
        guard let decided else { return LanguageGuess(language: .simplifiedChinese, reason: "") }
        switch decided.script {
        case .japanese: return LanguageGuess(language: .japanese, reason: decided.why)
        case .korean: return LanguageGuess(language: .korean, reason: decided.why)
        case .chinese: break
        }
        // The Chinese script: the nearest level whose characters tell, then the tags, then the whole script.
        func guess(_ variant: CJKLanguage, _ label: String) -> LanguageGuess {
            let variantWhy = Self.describe(variant) + " in " + label
            // One level that tells both needs saying once.
            let reason = decided.label == label ? variantWhy : "\(decided.why); \(variantWhy)"
            return LanguageGuess(language: variant, reason: reason)
        }
        for level in levels {
            if let variant = level.evidence.variant { return guess(variant, level.label) }
        }
        if let tags, let variant = tags.variant {
            return LanguageGuess(
                language: variant, reason: "\(decided.why); tagged \(variant.rawValue) (\(tags.source))")
        }
        if let variant = script?.variant {
            let reason =
                decided.label == "the rest of the script"
                ? "the rest of the script is \(variant.rawValue)"
                : "\(decided.why); the rest of the script is \(variant.rawValue)"
            return LanguageGuess(language: variant, reason: reason)
        }
        return LanguageGuess(language: .simplifiedChinese, reason: "\(decided.why); Simplified by default")
    }

    private static func describe(_ script: CJKScript) -> String {
        switch script {
        case .korean: return "Hangul"
        case .japanese: return "kana"
        case .chinese: return "Chinese-only characters"
        }
    }

    private static func describe(_ variant: CJKLanguage) -> String {
        variant == .traditionalChinese ? "Traditional-only characters" : "Simplified-only characters"
    }
}
