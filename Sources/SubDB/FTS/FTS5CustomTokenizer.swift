import Foundation

/// A tokenizer written in Swift, registered on a connection with ``Database/add(tokenizer:)`` and used by FTS5
/// tables whose `tokenize` option names it.
///
///     final class LowercaseWords: FTS5CustomTokenizer {
///         static let name = "lowercase_words"
///         init(db: Database, arguments: [String]) throws { ... }
///         func tokenize(context:tokenization:pText:nText:tokenCallback:) -> Int32 { ... }
///     }
///     db.add(tokenizer: LowercaseWords.self)
///     try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(body, tokenize='lowercase_words')")
///
/// FTS5 creates one instance per table (and per query parse) with the arguments of the `tokenize` option.
/// A thrown `init` makes the statement fail with SQLite's "error in tokenizer constructor"; `tokenize` reports
/// failures by returning an SQLite error code, which fails the statement.
public protocol FTS5CustomTokenizer: FTS5Tokenizer {
    /// The name tables use in their `tokenize` option.
    static var name: String { get }

    /// A tokenizer for one table. `arguments` are the words that follow the name in the `tokenize` option;
    /// `db` can make the tokenizers this one wraps (``Database/makeTokenizer(_:)``).
    init(db: Database, arguments: [String]) throws
}

extension FTS5CustomTokenizer {
    /// The descriptor of this tokenizer with `arguments`, for the `tokenize` option of a table.
    ///
    ///     DialogueTokenizer.tokenizerDescriptor(arguments: ["fold"]).sqlOptionValue   // '"subfix" "fold"'
    public static func tokenizerDescriptor(arguments: [String] = []) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: [name] + arguments)
    }
}
