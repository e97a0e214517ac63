import SubCore
import Testing

@Suite struct TextDecoderTests {
    /// Each legacy encoding is detected and decoded; the bytes written by hand come from the encoding tables.
    @Test(arguments: [
        // GBK: "简体中文字幕" and a `\` trail byte (乗 = 0x81 0x5C) inside an override-looking line.
        ("GB18030", [0xBC, 0xF2, 0xCC, 0xE5, 0xD6, 0xD0, 0xCE, 0xC4, 0xD7, 0xD6, 0xC4, 0xBB] as [UInt8], "简体中文字幕"),
        // GB18030-only: U+20BB7 𠮷 is the four-byte sequence 0x95 0x34 0xB2 0x35.
        ("GB18030", [0xD6, 0xD0, 0xCE, 0xC4, 0x95, 0x34, 0xB2, 0x35, 0xD7, 0xD6], "中文𠮷字"),
        // Big5: "繁體中文" and 許 (0xB3 0x5C, a `\` trail byte).
        ("CP950", [0xC1, 0x63, 0xC5, 0xE9, 0xA4, 0xA4, 0xA4, 0xE5, 0xB3, 0x5C, 0xA6, 0x68], "繁體中文許多"),
        // Shift_JIS: "日本語の表示" with 表 = 0x95 0x5C.
        ("CP932", [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x82, 0xCC, 0x95, 0x5C, 0x8E, 0xA6], "日本語の表示"),
    ])
    func detectsLegacyEncodings(expected: String, text: [UInt8], decoded: String) throws {
        let line = utf8("1\n00:00:01,000 --> 00:00:02,000\n") + text + utf8("\n")
        let hint: EncodingHint? =
            expected == "CP950"
            ? EncodingHint(label: "zh-Hant")
            : expected == "CP932" ? EncodingHint(label: "ja") : EncodingHint(label: "zh-Hans")
        let result = try TextDecoder.decode(line, file: "a.srt", hint: hint)
        #expect(result.encoding.name == expected)
        #expect(String(decoding: result.utf8, as: UTF8.self) == "1\n00:00:01,000 --> 00:00:02,000\n\(decoded)\n")
        #expect(!result.hasByteOrderMark)
        // Writing it back in its own encoding gives the same bytes.
        #expect(try TextDecoder.encode(result.utf8, as: result.encoding, byteOrderMark: false, file: "a.srt") == line)
    }

    /// Longer texts are told apart by libuchardet alone, without a hint.
    @Test(arguments: [
        (TextEncoding.shiftJIS, "明日の朝、駅の前で待っています。表示される文字を確認します。ひらがなとカタカナ。"),
        (.eucJP, "明日の朝、駅の前で待っています。表示される文字を確認します。ひらがなとカタカナ。"),
        (.eucKR, "한국어 자막 파일입니다. 잘 보이나요? 글자가 모두 나오는지 확인합니다."),
        (.gb18030, "晚上的车站只剩下我们两个人。雨停了，你还要等吗？这是简体中文的字幕文件。"),
        (.big5, "繁體中文字幕，下一站是臺北車站。許多人成功了，宛如奇蹟一般的夜晚。"),
    ])
    func detectsWithoutHint(encoding: TextEncoding, text: String) throws {
        let source = utf8("1\r\n00:00:01,000 --> 00:00:03,000\r\n<font face=\"MS Gothic\">\(text)</font>\r\n")
        let bytes = try TextDecoder.encode(source, as: encoding, byteOrderMark: false, file: "t.srt")
        #expect(bytes != source)
        let decoded = try TextDecoder.decode(bytes, file: "t.srt")
        #expect(decoded.encoding == encoding)
        #expect(decoded.utf8 == source)
    }

    @Test func unrepresentableText() {
        #expect(throws: TextDecodingError(file: "t.srt", cause: .unrepresentable(encoding: "CP950", offset: 3))) {
            try TextDecoder.encode(utf8("abc😀"), as: .big5, byteOrderMark: false, file: "t.srt")
        }
    }

    @Test func samplesAreDetectedWithoutHints() throws {
        #expect(try TextDecoder.decode(sampleBytes("gbk.srt"), file: "gbk.srt").encoding == .gb18030)
        #expect(try TextDecoder.decode(sampleBytes("big5.srt"), file: "big5.srt").encoding == .big5)
        let utf16 = try TextDecoder.decode(sampleBytes("utf16le-bom.srt"), file: "utf16le-bom.srt")
        #expect(utf16.encoding == .utf16LE)
        #expect(utf16.hasByteOrderMark)
        #expect(utf16.utf8.starts(with: utf8("1\r\n00:00:00,500")))
    }

    @Test(arguments: [
        ([0xFF, 0xFE, 0x41, 0x00, 0x2D, 0x4E] as [UInt8], "UTF-16LE"),
        ([0xFE, 0xFF, 0x00, 0x41, 0x4E, 0x2D], "UTF-16BE"),
        ([0xFF, 0xFE, 0x00, 0x00, 0x41, 0x00, 0x00, 0x00, 0x2D, 0x4E, 0x00, 0x00], "UTF-32LE"),
        ([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00, 0x41, 0x00, 0x00, 0x4E, 0x2D], "UTF-32BE"),
        ([0xEF, 0xBB, 0xBF, 0x41, 0xE4, 0xB8, 0xAD], "UTF-8"),
    ])
    func byteOrderMarks(bytes: [UInt8], name: String) throws {
        let result = try TextDecoder.decode(bytes, file: "a.srt")
        #expect(result.encoding.name == name)
        #expect(result.hasByteOrderMark)
        #expect(result.utf8 == utf8("A中"))
        #expect(try TextDecoder.encode(result.utf8, as: result.encoding, byteOrderMark: true, file: "a.srt") == bytes)
    }

    @Test(arguments: [
        ([] as [UInt8], "a.ass: empty file (0 bytes), not a subtitle"),
        ([0x5B, 0x53, 0x00, 0x01, 0x02, 0xFF], "a.ass: binary data, not text (NUL byte at offset 2)"),
        ([0xFF, 0xFE, 0x41, 0x00, 0x42], "a.ass: truncated UTF-16LE text: incomplete character at byte offset 4"),
        // An unpaired high surrogate (U+D800) followed by 'A'.
        ([0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00], "a.ass: invalid UTF-16LE text at byte offset 2"),
        ([0xEF, 0xBB, 0xBF, 0x41, 0xC3, 0x28], "a.ass: invalid UTF-8 text at byte offset 4"),
        ([0xEF, 0xBB, 0xBF, 0x41, 0xE4, 0xB8], "a.ass: truncated UTF-8 text: incomplete character at byte offset 4"),
        // Bytes no candidate decodes without control characters.
        (
            [0x41, 0x80, 0x81, 0x1B, 0x02, 0x8D, 0x90],
            "a.ass: not UTF-8 (invalid byte at offset 1) and no known encoding decodes it cleanly"
        ),
    ])
    func badInputs(bytes: [UInt8], message: String) {
        #expect(throws: TextDecodingError.self) { try TextDecoder.decode(bytes, file: "a.ass") }
        do {
            _ = try TextDecoder.decode(bytes, file: "a.ass")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func hintBreaksTies() throws {
        // "中文" in GBK is D6 D0 CE C4; the same bytes are valid Big5 (other characters).
        let bytes: [UInt8] = [0xD6, 0xD0, 0xCE, 0xC4, 0x0A]
        #expect(try TextDecoder.decode(bytes, file: "a", hint: EncodingHint(label: "gbk")).utf8 == utf8("中文\n"))
        let big5 = try TextDecoder.decode(bytes, file: "a", hint: EncodingHint(label: "big5"))
        #expect(big5.encoding == .big5)
        #expect(big5.utf8 != utf8("中文\n"))
    }

    /// An exact encoding decides for files that are not UTF-8: UTF-16 without a byte order mark (NUL bytes and
    /// all), or GBK bytes that would otherwise be weighed.
    @Test func exactHints() throws {
        let utf16: [UInt8] = [0x41, 0x00, 0x2D, 0x4E, 0x0A, 0x00]
        #expect(throws: TextDecodingError(file: "a", cause: .binary(offset: 1))) {
            try TextDecoder.decode(utf16, file: "a")
        }
        let decoded = try TextDecoder.decode(utf16, file: "a", hint: .exact(.utf16LE))
        #expect(decoded.utf8 == utf8("A中\n"))
        #expect(!decoded.hasByteOrderMark)
        // Bytes invalid in the encoding given fail the file at the first bad byte.
        #expect(throws: TextDecodingError(file: "a", cause: .invalid(encoding: "GBK", offset: 1))) {
            try TextDecoder.decode([0x41, 0xFF, 0x42], file: "a", hint: .exact(.gbk))
        }
        // A valid UTF-8 file stays UTF-8 whatever legacy encoding the hint names.
        #expect(try TextDecoder.decode(utf8("中文"), file: "a", hint: .exact(.gbk)).encoding == .utf8)
    }

    @Test func labels() {
        #expect(EncodingHint(label: "zh-Hans") == .language(.simplifiedChinese))
        #expect(EncodingHint(label: "zh_TW") == .language(.traditionalChinese))
        #expect(EncodingHint(label: "ko") == .language(.korean))
        #expect(EncodingHint(label: "GB2312") == .exact(.gbk))
        #expect(EncodingHint(label: "gb18030") == .exact(.gb18030))
        #expect(EncodingHint(label: "sjis") == .exact(.shiftJIS))
        #expect(EncodingHint(label: "cp1251") == .exact(.windows(1251)))
        #expect(EncodingHint(label: "ISO-8859-2") == .exact(.iso8859(2)))
        #expect(EncodingHint(label: "koi8-r") == .exact(.koi8R))
        #expect(EncodingHint(label: "iso-8859-12") == nil)
        #expect(EncodingHint(label: "klingon") == nil)
    }

    @Test func utf8Validation() {
        #expect(TextDecoder.firstInvalidUTF8(utf8("plain ascii and 中文 and 𠮷")) == nil)
        #expect(TextDecoder.firstInvalidUTF8([0x41, 0xC0, 0x80]) == 1)  // overlong
        #expect(TextDecoder.firstInvalidUTF8([0x41, 0x42, 0xED, 0xA0, 0x80]) == 2)  // surrogate
        #expect(TextDecoder.firstInvalidUTF8([0xF4, 0x90, 0x80, 0x80]) == 0)  // above U+10FFFF
    }
}
