import Foundation
import SubDB

/// subfix's FTS5 tokenizer, named `subfix`: ``DialogueSegmenter``'s tokens (one per Han character, kana and
/// Hangul syllable; folded words for other scripts), plus one token for each pair of adjacent CJK characters.
///
///     try db.add(tokenizer: DialogueTokenizer.self)
///     try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(text, tokenize='subfix fold', detail=none)")
///
/// Arguments: `fold` folds Traditional Chinese to Simplified (電視 finds 电视). The argument is stored in the
/// table's `tokenize` option, so documents and queries are always folded the same way.
///
/// The index stores no positions (`detail=none`): a two-character query is one token (the pair), found without
/// intersecting two long lists; longer runs are the conjunction of their pairs, and ``DialogueQuery`` says when the
/// candidates must be checked against the text. A pair is made only of characters directly next to each other
/// (`你好`, never `你，好`), so a CJK query matches exactly the lines that contain it.
///
/// In a query (`FTS5_TOKENIZE_QUERY`), a string of exactly two CJK characters is their pair; anything else is
/// tokenized as in a document, without pairs.
///
/// With the `positions` argument it makes the token stream of a table with positions instead (`detail=full`,
/// phrase queries): no pairs, and a boundary token between CJK characters that are not adjacent, so that the
/// phrase `"你 好"` never matches `你，好`. Tests use it as the reference for phrase matching and highlighting.
public final class DialogueTokenizer: FTS5CustomTokenizer {
    /// `subfix`.
    public static let name = "subfix"

    /// The segmenter, folding or not.
    public let segmenter: DialogueSegmenter
    /// Whether it makes the stream of a table with positions (the `positions` argument) rather than pairs.
    public let keepsPositions: Bool

    /// The token ``DialogueHighlighter`` puts between CJK characters that are not adjacent in the text, so that a
    /// phrase never matches across them (never indexed).
    static let boundary: UInt8 = 0x01

    /// A tokenizer; `arguments` may hold `fold` and `positions`. Throws `DialogueTokenizerError` for anything else.
    public init(db: Database, arguments: [String]) throws {
        var folds = false
        var positions = false
        for argument in arguments {
            switch argument.lowercased() {
            case "fold": folds = true
            case "positions": positions = true
            default: throw DialogueTokenizerError.unknownArgument(argument)
            }
        }
        segmenter = DialogueSegmenter(foldsChinese: folds)
        keepsPositions = positions
    }

    /// A tokenizer outside of any database, for tests and tools.
    public init(foldsChinese: Bool = false, keepsPositions: Bool = false) {
        segmenter = DialogueSegmenter(foldsChinese: foldsChinese)
        self.keepsPositions = keepsPositions
    }

    /// The descriptor of a table's `tokenize` option.
    public static func descriptor(foldsChinese: Bool) -> FTS5TokenizerDescriptor {
        tokenizerDescriptor(arguments: foldsChinese ? ["fold"] : [])
    }

    /// Stops the segmenter when FTS5's callback fails.
    private struct Stop: Error { let code: Int32 }

    /// Tokenizes through the segmenter's allocation-free `segment(_:_:)`.
    public func tokenize(
        context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization, pText: UnsafePointer<CChar>?,
        nText: Int32, tokenCallback: FTS5TokenCallback
    ) -> Int32 {
        guard let pText, nText > 0 else { return 0 }
        return pText.withMemoryRebound(to: UInt8.self, capacity: Int(nText)) { bytes in
            let text = UnsafeBufferPointer(start: bytes, count: Int(nText))
            if keepsPositions {
                return tokenizeWithBoundaries(
                    text, marksBoundaries: !tokenization.contains(.query), context: context,
                    callback: tokenCallback)
            }
            if tokenization.contains(.query), let code = tokenizePair(text, context: context, callback: tokenCallback) {
                return code
            }
            // The previous token when it was CJK: its bytes and where it started.
            var previous: [UInt8] = []
            previous.reserveCapacity(8)
            var previousStart = -1
            var previousEnd = -1
            var pair: [UInt8] = []
            pair.reserveCapacity(16)
            let pairs = !tokenization.contains(.query)
            return Self.code {
                try segmenter.segmentMarkingIdeographs(text) { token, range, isCJK in
                    try Self.emit(token, range, context: context, callback: tokenCallback)
                    guard pairs else { return }
                    guard isCJK else {
                        previousStart = -1
                        return
                    }
                    if previousStart >= 0, range.lowerBound == previousEnd {
                        pair.removeAll(keepingCapacity: true)
                        pair.append(contentsOf: previous)
                        pair.append(contentsOf: token)
                        try pair.withUnsafeBufferPointer {
                            try Self.emit(
                                $0, previousStart..<range.upperBound, context: context, callback: tokenCallback)
                        }
                    }
                    previous.removeAll(keepingCapacity: true)
                    previous.append(contentsOf: token)
                    previousStart = range.lowerBound
                    previousEnd = range.upperBound
                }
            }
        }
    }

    /// The `positions` stream: every token, and in documents a boundary token between CJK characters that are not
    /// adjacent.
    private func tokenizeWithBoundaries(
        _ text: UnsafeBufferPointer<UInt8>, marksBoundaries: Bool, context: UnsafeMutableRawPointer?,
        callback: FTS5TokenCallback
    ) -> Int32 {
        var previousEnd = -1
        var previousIsCJK = false
        return Self.code {
            try segmenter.segmentMarkingIdeographs(text) { token, range, isCJK in
                if marksBoundaries {
                    if isCJK, previousIsCJK, range.lowerBound > previousEnd {
                        var boundary = DialogueTokenizer.boundary
                        try withUnsafePointer(to: &boundary) { pointer in
                            try Self.emit(
                                UnsafeBufferPointer(start: pointer, count: 1), previousEnd..<range.lowerBound,
                                context: context, callback: callback)
                        }
                    }
                    previousIsCJK = isCJK
                    previousEnd = range.upperBound
                }
                try Self.emit(token, range, context: context, callback: callback)
            }
        }
    }

    /// A query string of exactly two CJK characters: emits their pair and returns FTS5's code; nil for anything
    /// else.
    private func tokenizePair(
        _ text: UnsafeBufferPointer<UInt8>, context: UnsafeMutableRawPointer?, callback: FTS5TokenCallback
    ) -> Int32? {
        var tokens: [[UInt8]] = []
        var allCJK = true
        segmenter.segmentMarkingIdeographs(text) { token, _, isCJK in
            tokens.append(Array(token))
            allCJK = allCJK && isCJK
        }
        guard tokens.count == 2, allCJK else { return nil }
        let pair = tokens[0] + tokens[1]
        return Self.code {
            try pair.withUnsafeBufferPointer { try Self.emit($0, 0..<text.count, context: context, callback: callback) }
        }
    }

    /// Runs `body`, which emits tokens: 0 when it finishes, FTS5's code when FTS5 said to stop, else
    /// `SQLITE_ERROR` (1).
    private static func code(_ body: () throws -> Void) -> Int32 {
        do {
            try body()
            return 0
        } catch let stop as Stop {
            return stop.code
        } catch {
            return 1
        }
    }

    /// Hands one token to FTS5; throws ``Stop`` when FTS5 says to stop.
    @inline(__always)
    private static func emit(
        _ token: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, context: UnsafeMutableRawPointer?,
        callback: FTS5TokenCallback
    ) throws(Stop) {
        let code = token.withMemoryRebound(to: CChar.self) {
            callback(context, 0, $0.baseAddress, Int32($0.count), Int32(range.lowerBound), Int32(range.upperBound))
        }
        if code != 0 { throw Stop(code: code) }
    }
}

/// A `tokenize` option that `DialogueTokenizer` does not understand.
public enum DialogueTokenizerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An argument other than `fold` and `positions`.
    case unknownArgument(String)

    public var description: String {
        switch self {
        case .unknownArgument(let argument):
            return "unknown subfix tokenizer argument '\(argument)' (expected 'fold' or 'positions')"
        }
    }
}
