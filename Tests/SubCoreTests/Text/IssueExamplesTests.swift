import SubCore
import Testing

/// The files the encoding issue was found with: each is decoded to its own text or refused, never misread.
@Suite struct IssueExamplesTests {
    @Test(arguments: [
        ("GBK", "你好世界"),
        ("WINDOWS-1250", "Ąą Ćć Ęę Łł"),
        ("WINDOWS-1252", "À bientôt, très cher ami."),
        ("WINDOWS-1251", "Привет, как дела?"),
        ("WINDOWS-1253", "Καλημέρα σας."),
        ("WINDOWS-1254", "Günaydın, nasılsın?"),
        ("WINDOWS-1255", "שלום, מה שלומך?"),
        ("WINDOWS-1257", "Labas rytas, kaip sekasi?"),
        ("WINDOWS-1258", "Xin chào các bạn."),
        ("CP874", "สวัสดีครับ"),
        ("CP950", "我們明天見。"),
        ("CP932", "今日はいい天気ですね。"),
    ])
    func shortFiles(encoding: String, sentence: String) throws {
        let text = Array("1\r\n00:00:01,000 --> 00:00:02,000\r\n\(sentence)\r\n".utf8)
        let bytes = try TextDecoder.encode(text, as: TextEncoding(iconvName: encoding), byteOrderMark: false, file: "t")
        do {
            let decoded = try TextDecoder.decode(bytes, file: "t.srt")
            print(encoding, "->", decoded.encoding, decoded.runnerUp ?? "-")
            #expect(decoded.utf8 == text)
        } catch {
            print(encoding, error.message)
        }
    }
}
