/// Finds the legacy encoding of bytes that are not UTF-8 by weighing the text each candidate decodes to, not the
/// bytes alone: every encoding of `TextEncoding.detectable` (and uchardet's guess) decodes the bytes through
/// iconv; each clean decoding is scored by `TextPlausibility`; the cheapest wins only when it beats every
/// decoding that reads differently by `margin` bits. Otherwise detection refuses rather than guesses.
///
/// Large files are weighed on a sample of about 64 KB starting a little before the first byte that is not
/// UTF-8; the winner then decodes the whole file.
enum EncodingDetector {
    /// What detection decided.
    enum Verdict: Equatable {
        /// `encoding` decodes the bytes to `utf8`; `runnerUp` is the next best reading, if any decoded at all.
        case decoded(encoding: TextEncoding, runnerUp: TextEncoding?, utf8: [UInt8])
        /// Two encodings read the bytes as different texts, and neither is clearly more plausible.
        case ambiguous(TextEncoding, TextEncoding)
        /// No candidate decodes the bytes to plausible text.
        case undetectable
        /// The bytes read best as `encoding` up to `offset`, where they stop being valid in it (a damaged or
        /// truncated file): no other reading is trusted.
        case invalid(TextEncoding, offset: Int)
    }

    /// Bits by which the best reading must beat every other reading of the bytes.
    static let margin: Float = 12
    /// Average bits per non-ASCII character above which even the best reading is not text.
    static let implausible: Float = 15.5
    /// Bits taken off the cost of uchardet's own guess: its byte statistics count as a little evidence.
    static let detectorBonus: Float = 3
    /// The size of the sample weighed for a large file.
    static let sampleSize = 64 * 1024

    private struct Reading {
        var encoding: TextEncoding
        var utf8: [UInt8]
        var cost: Float
        var language: TextLanguage
    }

    /// Weighs `bytes` (not valid UTF-8 from `invalidOffset` on). `hint` breaks ties in favour of readings in its
    /// language. A large file is weighed on a sample; when the sample's winner fails on the whole file (the
    /// sample was not typical), the whole file is weighed instead.
    static func detect(_ bytes: [UInt8], invalidOffset: Int, hint: TextLanguage?) -> Verdict {
        let sample = sampleRange(bytes, around: invalidOffset)
        if sample == bytes.indices { return weigh(bytes, hint: hint) }
        let verdict = weigh(Array(bytes[sample]), hint: hint)
        guard case .decoded(let encoding, let runnerUp, _) = verdict else { return verdict }
        switch IconvConverter.convert(bytes, from: encoding, to: .utf8) {
        case .success(let utf8) where TextPlausibility(utf8) != nil:
            return .decoded(encoding: encoding, runnerUp: runnerUp, utf8: utf8)
        case .failure(.invalidSequence(let offset)), .failure(.truncated(let offset)):
            return .invalid(encoding, offset: offset)
        default:
            return .undetectable
        }
    }

    /// The multi-byte encodings: a damaged file in one of them must not be read as a single-byte code page.
    static let multiByte: Set<TextEncoding> = [.gb18030, .big5, .big5HKSCS, .shiftJIS, .eucJP, .eucKR]

    /// Decodes `bytes` with every candidate and picks the reading that clearly costs the fewest bits. Then each
    /// multi-byte candidate that failed part-way is weighed on the lines before its failure against the choice
    /// (or, without one, against every candidate): if it clearly wins there, the file is that encoding, damaged
    /// (`.invalid`), and the reading that happens to decode every byte is not trusted.
    private static func weigh(_ bytes: [UInt8], hint: TextLanguage?, checkDamage: Bool = true) -> Verdict {
        var failures: [(encoding: TextEncoding, offset: Int)] = []
        let verdict = weigh(bytes, hint: hint, failures: &failures)
        guard checkDamage else { return verdict }
        for failure in failures.sorted(by: { $0.offset > $1.offset }) {
            var end = failure.offset
            while end > 0 && bytes[end - 1] != 0x0A { end -= 1 }
            let prefix = Array(bytes[..<end])
            guard prefix.contains(where: { $0 >= 0x80 }) else { continue }
            if case .decoded(let chosen, _, _) = verdict {
                if let damaged = cost(of: prefix, as: failure.encoding),
                    cost(of: prefix, as: chosen).map({ $0 - damaged >= margin }) ?? true
                {
                    return .invalid(failure.encoding, offset: failure.offset)
                }
            } else if case .decoded(let encoding, _, _) = weigh(prefix, hint: hint, checkDamage: false),
                encoding == failure.encoding
            {
                return .invalid(encoding, offset: failure.offset)
            }
        }
        return verdict
    }

    /// The cost in bits of `bytes` read as `encoding`, nil when they are not valid or not text in it.
    private static func cost(of bytes: [UInt8], as encoding: TextEncoding) -> Float? {
        guard case .success(let utf8) = IconvConverter.convert(bytes, from: encoding, to: .utf8),
            let measure = TextPlausibility(utf8)
        else { return nil }
        return measure.best().cost
    }

    private static func weigh(
        _ bytes: [UInt8], hint: TextLanguage?, failures: inout [(encoding: TextEncoding, offset: Int)]
    ) -> Verdict {
        var candidates: [TextEncoding] = []
        if let detector = try? CharsetDetector(), let charset = detector.detect(bytes[...]),
            let guess = TextEncoding.fromDetector(charset)
        {
            candidates.append(guess)
        }
        let guess = candidates.first
        for encoding in TextEncoding.detectable where !candidates.contains(encoding) { candidates.append(encoding) }

        var readings: [Reading] = []
        var decodings: [[UInt8]] = []
        var cache = TextPlausibility.Cache()
        for encoding in candidates {
            let utf8: [UInt8]
            switch IconvConverter.convert(bytes, from: encoding, to: .utf8) {
            case .success(let text): utf8 = text
            case .failure(.invalidSequence(let offset)), .failure(.truncated(let offset)):
                if multiByte.contains(encoding) { failures.append((encoding, offset)) }
                continue
            case .failure: continue
            }
            guard !decodings.contains(utf8), let measure = TextPlausibility(utf8, cache: &cache) else { continue }
            // The same text read through another encoding says nothing new (windows-1252 and ISO-8859-1).
            decodings.append(utf8)
            let (language, cost) = measure.best()
            if cost / Float(max(1, measure.nonASCII)) > implausible { continue }
            readings.append(
                Reading(
                    encoding: encoding, utf8: utf8, cost: cost - (encoding == guess ? detectorBonus : 0),
                    language: language))
        }
        // Sorting is stable: between equal costs, the candidate order (uchardet, then `detectable`) decides.
        readings.sort { $0.cost < $1.cost }
        guard let best = readings.first else { return .undetectable }
        let contenders = readings.filter { $0.cost - best.cost < margin }
        var winner = best
        if contenders.count > 1 {
            let hinted = contenders.filter { $0.language == hint }
            guard hinted.count == 1, let only = hinted.first else {
                return .ambiguous(best.encoding, contenders[1].encoding)
            }
            winner = only
        }
        let runnerUp = readings.first { $0.encoding != winner.encoding }?.encoding
        return .decoded(encoding: winner.encoding, runnerUp: runnerUp, utf8: winner.utf8)
    }

    /// The whole of `bytes` when small; else about `sampleSize` bytes from the start of a line a little before
    /// `offset`, ending at a line end (a line feed or carriage return never occurs inside a character of these
    /// encodings). The whole of `bytes` too when no line ends where the sample would (one endless line).
    static func sampleRange(_ bytes: [UInt8], around offset: Int) -> Range<Int> {
        if bytes.count <= sampleSize { return bytes.indices }
        func isLineEnd(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
        var start = max(0, offset - sampleSize / 8)
        while start > 0 && !isLineEnd(bytes[start - 1]) { start -= 1 }
        var end = start + sampleSize
        guard end < bytes.count else { return start..<bytes.count }
        while end > start + sampleSize / 2 && !isLineEnd(bytes[end - 1]) { end -= 1 }
        return isLineEnd(bytes[end - 1]) ? start..<end : bytes.indices
    }
}
