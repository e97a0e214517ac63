extension TextDecoder {
    /// `original` with `edits` (ranges of `decoded.utf8`) applied, in the file's own encoding: every byte outside
    /// the edited ranges is copied from `original` as it was, and only each replacement is encoded. Text that
    /// would not survive a round trip through iconv (CP932's NEC-selected IBM extensions, windows-1258's
    /// decomposed tones) is therefore never touched.
    ///
    /// Throws `.unencodable` when a replacement cannot be written in the encoding, and `.notKept` when the bytes
    /// around an edit cannot be split where the edit starts or ends; the result is checked by decoding it again.
    ///
    ///     let bytes = try TextDecoder.applyKeepingBytes(rewrite.edits, to: original, decoded: text, file: path)
    public static func applyKeepingBytes(
        _ edits: [TextEdit], to original: [UInt8], decoded: DecodedText, file: String
    ) throws(TextDecodingError) -> [UInt8] {
        if edits.isEmpty { return original }
        let encoding = decoded.encoding
        let start = decoded.hasByteOrderMark ? encoding.byteOrderMark.count : 0
        let name = encoding.displayName
        if encoding == .utf8 { return Array(original[..<start]) + TextEdit.apply(edits, to: decoded.utf8) }
        let reader: IconvConverter
        let writer: IconvConverter
        do {
            reader = try IconvConverter(from: encoding, to: .utf8)
            writer = try IconvConverter(from: .utf8, to: encoding)
        } catch {
            throw TextDecodingError(file: file, cause: .unsupported(encoding: encoding.name, message: "\(error)"))
        }
        var output = Array(original[..<start])
        output.reserveCapacity(original.count + 64)
        var text = 0
        var byte = start
        var encodedReplacements: [[UInt8]: [UInt8]] = [:]
        for edit in edits {
            let lower = try locate(
                edit.range.lowerBound, from: (text, byte), in: original, decoded: decoded.utf8, reader: reader,
                file: file)
            let upper = try locate(
                edit.range.upperBound, from: (edit.range.lowerBound, lower), in: original, decoded: decoded.utf8,
                reader: reader, file: file)
            output.append(contentsOf: original[byte..<lower])
            // A rewrite writes the same font name again and again: each is encoded once.
            let encoded: [UInt8]
            if let known = encodedReplacements[edit.replacement] {
                encoded = known
            } else {
                guard let made = try? writer.convert(edit.replacement),
                    (try? reader.convert(made)) == edit.replacement
                else {
                    let replacement = String(decoding: edit.replacement, as: UTF8.self)
                    throw TextDecodingError(file: file, cause: .unencodable(text: replacement, encoding: name))
                }
                encodedReplacements[edit.replacement] = made
                encoded = made
            }
            output.append(contentsOf: encoded)
            text = edit.range.upperBound
            byte = upper
        }
        guard (try? reader.convert(Array(original[byte...]))).map({ $0[...] == decoded.utf8[text...] }) == true
        else { throw TextDecodingError(file: file, cause: .notKept(encoding: name, offset: byte)) }
        output.append(contentsOf: original[byte...])
        // The pieces decode on their own to the right text; the whole must too (a windows-1258 tone mark after
        // a replacement would combine with it).
        guard (try? reader.convert(Array(output[start...]))) == TextEdit.apply(edits, to: decoded.utf8) else {
            throw TextDecodingError(file: file, cause: .notKept(encoding: name, offset: start))
        }
        return output
    }

    /// The offset in `original` where the text offset `target` falls, counting from a known pair of offsets
    /// `from`; the bytes in between must decode on their own to exactly the text in between.
    private static func locate(
        _ target: Int, from: (text: Int, byte: Int), in original: [UInt8], decoded: [UInt8], reader: IconvConverter,
        file: String
    ) throws(TextDecodingError) -> Int {
        let expected = decoded[from.text..<target]
        // No encoding here takes more than four bytes for one UTF-8 byte (UTF-32 for ASCII): a window that size
        // keeps iconv from converting the rest of the file ahead into its buffers, for every edit.
        let needed = target - from.text
        let window = original[from.byte..<min(original.count, from.byte + 4 * needed + 8)]
        let guess = reader.inputLength(of: window, producing: needed).map { from.byte + $0 }
        // iconv stops at a character boundary; a converter that holds one character back overshoots by it.
        var tries: [Int] = []
        if let guess { tries = [guess] + (1...4).flatMap { [guess - $0, guess + $0] } }
        for end in tries where end >= from.byte && end <= original.count {
            if (try? reader.convert(Array(original[from.byte..<end])))?[...] == expected { return end }
        }
        throw TextDecodingError(file: file, cause: .notKept(encoding: reader.source.displayName, offset: from.byte))
    }
}
