import Foundation
import Testing

@testable import SubCore

@Suite struct SubtitleInputTests {
    func write(_ bytes: [UInt8], name: String) throws -> (String, URL) {
        let folder = try FontTestSupport.temporaryDirectory()
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return (url.path, folder)
    }

    @Test func convertsSRTCuesWithTagsIntoASSEvents() throws {
        let srt =
            "1\r\n00:00:01,000 --> 00:00:02,500\r\n<font face=\"方正准圆简体\" color=\"#FF8000\">你好</font>\r\n<i>{world}</i> &amp; co\r\n\r\n2\r\n00:01:00,000 --> 00:01:01,000\r\n再见\r\n"
        let (path, folder) = try write(Array(srt.utf8), name: "a.srt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try SubtitleInput(contentsOf: path)
        let events = input.assText.split(separator: "\n").filter { $0.hasPrefix("Dialogue:") }
        #expect(
            events == [
                "Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,{\\fn方正准圆简体\\c&H0080FF&}你好{\\fn\\c}\\N{\\i1}｛world｝{\\i0} & co",
                "Dialogue: 0,0:01:00.00,0:01:01.00,Default,,0,0,0,,再见",
            ])
        #expect(input.assText.contains("Style: Default,Noto Sans CJK SC,64,"))
    }

    @Test func convertsWebVTTCues() throws {
        let vtt = "\u{FEFF}WEBVTT\n\nNOTE a comment\n\nintro\n00:01.000 --> 00:02.000 align:center\n<b>粗体</b>\n"
        let (path, folder) = try write(Array(vtt.utf8), name: "a.vtt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try SubtitleInput(contentsOf: path)
        #expect(input.assText.hasSuffix("Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\b1}粗体{\\b0}\n"))
    }

    @Test func readsUTF16WithBOM() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "1\n00:00:01,000 --> 00:00:02,000\n字幕\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let (path, folder) = try write(bytes, name: "u16.srt")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try SubtitleInput(contentsOf: path).assText.contains(",,字幕\n"))
    }

    @Test func rejectsMalformedTimestampsWithFileLineAndColumn() throws {
        let (path, folder) = try write(Array("1\n00:00:01,000 --> 00:01:02.5x\nhi\n".utf8), name: "bad.srt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: RenderError.self) { try SubtitleInput(contentsOf: path) }
        #expect(
            error
                == .parse(
                    SubtitleParseError(
                        file: path, line: 2, column: 18,
                        message: "malformed timestamp '00:01:02.5x' (expected HH:MM:SS,mmm)"
                    )))
        #expect(error.description == "\(path):2:18: malformed timestamp '00:01:02.5x' (expected HH:MM:SS,mmm)")
    }

    /// GBK and Big5 files (the seeds' extracted SRTs) are detected with uchardet and converted with iconv.
    @Test(arguments: [
        ("GB18030", "方正准圆简体", "今晚的月色真美，我们一起去看看吧。"), ("BIG5", "細明體", "我們明天見，記得帶傘。"),
    ])
    func readsLegacyEncodings(encoding: String, face: String, line: String) throws {
        let utf8 = "1\r\n00:00:01,000 --> 00:00:02,000\r\n<font face=\"\(face)\">\(line)</font>\r\n"
        let bytes = try TextDecoder.encode(
            Array(utf8.utf8), as: TextEncoding(iconvName: encoding), byteOrderMark: false, file: "legacy.srt")
        #expect(String(validating: bytes, as: UTF8.self) == nil)
        let (path, folder) = try write(bytes, name: "legacy.srt")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try SubtitleInput(contentsOf: path).assText.hasSuffix(",,{\\fn\(face)}\(line){\\fn\\c}\n"))
    }

    @Test func rejectsTextInNoKnownEncoding() throws {
        let bytes: [UInt8] =
            Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8) + [0x80, 0x81, 0x1B, 0x02, 0x8D, 0x90, 0x0A]
        let (path, folder) = try write(bytes, name: "garbage.srt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: RenderError.self) { try SubtitleInput(contentsOf: path) }
        #expect(error == .decoding(TextDecodingError(file: path, cause: .undetectable(offset: 32))))
        #expect(
            error.description
                == "\(path): not UTF-8 (invalid byte at offset 32) and no known encoding decodes it cleanly")
    }

    @Test func rejectsMediaMissingFilesAndOtherText() throws {
        let (mkv, folder) = try write([0x1A, 0x45, 0xDF, 0xA3, 0x01, 0x00, 0x00, 0x00], name: "movie.mkv")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: RenderError.mediaInput(file: mkv)) { try SubtitleInput(contentsOf: mkv) }
        #expect(
            RenderError.mediaInput(file: "m.mkv").description
                == "m.mkv: a media file, not subtitle text (its tracks are read with MediaSubtitles)")
        let missing = folder.appendingPathComponent("nope.ass").path
        #expect(throws: RenderError.unreadable(file: missing, cause: "no such file")) {
            try SubtitleInput(contentsOf: missing)
        }
        let (text, _) = try write(Array("hello there\n".utf8), name: "notes.txt")
        #expect(
            throws: RenderError.unreadable(
                file: text, cause: "not a subtitle file (expected ASS/SSA, SRT or WebVTT text)")
        ) { try SubtitleInput(contentsOf: text) }
    }
}
