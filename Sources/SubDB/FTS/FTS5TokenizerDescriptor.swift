import Foundation

/// The tokenizer of an FTS5 table: a name and its arguments, as written in the table's `tokenize` option.
///
///     FTS5TokenizerDescriptor.unicode61(diacritics: .remove)   // tokenize='unicode61 remove_diacritics 2'
///     DialogueTokenizer.tokenizerDescriptor(arguments: ["fold"])  // tokenize='subfix fold'
public struct FTS5TokenizerDescriptor: Sendable, Equatable {
    /// The name followed by the arguments, such as `["unicode61", "remove_diacritics", "2"]`. Never empty.
    public let components: [String]

    /// The tokenizer name, such as `unicode61`.
    public var name: String { components.first ?? "" }

    /// The arguments after the name.
    public var arguments: [String] { Array(components.dropFirst()) }

    /// A descriptor from its name and arguments. An empty list is a programmer error.
    public init(components: [String]) {
        precondition(!components.isEmpty, "FTS5 tokenizer descriptor has no name")
        self.components = components
    }

    /// How `unicode61` treats diacritics.
    public enum Diacritics: String, Sendable {
        /// Keep them (`remove_diacritics 0`).
        case keep = "0"
        /// Remove them the way SQLite did before 3.27 (`remove_diacritics 1`).
        case removeLegacy = "1"
        /// Remove them, also from characters with several (`remove_diacritics 2`).
        case remove = "2"
    }

    /// SQLite's `ascii` tokenizer.
    public static func ascii() -> FTS5TokenizerDescriptor { FTS5TokenizerDescriptor(components: ["ascii"]) }

    /// SQLite's `unicode61` tokenizer (one token per run of letters and digits; a run of Chinese is one token).
    public static func unicode61(diacritics: Diacritics = .removeLegacy) -> FTS5TokenizerDescriptor {
        var components = ["unicode61"]
        if diacritics != .removeLegacy { components += ["remove_diacritics", diacritics.rawValue] }
        return FTS5TokenizerDescriptor(components: components)
    }

    /// SQLite's `porter` stemmer over another tokenizer (`unicode61` by default).
    public static func porter(wrapping base: FTS5TokenizerDescriptor? = nil) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: ["porter"] + (base?.components ?? []))
    }

    /// SQLite's `trigram` tokenizer (3.34+): every three characters are a token, so queries need three.
    public static func trigram(caseSensitive: Bool = false) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: ["trigram"] + (caseSensitive ? ["case_sensitive", "1"] : []))
    }

    /// The value of the `tokenize` option as an SQL string literal: `'porter unicode61'`. FTS5 reads the
    /// components as barewords or `'quoted'` literals, and the whole is single-quoted again.
    public var sqlOptionValue: String {
        let fts5 = components.map { component -> String in
            let isBareword =
                !component.isEmpty
                && component.utf8.allSatisfy { byte in
                    byte >= 0x80 || byte == 0x5F || (byte >= 0x30 && byte <= 0x39)
                        || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                }
            return isBareword ? component : "'" + component.replacingOccurrences(of: "'", with: "''") + "'"
        }.joined(separator: " ")
        return "'" + fts5.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
