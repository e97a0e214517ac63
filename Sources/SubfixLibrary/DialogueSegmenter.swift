import Foundation
import SubDB

/// Splits dialogue text into search tokens: one token per Han character, kana and Hangul syllable (the approach
/// of Signal's and WeChat's CJK search), and one token per word of other scripts.
///
/// Tokens are normalized (NFKC, case folded, diacritics removed from words; optionally Traditional Chinese folded
/// to Simplified) and carry the byte range of the original UTF-8 text they came from, so FTS5's `highlight()` and
/// `snippet()` mark exactly the characters that matched.
///
///     DialogueSegmenter().tokens(in: "你好, Café!").map(\.text)   // ["你", "好", "cafe"]
public struct DialogueSegmenter: Sendable {
    /// Whether Traditional Chinese characters are folded to Simplified ones, so that 電視 finds 电视.
    public var foldsChinese: Bool

    /// A segmenter; `foldsChinese` folds Traditional to Simplified Chinese.
    public init(foldsChinese: Bool = false) {
        self.foldsChinese = foldsChinese
    }

    /// A token: its normalized text and the UTF-8 byte range of the original text it stands for.
    public struct Token: Sendable, Equatable {
        /// The normalized text that is indexed.
        public var text: String
        /// The byte offsets in the original UTF-8 text.
        public var range: Range<Int>
    }

    /// The tokens of `text`, for tests and tools; indexing uses the allocation-free `segment(_:_:)`.
    public func tokens(in text: String) -> [Token] {
        var result: [Token] = []
        var utf8 = Array(text.utf8)
        utf8.withUnsafeMutableBufferPointer { buffer in
            segment(UnsafeBufferPointer(buffer)) { token, range in
                result.append(Token(text: String(decoding: token, as: UTF8.self), range: range))
            }
        }
        return result
    }

    /// A token and whether it is a Han character, kana or Hangul syllable (indexed in pairs when adjacent).
    struct MarkedToken: Sendable, Equatable {
        var text: String
        var isCJK: Bool
    }

    /// The tokens of `text` with their kind, for building queries.
    func markedTokens(in text: String) -> [MarkedToken] {
        var result: [MarkedToken] = []
        var utf8 = Array(text.utf8)
        utf8.withUnsafeMutableBufferPointer { buffer in
            segmentMarkingIdeographs(UnsafeBufferPointer(buffer)) { token, _, isCJK in
                result.append(MarkedToken(text: String(decoding: token, as: UTF8.self), isCJK: isCJK))
            }
        }
        return result
    }

    /// Calls `emit` with each token's normalized UTF-8 bytes (valid only during the call) and its byte range
    /// in `text`. Invalid UTF-8 sequences separate tokens.
    public func segment(
        _ text: UnsafeBufferPointer<UInt8>, _ emit: (UnsafeBufferPointer<UInt8>, Range<Int>) throws -> Void
    ) rethrows {
        try segmentMarkingIdeographs(text) { token, range, _ in try emit(token, range) }
    }

    /// ``segment(_:_:)`` that also tells `emit` whether the token is a Han character, kana or Hangul syllable
    /// (the tokenizer's boundary tokens need it, without decoding the text again).
    @inline(__always)
    func segmentMarkingIdeographs(
        _ text: UnsafeBufferPointer<UInt8>, _ emit: (UnsafeBufferPointer<UInt8>, Range<Int>, Bool) throws -> Void
    ) rethrows {
        var word: [UInt8] = []
        word.reserveCapacity(64)
        var wordStart = -1
        var wordIsASCII = true
        var position = 0
        let count = text.count

        func flushWord(end: Int) throws {
            guard wordStart >= 0 else { return }
            if wordIsASCII {
                try word.withUnsafeBufferPointer { try emit($0, wordStart..<end, false) }
            } else {
                let folded = Self.foldWord(String(decoding: word, as: UTF8.self))
                if !folded.isEmpty {
                    var bytes = Array(folded.utf8)
                    try bytes.withUnsafeMutableBufferPointer {
                        try emit(UnsafeBufferPointer($0), wordStart..<end, false)
                    }
                }
            }
            word.removeAll(keepingCapacity: true)
            wordStart = -1
            wordIsASCII = true
        }

        while position < count {
            let byte = text[position]
            // ASCII fast path.
            if byte < 0x80 {
                if Self.isASCIIWordByte(byte) {
                    if wordStart < 0 { wordStart = position }
                    word.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                } else {
                    try flushWord(end: position)
                }
                position += 1
                continue
            }
            guard let (scalar, length) = Self.decodeScalar(text, at: position) else {
                try flushWord(end: position)
                position += 1
                continue
            }
            // A combining mark after an ASCII letter belongs to the word (e + U+0301 is é).
            if wordStart >= 0, Self.isCombining(scalar) {
                wordIsASCII = false
                word.append(contentsOf: UnsafeBufferPointer(rebasing: text[position..<position + length]))
                position += length
                continue
            }
            // A cluster: the scalar and the combining marks that follow it.
            var clusterEnd = position + length
            while clusterEnd < count, let (next, nextLength) = Self.decodeScalar(text, at: clusterEnd),
                Self.isCombining(next)
            {
                clusterEnd += nextLength
            }
            let cluster = UnsafeBufferPointer(rebasing: text[position..<clusterEnd])
            switch Self.kind(of: scalar) {
            case .ideographic:
                try flushWord(end: position)
                if clusterEnd == position + length, !Self.needsNormalization(scalar), !foldsChinese {
                    try emit(cluster, position..<clusterEnd, true)  // the common case: the original bytes as they are
                } else {
                    var normalized = Self.foldIdeographic(String(decoding: cluster, as: UTF8.self))
                    if foldsChinese { normalized = ChineseFolding.simplified(normalized) }
                    var bytes = Array(normalized.utf8)
                    try bytes.withUnsafeMutableBufferPointer {
                        try emit(UnsafeBufferPointer($0), position..<clusterEnd, true)
                    }
                }
            case .word:
                if wordStart < 0 { wordStart = position }
                wordIsASCII = false
                word.append(contentsOf: cluster)
            case .separator:
                try flushWord(end: position)
            }
            position = clusterEnd
        }
        try flushWord(end: count)
    }

    // MARK: - Classification

    enum Kind { case ideographic, word, separator }

    @inline(__always) static func isASCIIWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    @inline(__always)
    static func kind(of scalar: UInt32) -> Kind {
        switch scalar {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x323AF,  // Han
            0x3005, 0x3007, 0x3021...0x3029,  // 々 〇 and Suzhou numerals
            0x3041...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D,  // kana, half-width katakana
            0x1100...0x11FF, 0x3131...0x318E, 0xAC00...0xD7AF:  // Hangul
            return .ideographic
        case 0x3000...0x303F, 0xFF61...0xFF65:  // CJK punctuation
            return .separator
        case 0xFF10...0xFF19, 0xFF21...0xFF3A, 0xFF41...0xFF5A:  // full-width digits and letters
            return .word
        case 0x2000...0x206F, 0xFF01...0xFF60:  // general punctuation, full-width punctuation
            return .separator
        default:
            guard let unicode = Unicode.Scalar(scalar) else { return .separator }
            let properties = unicode.properties
            if properties.isAlphabetic || properties.numericType != nil { return .word }
            return .separator
        }
    }

    /// Compatibility ideographs and half-width katakana change under NFKC.
    static func needsNormalization(_ scalar: UInt32) -> Bool {
        (0xF900...0xFAFF).contains(scalar) || (0xFF66...0xFF9D).contains(scalar)
    }

    @inline(__always)
    static func isCombining(_ scalar: UInt32) -> Bool {
        switch scalar {
        // The common scalars of dialogue, answered without a Unicode property lookup: none is a mark.
        case 0x0000...0x02FF, 0x3000...0x3029, 0x3030...0x3098, 0x309B...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xAC00...0xD7A3, 0xFF00...0xFF9D:
            return false
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
            0x3099...0x309A, 0xFF9E...0xFF9F, 0xFE00...0xFE0F:
            return true
        default:
            guard let unicode = Unicode.Scalar(scalar) else { return false }
            let category = unicode.properties.generalCategory
            return category == .nonspacingMark || category == .enclosingMark || category == .spacingMark
        }
    }

    /// NFKC (half-width kana and their sound marks compose), then any combining mark left is dropped: 你 with
    /// a stray accent is still 你.
    static func foldIdeographic(_ cluster: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in cluster.precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
            .unicodeScalars
        where !isCombining(scalar.value) {
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// NFKC, case folding, diacritics removed.
    static func foldWord(_ word: String) -> String {
        let compatible = word.precomposedStringWithCompatibilityMapping.lowercased()
        var scalars = String.UnicodeScalarView()
        for scalar in compatible.decomposedStringWithCanonicalMapping.unicodeScalars
        where !isCombining(scalar.value) {
            scalars.append(scalar)
        }
        return String(scalars).precomposedStringWithCanonicalMapping
    }

    /// Decodes one UTF-8 scalar at `index`; nil for an invalid or truncated sequence.
    @inline(__always)
    static func decodeScalar(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
        let lead = UInt32(text[index])
        let count = text.count
        if lead < 0x80 { return (lead, 1) }
        func continuation(_ offset: Int) -> UInt32? {
            guard index + offset < count else { return nil }
            let byte = UInt32(text[index + offset])
            return byte & 0xC0 == 0x80 ? byte & 0x3F : nil
        }
        if lead & 0xE0 == 0xC0 {
            guard lead >= 0xC2, let b1 = continuation(1) else { return nil }
            return ((lead & 0x1F) << 6 | b1, 2)
        }
        if lead & 0xF0 == 0xE0 {
            guard let b1 = continuation(1), let b2 = continuation(2) else { return nil }
            let value = (lead & 0x0F) << 12 | b1 << 6 | b2
            guard value >= 0x800, !(0xD800...0xDFFF).contains(value) else { return nil }
            return (value, 3)
        }
        if lead & 0xF8 == 0xF0 {
            guard let b1 = continuation(1), let b2 = continuation(2), let b3 = continuation(3) else { return nil }
            let value = (lead & 0x07) << 18 | b1 << 12 | b2 << 6 | b3
            guard value >= 0x10000, value <= 0x10FFFF else { return nil }
            return (value, 4)
        }
        return nil
    }
}
