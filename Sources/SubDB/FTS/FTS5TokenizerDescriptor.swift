/// An FTS5 tokenizer and its arguments, for `t.tokenizer`: `.unicode61()`, `.ascii()`, `.porter()`, `.trigram()`.
///
///     t.tokenizer = .unicode61(diacritics: .keep, tokenCharacters: ["-"])
///     t.tokenizer = .porter(wrapping: .unicode61())
///     t.tokenizer = .trigram(caseSensitive: false)   // substring matching, also for CJK text
///
/// A custom tokenizer registered on the connection is described by its name and arguments:
/// `FTS5TokenizerDescriptor(components: ["mytokenizer", "arg"])`.
public struct FTS5TokenizerDescriptor: Sendable, Hashable {
    /// The tokenizer name followed by its arguments: `["unicode61", "remove_diacritics", "0"]`.
    public let components: [String]

    /// A descriptor from its components; the first one is the tokenizer name.
    public init(components: [String]) {
        precondition(!components.isEmpty, "FTS5TokenizerDescriptor requires at least one component")
        self.components = components
    }

    /// The tokenizer name.
    public var name: String { components[0] }

    /// The tokenizer arguments.
    public var arguments: [String] { Array(components.dropFirst()) }

    /// The `ascii` tokenizer.
    public static func ascii(separators: Set<Character> = [], tokenCharacters: Set<Character> = []) -> Self {
        var components = ["ascii"]
        if !separators.isEmpty { components += ["separators", quoted(separators)] }
        if !tokenCharacters.isEmpty { components += ["tokenchars", quoted(tokenCharacters)] }
        return Self(components: components)
    }

    /// The `porter` stemmer, wrapping `unicode61` unless told otherwise.
    public static func porter(wrapping base: FTS5TokenizerDescriptor? = nil) -> Self {
        Self(components: ["porter"] + (base?.components ?? []))
    }

    /// The `unicode61` tokenizer, SQLite's default. It splits on Unicode separators and punctuation only: a run
    /// of CJK characters without spaces is ONE token, so `你好` does not match inside `你好世界`.
    /// Use ``trigram(caseSensitive:removeDiacritics:)`` for CJK substring search.
    public static func unicode61(
        diacritics: FTS5.Diacritics = .removeLegacy, categories: String = "", separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []
    ) -> Self {
        var components = ["unicode61"]
        switch diacritics {
        case .removeLegacy: break
        case .keep: components += ["remove_diacritics", "0"]
        case .remove: components += ["remove_diacritics", "2"]
        }
        if !categories.isEmpty { components += ["categories", SQLLiteral.sql(categories.databaseValue)] }
        if !separators.isEmpty { components += ["separators", quoted(separators)] }
        if !tokenCharacters.isEmpty { components += ["tokenchars", quoted(tokenCharacters)] }
        return Self(components: components)
    }

    /// The `trigram` tokenizer (SQLite 3.34+): every 3-character sequence is a token, so patterns match any
    /// substring of at least 3 characters, in any script. GRDB has no such helper.
    ///
    /// - parameter caseSensitive: `case_sensitive 1` when true, `0` when false, SQLite's default (insensitive)
    ///   when nil.
    /// - parameter removeDiacritics: `remove_diacritics 1/0` (needs SQLite 3.45; older versions reject it).
    public static func trigram(caseSensitive: Bool? = nil, removeDiacritics: Bool? = nil) -> Self {
        var components = ["trigram"]
        if let caseSensitive { components += ["case_sensitive", caseSensitive ? "1" : "0"] }
        if let removeDiacritics { components += ["remove_diacritics", removeDiacritics ? "1" : "0"] }
        return Self(components: components)
    }

    private static func quoted(_ characters: Set<Character>) -> String {
        SQLLiteral.sql(String(characters.sorted()).databaseValue)
    }
}
