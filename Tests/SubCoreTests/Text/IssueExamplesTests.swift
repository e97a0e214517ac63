import SubCore
import Testing

/// The files the encoding issue was found with. Each is decoded to its own text or refused, never misread; those
/// long enough to tell are decoded.
@Suite struct IssueExamplesTests {
    private func srt(_ sentence: String, _ encoding: String) throws -> (text: [UInt8], bytes: [UInt8]) {
        let text = Array("1\r\n00:00:01,000 --> 00:00:02,000\r\n\(sentence)\r\n".utf8)
        let bytes = try TextDecoder.encode(text, as: TextEncoding(iconvName: encoding), byteOrderMark: false, file: "t")
        return (text, bytes)
    }

    @Test(arguments: [
        ("WINDOWS-1252", "À bientôt, très cher ami. Où êtes-vous déjà ?"),
        ("WINDOWS-1251", "Привет, как дела? Увидимся завтра у вокзала."),
        ("WINDOWS-1253", "Καλημέρα σας. Θα τα πούμε αύριο στον σταθμό."),
        ("WINDOWS-1254", "Günaydın, nasılsın? Yarın istasyonda buluşalım."),
        ("WINDOWS-1255", "שלום, מה שלומך? ניפגש מחר בבוקר ליד התחנה הישנה."),
        ("WINDOWS-1257", "Ačiū, iki pasimatymo rytoj prie stoties. Šiandien labai šalta, užsidėk kepurę."),
        ("WINDOWS-1250", "Dziękuję, do zobaczenia jutro na dworcu głównym."),
        ("CP874", "สวัสดีครับ พรุ่งนี้เจอกันที่สถานีรถไฟนะ"),
        ("CP950", "我們明天見。下雨了，記得帶傘出門。"),
        ("CP932", "今日はいい天気ですね。また明日会いましょう。"),
    ])
    func decoded(encoding: String, sentence: String) throws {
        let (text, bytes) = try srt(sentence, encoding)
        #expect(try TextDecoder.decode(bytes, file: "t.srt").utf8 == text)
    }

    /// Too short to tell: refused with the two readings named.
    @Test(arguments: [
        ("GBK", "你好世界", "t.srt: ambiguous encoding (GB18030 or EUC-JP?)"),
        ("WINDOWS-1250", "Ąą Ćć Ęę Łł", "t.srt: ambiguous encoding (EUC-KR or EUC-JP?)"),
    ])
    func refused(encoding: String, sentence: String, message: String) throws {
        let (_, bytes) = try srt(sentence, encoding)
        #expect(throws: TextDecodingError.self) { try TextDecoder.decode(bytes, file: "t.srt") }
        do {
            _ = try TextDecoder.decode(bytes, file: "t.srt")
        } catch {
            #expect(error.description == message)
        }
    }
}
