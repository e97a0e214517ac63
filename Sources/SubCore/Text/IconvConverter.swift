import Glibc
import Synchronization

/// A conversion between two encodings. The corresponding C calls are `iconv_open`, `iconv` and `iconv_close`.
///
///     let converter = try IconvConverter(from: .gb18030, to: .utf8)
///     let utf8 = try converter.convert(bytes)
///
/// Unchecked `Sendable`: a converter has conversion state and is used by one thread at a time; `pooled` hands
/// each one to a single caller and takes it back afterwards.
final class IconvConverter: @unchecked Sendable {
    /// What stopped a conversion.
    enum Failure: Error, Equatable {
        /// `iconv_open` refused the pair of encodings.
        case unsupported(from: String, to: String, message: String)
        /// A byte sequence invalid in the source encoding, or a character the target cannot hold, at `offset`.
        case invalidSequence(offset: Int)
        /// The input ends inside a multi-byte sequence that starts at `offset`.
        case truncated(offset: Int)
        /// Any other `iconv` failure, with its C message.
        case failed(function: String, message: String)
    }

    private let handle: iconv_t
    let source: TextEncoding
    let target: TextEncoding

    /// Opens a converter. Throws `.unsupported` when iconv does not know either encoding.
    init(from source: TextEncoding, to target: TextEncoding) throws(Failure) {
        let opened = iconv_open(target.name, source.name)
        guard let opened, Int(bitPattern: opened) != -1 else {
            throw .unsupported(from: source.name, to: target.name, message: String(cString: strerror(errno)))
        }
        handle = opened
        self.source = source
        self.target = target
    }

    deinit { iconv_close(handle) }

    /// Converters not in use, by source and target, at most `poolLimit` of each. Opening one costs more than
    /// using it: glibc loads the encoding's module again once the last descriptor using it was closed, and
    /// detection opens some thirty per file.
    private static let pool = Mutex<[String: [IconvConverter]]>([:])
    private static let poolLimit = 8

    /// Runs `body` with a converter from `source` to `target` taken from the pool (or opened), then puts it back.
    static func pooled<Result>(
        from source: TextEncoding, to target: TextEncoding, _ body: (IconvConverter) -> Result
    ) throws(Failure) -> Result {
        let key = source.name + "\u{0}" + target.name
        let converter: IconvConverter
        if let taken = pool.withLock({ $0[key]?.popLast() }) {
            converter = taken
        } else {
            converter = try IconvConverter(from: source, to: target)
        }
        defer {
            pool.withLock { converters in
                if converters[key, default: []].count < poolLimit { converters[key, default: []].append(converter) }
            }
        }
        return body(converter)
    }

    /// Converts all of `input`; the converter is reset first, so it can be reused.
    func convert(_ input: [UInt8]) throws(Failure) -> [UInt8] {
        iconv(handle, nil, nil, nil, nil)
        if input.isEmpty { return [] }
        var output = [UInt8](repeating: 0, count: input.count * 2 + 16)
        var produced = 0
        var failure: Failure?
        input.withUnsafeBufferPointer { inBuffer in
            guard let inBase = inBuffer.baseAddress else { return }
            var inPointer = UnsafeMutablePointer<CChar>(
                mutating: UnsafeRawPointer(inBase).assumingMemoryBound(to: CChar.self))
            var inLeft = inBuffer.count
            var flushed = false
            while true {
                if output.count - produced < 16 {
                    output.append(contentsOf: repeatElement(0, count: output.count))
                }
                let capacity = output.count
                var outLeft = capacity - produced
                let result = output.withUnsafeMutableBufferPointer { outBuffer -> Int in
                    guard let outBase = outBuffer.baseAddress else { return 0 }
                    var outPointer: UnsafeMutablePointer<CChar>? =
                        UnsafeMutableRawPointer(outBase + produced).assumingMemoryBound(to: CChar.self)
                    if inLeft == 0 {
                        return iconv(handle, nil, nil, &outPointer, &outLeft)
                    }
                    var inOptional: UnsafeMutablePointer<CChar>? = inPointer
                    let code = iconv(handle, &inOptional, &inLeft, &outPointer, &outLeft)
                    if let inOptional { inPointer = inOptional }
                    return code
                }
                let error = errno
                produced = capacity - outLeft
                if result != -1 {
                    if inLeft == 0 {
                        if flushed { break }
                        flushed = true
                    }
                    continue
                }
                let offset = inBuffer.count - inLeft
                switch error {
                case E2BIG:
                    output.append(contentsOf: repeatElement(0, count: output.count))
                case EILSEQ:
                    failure = .invalidSequence(offset: offset)
                    return
                case EINVAL:
                    failure = .truncated(offset: offset)
                    return
                default:
                    failure = .failed(function: "iconv", message: String(cString: strerror(error)))
                    return
                }
            }
        }
        if let failure { throw failure }
        output.removeSubrange(produced...)
        return output
    }

    /// `input` converted by a pooled converter from `source` to `target`.
    static func convert(_ input: [UInt8], from source: TextEncoding, to target: TextEncoding) -> Result<
        [UInt8], Failure
    > {
        do throws(Failure) {
            return try pooled(from: source, to: target) { converter -> Result<[UInt8], Failure> in
                do throws(Failure) {
                    return .success(try converter.convert(input))
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            return .failure(error)
        }
    }

    /// How many bytes at the start of `input` convert to exactly `count` output bytes, the converter reset
    /// first: iconv stops where the output buffer is full, at a character boundary. Nil when the input runs out
    /// or fails before `count` bytes came out. A converter that holds a character back (windows-1258 waits for a
    /// combining mark) can overshoot by that character; callers verify the split.
    func inputLength(of input: ArraySlice<UInt8>, producing count: Int) -> Int? {
        iconv(handle, nil, nil, nil, nil)
        if count == 0 { return 0 }
        var output = [UInt8](repeating: 0, count: count)
        return input.withUnsafeBufferPointer { inBuffer -> Int? in
            guard let inBase = inBuffer.baseAddress else { return nil }
            var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(
                mutating: UnsafeRawPointer(inBase).assumingMemoryBound(to: CChar.self))
            var inLeft = inBuffer.count
            var outLeft = count
            output.withUnsafeMutableBufferPointer { outBuffer in
                var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress.map {
                    UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self)
                }
                _ = iconv(handle, &inPointer, &inLeft, &outPointer, &outLeft)
            }
            return outLeft == 0 ? inBuffer.count - inLeft : nil
        }
    }
}

extension IconvConverter.Failure: CustomStringConvertible {
    /// The failure in iconv's words, for messages that quote it.
    var description: String {
        switch self {
        case .unsupported(let from, let to, let message): return "\(from) to \(to): \(message)"
        case .invalidSequence(let offset): return "invalid sequence at byte offset \(offset)"
        case .truncated(let offset): return "incomplete character at byte offset \(offset)"
        case .failed(let function, let message): return "\(function) failed: \(message)"
        }
    }
}
