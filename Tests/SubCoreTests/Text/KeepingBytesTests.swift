import SubCore
import Testing

@Suite struct KeepingBytesTests {
    /// `bytes` with every ASCII `needle` replaced by `replacement`.
    private func replacing(_ needle: String, with replacement: String, in bytes: [UInt8]) -> [UInt8] {
        let pattern = Array(needle.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: pattern) {
                output += Array(replacement.utf8)
                index += pattern.count
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    /// The fix of `bytes` (decoded as `decoded`) in its own encoding, every font rewritten to `font`.
    private func fix(_ bytes: [UInt8], decoded: DecodedText, format: SubtitleFormat = .srt, font: String)
        throws -> [UInt8]
    {
        let document = try SubtitleDocument(decoded.utf8, format: format, file: "t")
        let rewrite = FontRewriter(targetFont: font).rewrite(document)
        return try TextDecoder.applyKeepingBytes(rewrite.edits, to: bytes, decoded: decoded, file: "t")
    }

    /// Every file of the labelled set, fixed in its own encoding, differs from its input only inside the font
    /// names. Files detection refuses are read with their encoding given exactly, as `--encoding-hint` does.
    @Test func labelledSetKeepsEveryOtherByte() throws {
        var checked = 0
        for file in try LabelledSubtitles.all() where !file.fonts.isEmpty {
            let encoding = TextEncoding(iconvName: file.encoding.replacingOccurrences(of: "+BOM", with: ""))
            let decoded: DecodedText
            if let detected = try? TextDecoder.decode(file.bytes, file: "t") {
                decoded = detected
            } else {
                decoded = try TextDecoder.decode(file.bytes, file: "t", hint: .exact(encoding))
            }
            #expect(decoded.utf8 == file.text, "\(file)")
            let fixed = try fix(file.bytes, decoded: decoded, font: "Noto Sans CJK SC")
            var expected = file.bytes
            if encoding.isUnicode {
                // The font names are in the file's own Unicode form.
                let bom = file.encoding.hasSuffix("+BOM")
                let text = replacing("face=\"Arial\"", with: "face=\"Noto Sans CJK SC\"", in: file.text)
                let all = replacing(
                    "face=\"MS Gothic\"", with: "face=\"Noto Sans CJK SC\"",
                    in: replacing("face=\"SimHei\"", with: "face=\"Noto Sans CJK SC\"", in: text))
                expected = try TextDecoder.encode(all, as: encoding, byteOrderMark: bom, file: "t")
            } else {
                for face in ["Arial", "SimHei", "MS Gothic"] {
                    expected = replacing("face=\"\(face)\"", with: "face=\"Noto Sans CJK SC\"", in: expected)
                }
            }
            #expect(fixed == expected, "\(file)")
            checked += 1
        }
        #expect(checked > 1000)
    }

    /// CP932 bytes that do not survive a round trip through iconv (`ED 4C`, the NEC-selected IBM extension of
    /// 丨, is written back as `FA 68`) are kept as they were.
    @Test func necSelectedIBMExtensionsAreKept() throws {
        let prefix = Array(
            "[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize\nStyle: Default,".utf8)
        let rest =
            Array(
                ",20\n\n[Events]\nFormat: Layer, Start, End, Style, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,"
                    .utf8)
            + [0x93, 0xFA, 0x96, 0x7B, 0xED, 0x4C, 0x82, 0xCC, 0x95, 0x5C] + Array("\n".utf8)
        let bytes = prefix + Array("MS Gothic".utf8) + rest
        let decoded = try TextDecoder.decode(bytes, file: "t", hint: .exact(.shiftJIS))
        #expect(String(decoding: decoded.utf8, as: UTF8.self).contains("日本丨の表"))
        let fixed = try fix(bytes, decoded: decoded, format: .ass, font: "ＭＳ 明朝")
        let name = try TextDecoder.encode(Array("ＭＳ 明朝".utf8), as: .shiftJIS, byteOrderMark: false, file: "t")
        #expect(fixed == prefix + name + rest)
        // Re-encoding the whole text, as before, would have changed ED 4C.
        #expect(try TextDecoder.encode(decoded.utf8, as: .shiftJIS, byteOrderMark: false, file: "t") != bytes)
    }

    /// windows-1258 holds back a vowel until it sees whether a tone mark follows; font names that start or end
    /// with a vowel are still split at the right byte.
    @Test func windows1258VowelsNextToFontNames() throws {
        let text =
            "[V4+ Styles]\nFormat: Name, Fontname\nStyle: Default,Tahoma\n\n[Events]\nFormat: Layer, Start, End, "
            + "Style, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,{\\fnArial}Xin chào các bạn.{\\fnUbuntu}Ừ\n"
        let bytes = try TextDecoder.encode(Array(text.utf8), as: .windows(1258), byteOrderMark: false, file: "t")
        let decoded = try TextDecoder.decode(bytes, file: "t", hint: .exact(.windows(1258)))
        #expect(decoded.utf8 == Array(text.utf8))
        let fixed = try fix(bytes, decoded: decoded, format: .ass, font: "Noto Sans")
        var expected = bytes
        for name in ["Tahoma", "Arial", "Ubuntu"] {
            expected = replacing(name, with: "Noto Sans", in: expected)
        }
        #expect(fixed == expected)
    }

    /// A font name the file's encoding cannot hold is a one-line error; nothing is half-written.
    @Test func unencodableFontName() throws {
        let text = "1\n00:00:01,000 --> 00:00:02,000\n<font face=\"Arial\">À bientôt, très cher ami.</font>\n"
        let bytes = try TextDecoder.encode(Array(text.utf8), as: .windows(1252), byteOrderMark: false, file: "t")
        let decoded = try TextDecoder.decode(bytes, file: "t.srt", hint: .exact(.windows(1252)))
        #expect(throws: TextDecodingError(file: "t", cause: .unencodable(text: "微软雅黑", encoding: "windows-1252"))) {
            try fix(bytes, decoded: decoded, font: "微软雅黑")
        }
        do {
            _ = try fix(bytes, decoded: decoded, font: "微软雅黑")
        } catch let error as TextDecodingError {
            #expect(
                error.cause
                    == "'微软雅黑' cannot be written in windows-1252, the file's encoding"
            )
        }
    }

    /// Edits that do not fall on the decoded text (hostile or stale edits) are refused, not applied blindly.
    @Test func editsOutsideTheTextAreRefused() throws {
        let bytes: [UInt8] = [0x41, 0xC4, 0xE3, 0x42]  // "A你B" in GBK
        let decoded = try TextDecoder.decode(bytes, file: "t", hint: .exact(.gbk))
        // Offset 2 falls inside 你 (three UTF-8 bytes from offset 1).
        let inside = TextEdit(range: 2..<3, replacement: Array("x".utf8))
        #expect(throws: TextDecodingError.self) {
            try TextDecoder.applyKeepingBytes([inside], to: bytes, decoded: decoded, file: "t")
        }
        let whole = TextEdit(range: 1..<4, replacement: Array("好".utf8))
        #expect(
            try TextDecoder.applyKeepingBytes([whole], to: bytes, decoded: decoded, file: "t") == [
                0x41, 0xBA, 0xC3, 0x42,
            ])
    }
}
