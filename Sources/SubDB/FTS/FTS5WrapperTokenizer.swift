import Foundation

/// Receives the tokens a wrapper tokenizer produces: the token and its flags. Its byte range is the range of
/// the wrapped token being accepted.
public typealias FTS5WrapperTokenCallback = (_ token: String, _ flags: FTS5TokenFlags) throws -> Void

/// A custom tokenizer that post-processes the tokens of another one: it can drop them (stop words), change them
/// (stemming, folding) or add synonyms (``FTS5TokenFlags/colocated``).
///
///     final class StopWords: FTS5WrapperTokenizer {
///         static let name = "stop_words"
///         let wrappedTokenizer: any FTS5Tokenizer
///         init(db: Database, arguments: [String]) throws {
///             wrappedTokenizer = try db.makeTokenizer(.unicode61())
///         }
///         func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
///                     tokenCallback: FTS5WrapperTokenCallback) throws {
///             if token != "the" { try tokenCallback(token, flags) }
///         }
///     }
///
/// An error thrown by `accept` or by the callback stops the tokenization with `SQLITE_ERROR`.
public protocol FTS5WrapperTokenizer: FTS5CustomTokenizer {
    /// The tokenizer whose tokens are post-processed.
    var wrappedTokenizer: any FTS5Tokenizer { get }

    /// Called for each token of the wrapped tokenizer; calls `tokenCallback` zero, one or several times.
    func accept(
        token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
}

/// What the C callback of a wrapper needs: the wrapper, why it tokenizes, and where its own tokens go.
private struct WrapperContext {
    let wrapper: any FTS5WrapperTokenizer
    let tokenization: FTS5Tokenization
    let context: UnsafeMutableRawPointer?
    let tokenCallback: FTS5TokenCallback
    /// The first non-OK code returned by the outer callback, returned as is.
    var callbackCode: Int32 = 0
}

/// Stops the wrapped tokenizer after the outer callback returned an error.
private struct CallbackFailed: Error { let code: Int32 }

extension FTS5WrapperTokenizer {
    /// Runs the wrapped tokenizer and hands each token to `accept(token:flags:for:tokenCallback:)`.
    public func tokenize(
        context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization, pText: UnsafePointer<CChar>?,
        nText: Int32, tokenCallback: FTS5TokenCallback
    ) -> Int32 {
        var wrapperContext = WrapperContext(
            wrapper: self, tokenization: tokenization, context: context, tokenCallback: tokenCallback)
        return withUnsafeMutablePointer(to: &wrapperContext) { pointer in
            let code = wrappedTokenizer.tokenize(
                context: UnsafeMutableRawPointer(pointer), tokenization: tokenization, pText: pText, nText: nText,
                tokenCallback: { rawContext, flags, pToken, nToken, iStart, iEnd in
                    guard let rawContext, let pToken, nToken >= 0 else { return 0 }
                    let wrapperContext = rawContext.assumingMemoryBound(to: WrapperContext.self)
                    let token = pToken.withMemoryRebound(to: UInt8.self, capacity: Int(nToken)) {
                        String(decoding: UnsafeBufferPointer(start: $0, count: Int(nToken)), as: UTF8.self)
                    }
                    let outer = wrapperContext.pointee
                    do {
                        try outer.wrapper.accept(
                            token: token, flags: FTS5TokenFlags(rawValue: flags), for: outer.tokenization
                        ) { newToken, newFlags in
                            var newToken = newToken
                            let code = newToken.withUTF8 { bytes in
                                bytes.withMemoryRebound(to: CChar.self) {
                                    outer.tokenCallback(
                                        outer.context, newFlags.rawValue, $0.baseAddress, Int32($0.count), iStart, iEnd)
                                }
                            }
                            if code != 0 { throw CallbackFailed(code: code) }
                        }
                        return 0
                    } catch let failure as CallbackFailed {
                        wrapperContext.pointee.callbackCode = failure.code
                        return failure.code
                    } catch {
                        return 1  // SQLITE_ERROR
                    }
                })
            return pointer.pointee.callbackCode != 0 ? pointer.pointee.callbackCode : code
        }
    }
}
