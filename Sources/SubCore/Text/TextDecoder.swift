import Glibc

/// Text decoded from a subtitle file: its UTF-8 bytes (without a byte order mark), the encoding it was read
/// from, whether the file started with a byte order mark, and the encoding that came second in detection.
public struct DecodedText: Sendable, Equatable {
    /// The text as UTF-8 bytes, byte order mark removed.
    public var utf8: [UInt8]
    /// The encoding the file was written in.
    public var encoding: TextEncoding
    /// Whether the file started with a byte order mark.
    public var hasByteOrderMark: Bool
    /// When the encoding was detected by weighing candidates: the one that read the bytes second best.
    public var runnerUp: TextEncoding?
    /// What decided the encoding (`subfix fix --verbose` says it).
    public var basis: DecodingBasis

    public init(
        utf8: [UInt8], encoding: TextEncoding, hasByteOrderMark: Bool, runnerUp: TextEncoding? = nil,
        basis: DecodingBasis
    ) {
        self.utf8 = utf8
        self.encoding = encoding
        self.hasByteOrderMark = hasByteOrderMark
        self.runnerUp = runnerUp
        self.basis = basis
    }
}

/// What decided the encoding a file was read as, in `TextDecoder.decode`'s order.
public enum DecodingBasis: String, Sendable, Equatable {
    /// The file starts with a byte order mark.
    case byteOrderMark = "bom"
    /// The bytes are valid UTF-8.
    case validUTF8 = "utf8"
    /// The caller named the encoding (`--encoding-hint gbk`).
    case given = "hint"
    /// Every candidate's reading was scored and this one clearly won.
    case weighed = "weighed"
    /// As `weighed`, with a language hint (`--encoding-hint zh-Hant`) breaking a tie.
    case weighedWithLanguage = "weighed-language"

    /// Why, in words: `read best of every candidate encoding`.
    public var explanation: String {
        switch self {
        case .byteOrderMark: return "byte order mark"
        case .validUTF8: return "valid UTF-8"
        case .given: return "named by --encoding-hint"
        case .weighed: return "read best of every candidate encoding"
        case .weighedWithLanguage: return "read best of every candidate encoding, the language hint breaking ties"
        }
    }
}

/// Finds the encoding of a subtitle file and decodes it to UTF-8, and writes UTF-8 text back in any encoding.
///
/// Detection order: a byte order mark (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE), then strict UTF-8, then an exact
/// encoding the user gives (UTF-16 and UTF-32 before the check for NUL bytes), then `EncodingDetector`, which weighs what each legacy encoding reads the bytes as
/// and refuses the file when no reading clearly wins (a language hint breaks such ties).
///
///     let text = try TextDecoder.decode(bytes, file: "movie.srt", hint: EncodingHint(label: "zh-Hant"))
public enum TextDecoder {
    /// Decodes `bytes`, naming `file` in errors.
    public static func decode(_ bytes: [UInt8], file: String, hint: EncodingHint? = nil)
        throws(TextDecodingError) -> DecodedText
    {
        if bytes.isEmpty { throw TextDecodingError(file: file, cause: .empty) }
        if let (encoding, bomLength) = byteOrderMark(of: bytes) {
            let body = Array(bytes[bomLength...])
            let utf8 = try convertUnicode(body, from: encoding, file: file, offsetBase: bomLength)
            return DecodedText(utf8: utf8, encoding: encoding, hasByteOrderMark: true, basis: .byteOrderMark)
        }
        // UTF-16 and UTF-32 without a byte order mark hold NUL bytes: only the user can say the file is one.
        if case .exact(let encoding) = hint, encoding.isUnicode, encoding != .utf8 {
            return try decode(bytes, as: encoding, file: file)
        }
        if let nul = firstNUL(bytes) { throw TextDecodingError(file: file, cause: .binary(offset: nul)) }
        guard let invalidOffset = firstInvalidUTF8(bytes) else {
            return DecodedText(utf8: bytes, encoding: .utf8, hasByteOrderMark: false, basis: .validUTF8)
        }
        var language: TextLanguage?
        switch hint {
        case .exact(let encoding): return try decode(bytes, as: encoding, file: file)
        case .language(let hinted): language = hinted
        case nil: break
        }
        switch EncodingDetector.detect(bytes, invalidOffset: invalidOffset, hint: language) {
        case .decoded(let encoding, let runnerUp, let utf8):
            return DecodedText(
                utf8: utf8, encoding: encoding, hasByteOrderMark: false, runnerUp: runnerUp,
                basis: language == nil ? .weighed : .weighedWithLanguage)
        case .ambiguous(let first, let second):
            throw TextDecodingError(
                file: file, cause: .ambiguous(first: first.displayName, second: second.displayName))
        case .undetectable:
            throw TextDecodingError(file: file, cause: .undetectable(offset: invalidOffset))
        case .invalid(let encoding, let offset):
            throw TextDecodingError(file: file, cause: .invalid(encoding: encoding.displayName, offset: offset))
        }
    }

    /// Decodes `bytes` as `encoding` without detection (a byte order mark for it is skipped).
    public static func decode(_ bytes: [UInt8], as encoding: TextEncoding, file: String)
        throws(TextDecodingError) -> DecodedText
    {
        let mark = encoding.byteOrderMark
        let hasMark = !mark.isEmpty && bytes.starts(with: mark)
        let body = hasMark ? Array(bytes[mark.count...]) : bytes
        if encoding.isUnicode {
            let utf8 = try convertUnicode(body, from: encoding, file: file, offsetBase: hasMark ? mark.count : 0)
            return DecodedText(utf8: utf8, encoding: encoding, hasByteOrderMark: hasMark, basis: .given)
        }
        let utf8 = try convert(body, from: encoding, to: .utf8, file: file)
        return DecodedText(utf8: utf8, encoding: encoding, hasByteOrderMark: false, basis: .given)
    }

    /// The bytes of `utf8` written in `encoding`, after a byte order mark when `byteOrderMark` is set.
    public static func encode(_ utf8: [UInt8], as encoding: TextEncoding, byteOrderMark: Bool, file: String)
        throws(TextDecodingError) -> [UInt8]
    {
        let mark = byteOrderMark ? encoding.byteOrderMark : []
        if encoding == .utf8 { return mark.isEmpty ? utf8 : mark + utf8 }
        let body: [UInt8]
        do {
            body = try IconvConverter(from: .utf8, to: encoding).convert(utf8)
        } catch {
            switch error {
            case .invalidSequence(let offset), .truncated(let offset):
                throw TextDecodingError(file: file, cause: .unrepresentable(encoding: encoding.name, offset: offset))
            case .unsupported(_, _, let message), .failed(_, let message):
                throw TextDecodingError(file: file, cause: .unsupported(encoding: encoding.name, message: message))
            }
        }
        return mark.isEmpty ? body : mark + body
    }

    /// The offset of the first NUL byte.
    private static func firstNUL(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress, let found = memchr(base, 0, raw.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// The Unicode encoding announced by a byte order mark at the start of `bytes`, and the mark's length.
    static func byteOrderMark(of bytes: [UInt8]) -> (TextEncoding, Int)? {
        for encoding in [TextEncoding.utf32LE, .utf32BE, .utf8, .utf16BE, .utf16LE]
        where bytes.starts(with: encoding.byteOrderMark) {
            return (encoding, encoding.byteOrderMark.count)
        }
        return nil
    }

    private static func convertUnicode(
        _ body: [UInt8], from encoding: TextEncoding, file: String, offsetBase: Int
    ) throws(TextDecodingError) -> [UInt8] {
        if encoding == .utf8 {
            if let offset = firstInvalidUTF8(body) {
                if offset + 4 > body.count, isIncompleteUTF8Tail(body, from: offset) {
                    throw TextDecodingError(
                        file: file, cause: .truncated(encoding: "UTF-8", offset: offsetBase + offset))
                }
                throw TextDecodingError(file: file, cause: .invalid(encoding: "UTF-8", offset: offsetBase + offset))
            }
            return body
        }
        let unit = encoding.name.hasPrefix("UTF-32") ? 4 : 2
        if body.count % unit != 0 {
            let start = body.count - body.count % unit
            throw TextDecodingError(file: file, cause: .truncated(encoding: encoding.name, offset: offsetBase + start))
        }
        return try convert(body, from: encoding, to: .utf8, file: file, offsetBase: offsetBase)
    }

    private static func convert(
        _ bytes: [UInt8], from source: TextEncoding, to target: TextEncoding, file: String, offsetBase: Int = 0
    ) throws(TextDecodingError) -> [UInt8] {
        do {
            return try IconvConverter(from: source, to: target).convert(bytes)
        } catch {
            switch error {
            case .invalidSequence(let offset):
                throw TextDecodingError(file: file, cause: .invalid(encoding: source.name, offset: offsetBase + offset))
            case .truncated(let offset):
                throw TextDecodingError(
                    file: file, cause: .truncated(encoding: source.name, offset: offsetBase + offset))
            case .unsupported(_, _, let message), .failed(_, let message):
                throw TextDecodingError(file: file, cause: .unsupported(encoding: source.name, message: message))
            }
        }
    }

    /// The offset of the first byte that is not part of valid UTF-8 (no overlongs, no surrogates, at most
    /// U+10FFFF), or nil when all of `bytes` is valid UTF-8.
    public static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            let count = buffer.count
            var index = 0
            while index < count {
                // ASCII fast path, 8 bytes at a time.
                while index + 8 <= count {
                    let word = UnsafeRawPointer(buffer.baseAddress.unsafelyUnwrapped + index)
                        .loadUnaligned(as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 != 0 { break }
                    index += 8
                }
                guard index < count else { break }
                let lead = buffer[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                // Fast path for the common three-byte sequences of CJK text (U+1000 to U+CFFF, U+E000 to U+FFFF).
                if lead >= 0xE1, lead <= 0xEF, lead != 0xED, index + 2 < count,
                    buffer[index + 1] & 0xC0 == 0x80, buffer[index + 2] & 0xC0 == 0x80
                {
                    index += 3
                    continue
                }
                let length: Int
                var lower: UInt8 = 0x80
                var upper: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; upper = 0x9F
                case 0xF0: length = 4; lower = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; upper = 0x8F
                default: return index
                }
                if index + length > count { return index }
                let second = buffer[index + 1]
                if second < lower || second > upper { return index }
                var next = index + 2
                while next < index + length {
                    if buffer[next] & 0xC0 != 0x80 { return index }
                    next += 1
                }
                index += length
            }
            return nil
        }
    }

    /// Whether `bytes[offset...]` is the valid start of a UTF-8 sequence that the end of the data cut short.
    private static func isIncompleteUTF8Tail(_ bytes: [UInt8], from offset: Int) -> Bool {
        let lead = bytes[offset]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
        guard length > 0, offset + length > bytes.count else { return false }
        return bytes[(offset + 1)...].allSatisfy { $0 & 0xC0 == 0x80 }
    }
}
