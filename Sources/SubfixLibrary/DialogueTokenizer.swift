import Foundation
import SubDB

/// subfix's FTS5 tokenizer, named `subfix`: ``DialogueSegmenter``'s tokens (one per Han character, kana and
/// Hangul syllable; folded words for other scripts) with the byte offsets of the original text, so that
/// `highlight()` and `snippet()` mark exactly the matched characters.
///
///     try db.add(tokenizer: DialogueTokenizer.self)
///     try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(text, tokenize='subfix fold')")
///
/// Arguments: `fold` folds Traditional Chinese to Simplified (電視 finds 电视). The argument is stored in the
/// table's `tokenize` option, so documents and queries are always folded the same way.
///
/// In documents, two CJK characters separated by anything but a CJK character or a word (punctuation, spaces,
/// line breaks) get a boundary token between them, so that the phrase `你好` matches only text where 你 is
/// directly followed by 好, never `你，好`: a CJK query matches exactly the lines that contain it.
public final class DialogueTokenizer: FTS5CustomTokenizer {
    /// `subfix`.
    public static let name = "subfix"

    /// The segmenter, folding or not.
    public let segmenter: DialogueSegmenter

    /// The token that separates CJK characters that are not adjacent in the text (never produced by a query).
    static let boundary: UInt8 = 0x01

    /// A tokenizer; `arguments` may be `["fold"]`. Throws `DialogueTokenizerError` for anything else.
    public init(db: Database, arguments: [String]) throws {
        segmenter = try DialogueTokenizer.segmenter(arguments: arguments)
    }

    /// A tokenizer outside of any database, for tests and tools.
    public init(foldsChinese: Bool = false) {
        segmenter = DialogueSegmenter(foldsChinese: foldsChinese)
    }

    /// The segmenter `arguments` ask for.
    static func segmenter(arguments: [String]) throws(DialogueTokenizerError) -> DialogueSegmenter {
        var folds = false
        for argument in arguments {
            guard argument.lowercased() == "fold" else { throw .unknownArgument(argument) }
            folds = true
        }
        return DialogueSegmenter(foldsChinese: folds)
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
        let marksBoundaries = !tokenization.contains(.query)
        return pText.withMemoryRebound(to: UInt8.self, capacity: Int(nText)) { bytes in
            let text = UnsafeBufferPointer(start: bytes, count: Int(nText))
            var previousEnd = -1
            var previousIsCJK = false
            do {
                try segmenter.segmentMarkingIdeographs(text) { token, range, isCJK in
                    if marksBoundaries {
                        if isCJK, previousIsCJK, range.lowerBound > previousEnd {
                            var boundary = DialogueTokenizer.boundary
                            let code = withUnsafePointer(to: &boundary) { pointer in
                                pointer.withMemoryRebound(to: CChar.self, capacity: 1) {
                                    tokenCallback(context, 0, $0, 1, Int32(previousEnd), Int32(range.lowerBound))
                                }
                            }
                            if code != 0 { throw Stop(code: code) }
                        }
                        previousIsCJK = isCJK
                        previousEnd = range.upperBound
                    }
                    let code = token.withMemoryRebound(to: CChar.self) {
                        tokenCallback(
                            context, 0, $0.baseAddress, Int32($0.count), Int32(range.lowerBound),
                            Int32(range.upperBound))
                    }
                    if code != 0 { throw Stop(code: code) }
                }
                return 0
            } catch let stop as Stop {
                return stop.code
            } catch {
                return 1  // SQLITE_ERROR
            }
        }
    }
}

/// A `tokenize` option that `DialogueTokenizer` does not understand.
public enum DialogueTokenizerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An argument other than `fold`.
    case unknownArgument(String)

    public var description: String {
        switch self {
        case .unknownArgument(let argument): return "unknown subfix tokenizer argument '\(argument)' (expected 'fold')"
        }
    }
}
