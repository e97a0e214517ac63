import Foundation

/// The function a tokenizer calls for each token: the `xToken` callback of SQLite's `fts5_tokenizer`.
///
/// Arguments: the context given to `tokenize`, the token flags (``FTS5TokenFlags``), the token's UTF-8 bytes
/// and length, and the byte range `[iStart, iEnd)` of the original text it stands for. A result other than
/// `SQLITE_OK` (0) must stop the tokenization and be returned by `tokenize`.
public typealias FTS5TokenCallback =
    @convention(c) (
        _ context: UnsafeMutableRawPointer?, _ flags: Int32, _ pToken: UnsafePointer<CChar>?, _ nToken: Int32,
        _ iStart: Int32, _ iEnd: Int32
    ) -> Int32

/// Why FTS5 tokenizes a text. The corresponding C constants are `FTS5_TOKENIZE_*`.
public struct FTS5Tokenization: OptionSet, Sendable, Hashable {
    /// The raw `FTS5_TOKENIZE_*` mask.
    public let rawValue: Int32

    /// A mask.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// A MATCH query is being parsed (`FTS5_TOKENIZE_QUERY`).
    public static let query = FTS5Tokenization(rawValue: 0x0001)
    /// The query term is followed by `*` (`FTS5_TOKENIZE_PREFIX`, always with `.query`).
    public static let prefix = FTS5Tokenization(rawValue: 0x0002)
    /// A document is being inserted or deleted (`FTS5_TOKENIZE_DOCUMENT`).
    public static let document = FTS5Tokenization(rawValue: 0x0004)
    /// An auxiliary function such as `highlight()` re-reads a document (`FTS5_TOKENIZE_AUX`).
    public static let aux = FTS5Tokenization(rawValue: 0x0008)
}

/// GRDB's other name for ``FTS5Tokenization``.
public typealias FTS5TokenizeFlags = FTS5Tokenization

/// Flags of one token. The corresponding C constant is `FTS5_TOKEN_COLOCATED`.
public struct FTS5TokenFlags: OptionSet, Sendable, Hashable {
    /// The raw `FTS5_TOKEN_*` mask.
    public let rawValue: Int32

    /// A mask.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The token is a synonym at the same position as the previous one.
    public static let colocated = FTS5TokenFlags(rawValue: 0x0001)
}

/// A tokenizer FTS5 can use: SQLite's own (from ``Database/makeTokenizer(_:)``) or one written in Swift
/// (``FTS5CustomTokenizer``).
///
///     let unicode61 = try db.makeTokenizer(.unicode61())
///     try unicode61.tokenize("Hello world", for: .document).map(\.token)   // ["hello", "world"]
public protocol FTS5Tokenizer: AnyObject {
    /// Tokenizes `nText` UTF-8 bytes at `pText`, calling `tokenCallback(context, ...)` for each token, and returns
    /// `SQLITE_OK` (0) or the first error code (including a non-zero result of `tokenCallback`).
    func tokenize(
        context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization, pText: UnsafePointer<CChar>?,
        nText: Int32, tokenCallback: FTS5TokenCallback
    ) -> Int32
}

/// A tokenizer failed: the SQLite result code it returned.
public struct FTS5TokenizerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The result code returned by `tokenize`.
    public var code: Int32

    /// `tokenizer failed with SQLite error 1`.
    public var description: String { "tokenizer failed with SQLite error \(code)" }
}

/// Collects tokens for ``FTS5Tokenizer/tokenize(_:for:)``.
private final class TokenCollector {
    var tokens: [(token: String, flags: FTS5TokenFlags)] = []
}

extension FTS5Tokenizer {
    /// The tokens of `string` and their flags, for tests and tools.
    ///
    ///     try tokenizer.tokenize("你好", for: .query)   // [("你", []), ("好", [])]
    public func tokenize(_ string: String, for tokenization: FTS5Tokenization) throws
        -> [(token: String, flags: FTS5TokenFlags)]
    {
        let collector = TokenCollector()
        var text = string
        let code = text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                tokenize(
                    context: Unmanaged.passUnretained(collector).toOpaque(), tokenization: tokenization,
                    pText: chars.baseAddress, nText: Int32(chars.count),
                    tokenCallback: { context, flags, pToken, nToken, _, _ in
                        guard let context else { return 1 }  // SQLITE_ERROR
                        let collector = Unmanaged<TokenCollector>.fromOpaque(context).takeUnretainedValue()
                        let token: String
                        if let pToken, nToken > 0 {
                            token = pToken.withMemoryRebound(to: UInt8.self, capacity: Int(nToken)) {
                                String(decoding: UnsafeBufferPointer(start: $0, count: Int(nToken)), as: UTF8.self)
                            }
                        } else {
                            token = ""
                        }
                        collector.tokens.append((token, FTS5TokenFlags(rawValue: flags)))
                        return 0  // SQLITE_OK
                    })
            }
        }
        guard code == 0 else { throw FTS5TokenizerError(code: code) }
        return collector.tokens
    }

    /// The tokens FTS5 indexes for `string`.
    public func tokenize(document string: String) throws -> [String] {
        try tokenize(string, for: .document).map(\.token)
    }

    /// The tokens FTS5 looks for when `string` is a query term.
    public func tokenize(query string: String) throws -> [String] {
        try tokenize(string, for: .query).map(\.token)
    }
}
