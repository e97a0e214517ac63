internal import CUchardet
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Decodes subtitle text in a legacy encoding (GBK, Big5, Shift_JIS, ...): uchardet names the charset, iconv
/// converts it. A stopgap inside Render until SubCore/Text's decoder is merged.
enum LegacyTextDecoder {
    /// The text of `bytes` and the charset it was read as, or nil when uchardet cannot tell or iconv fails.
    static func decode(_ bytes: [UInt8]) -> (text: String, charset: String)? {
        guard let charset = detect(bytes), let text = convert(bytes, from: charset) else { return nil }
        return (text, charset)
    }

    /// uchardet's charset name for `bytes`. The corresponding C calls are `uchardet_new`,
    /// `uchardet_handle_data`, `uchardet_data_end`, `uchardet_get_charset` and `uchardet_delete`.
    static func detect(_ bytes: [UInt8]) -> String? {
        guard let detector = uchardet_new() else { return nil }
        defer { uchardet_delete(detector) }
        let fed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    uchardet_handle_data(detector, $0, buffer.count)
                }
            } ?? 0
        }
        guard fed == 0 else { return nil }
        uchardet_data_end(detector)
        guard let name = uchardet_get_charset(detector), name.pointee != 0 else { return nil }
        let charset = String(cString: name)
        // GB2312 text usually uses GB18030/GBK extensions too; read it with the superset.
        return ["GB2312", "GBK"].contains(charset.uppercased()) ? "GB18030" : charset
    }

    /// `bytes` converted from `charset` to UTF-8 with iconv, or nil on any invalid sequence.
    static func convert(_ bytes: [UInt8], from charset: String) -> String? {
        iconv(bytes, from: charset, to: "UTF-8").map { String(decoding: $0, as: UTF8.self) }
    }

    /// `text` in `charset` (for tests that need legacy-encoded input).
    static func convertFromUTF8(_ text: String, to charset: String) -> [UInt8]? {
        iconv(Array(text.utf8), from: "UTF-8", to: charset)
    }

    /// iconv over the whole buffer; nil when the conversion is unknown or a sequence is invalid.
    private static func iconv(_ bytes: [UInt8], from source: String, to target: String) -> [UInt8]? {
        let converter = iconv_open(target, source)
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = bytes.map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: bytes.count * 4 + 16)
        let ok = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int? in
                var inPointer = inBuffer.baseAddress
                var inLeft = inBuffer.count
                var outPointer = outBuffer.baseAddress
                var outLeft = outBuffer.count
                guard Glibc.iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1, inLeft == 0 else {
                    return nil
                }
                return outBuffer.count - outLeft
            }
        }
        guard let length = ok else { return nil }
        return output.prefix(length).map { UInt8(bitPattern: $0) }
    }
}
