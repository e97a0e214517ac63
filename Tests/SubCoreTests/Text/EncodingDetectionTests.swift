import Foundation
import Testing

@testable import SubCore

@Suite struct EncodingDetectionTests {
    /// Every file of the labelled set is decoded to its own text or refused; at least 99% are decoded from 3 cues
    /// up and at least 90% overall.
    @Test func labelledSet() throws {
        let files = try LabelledSubtitles.all()
        var wrong: [String] = []
        var refused: [String] = []
        var correctFromThree = 0
        var fromThree = 0
        var correct = 0
        for file in files {
            let isCorrect: Bool
            do {
                let decoded = try TextDecoder.decode(file.bytes, file: "\(file)")
                isCorrect = decoded.utf8 == file.text
                if !isCorrect { wrong.append("\(file): read as \(decoded.encoding)") }
            } catch {
                isCorrect = false
                refused.append("\(file): \(error.cause)")
            }
            if isCorrect { correct += 1 }
            if file.cues >= 3 {
                fromThree += 1
                if isCorrect { correctFromThree += 1 }
            }
        }
        if ProcessInfo.processInfo.environment["SUBFIX_DETECTION_REPORT"] != nil {
            print(
                "labelled set: \(files.count) files, \(correct) correct, \(wrong.count) wrong, \(refused.count) refused"
            )
            print("from 3 cues: \(correctFromThree) of \(fromThree)")
            for line in wrong + refused { print("  " + line) }
        }
        #expect(wrong.isEmpty, "wrong decodings: \(wrong.prefix(20))")
        #expect(
            Double(correctFromThree) >= 0.99 * Double(fromThree),
            "refused from 3 cues: \(refused.filter { !$0.contains(" 1 cue") && !$0.contains(" 2 cue") }.prefix(20))")
        #expect(Double(correct) >= 0.90 * Double(files.count), "refused: \(refused.count) of \(files.count)")
    }
}

@Suite struct EncodingDetectorEdgeTests {
    private let gbkLine = "晚上的车站只剩下我们两个人。雨停了，你还要等吗？"

    private func gbk(_ text: String) throws -> [UInt8] {
        try TextDecoder.encode(Array(text.utf8), as: .gbk, byteOrderMark: false, file: "t")
    }

    /// A large file is weighed on a sample around its first non-UTF-8 byte, far from the start.
    @Test func largeFileIsWeighedWhereTheTextIs() throws {
        let header = String(repeating: "; a comment line of plain ASCII that says nothing at all\n", count: 2500)
        let dialogue = (0..<200).map { "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,\($0) \(gbkLine)\n" }
        let text = header + dialogue.joined()
        let bytes = try gbk(text)
        #expect(bytes.count > 2 * 64 * 1024)
        let decoded = try TextDecoder.decode(bytes, file: "t.ass")
        #expect(decoded.encoding == .gb18030)
        #expect(decoded.utf8 == Array(text.utf8))
    }

    /// A large file with one endless line (or old Mac line ends) is weighed whole, never cut inside a character.
    @Test func largeFileWithoutLineFeeds() throws {
        let text = (0..<2000).map { "\($0) \(gbkLine)\r" }.joined()
        let bytes = try gbk(text)
        #expect(bytes.count > 64 * 1024)
        #expect(EncodingDetector.sampleRange(bytes, around: 2).upperBound < bytes.count)
        #expect(try TextDecoder.decode(bytes, file: "t.srt").utf8 == Array(text.utf8))
        let oneLine = try gbk(String(repeating: gbkLine, count: 2000))
        #expect(EncodingDetector.sampleRange(oneLine, around: 0) == oneLine.indices)
        #expect(try TextDecoder.decode(oneLine, file: "t.srt").encoding == .gb18030)
    }

    /// When the text after the sample does not decode as the sample's winner, the whole file is weighed: never a
    /// reading that only the sample supports.
    @Test func sampleWinnerFailingLaterIsNotTrusted() throws {
        let text = (0..<3000).map { "\($0) \(gbkLine)\n" }.joined()
        // 0xFF is not a GBK byte; windows-1252 and the ISO-8859 parts read anything.
        let good = try gbk(text)
        let bytes = good + [0xFF, 0xFF, 0x0A]
        #expect(bytes.count > 64 * 1024)
        #expect(throws: TextDecodingError(file: "t.srt", cause: .invalid(encoding: "GB18030", offset: good.count))) {
            try TextDecoder.decode(bytes, file: "t.srt")
        }
    }

    /// A damaged or truncated file in a multi-byte encoding is refused as that encoding at the damaged byte, not
    /// read as the single-byte code page that happens to decode every byte.
    @Test(arguments: [
        (TextEncoding.gbk, "GB18030", "晚上的车站只剩下我们两个人。雨停了，你还要等吗？"),
        (.big5, "Big5", "晚上的車站只剩下我們兩個人。雨停了，你還要等嗎？"),
        (.shiftJIS, "Shift_JIS", "明日の朝、駅の前で待っています。どうしてそんなに急いでいるの？"),
        (.eucKR, "EUC-KR", "내일 아침 여덟 시에 역 앞에서 만나요. 오늘은 왜 이렇게 일찍 돌아왔네"),
    ])
    func damagedMultiByteFiles(encoding: TextEncoding, name: String, line: String) throws {
        let text = (1...3).map { "\($0)\r\n00:00:0\($0),000 --> 00:00:0\($0),500\r\n\(line)\r\n\r\n" }.joined()
        let bytes = try TextDecoder.encode(Array(text.utf8), as: encoding, byteOrderMark: false, file: "t")
        #expect(try TextDecoder.decode(bytes, file: "t.srt").utf8 == Array(text.utf8))
        // Cut inside the last character of the last line.
        let end = bytes.count - 4
        let truncated = Array(bytes[..<(end - 1)])
        #expect(throws: TextDecodingError(file: "t.srt", cause: .invalid(encoding: name, offset: end - 2))) {
            try TextDecoder.decode(truncated, file: "t.srt")
        }
    }

    /// A language hint breaks a tie in favour of the reading in that language, and only then.
    @Test func languageHintBreaksTies() throws {
        let bytes = try gbk("1\n00:00:01,000 --> 00:00:02,000\n你好世界\n")
        #expect(throws: TextDecodingError.self) { try TextDecoder.decode(bytes, file: "t") }
        let hinted = try TextDecoder.decode(bytes, file: "t", hint: .language(.simplifiedChinese))
        #expect(hinted.utf8 == Array("1\n00:00:01,000 --> 00:00:02,000\n你好世界\n".utf8))
        // No reading of these bytes is Korean: the tie stays.
        #expect(throws: TextDecodingError.self) {
            try TextDecoder.decode(bytes, file: "t", hint: .language(.korean))
        }
        // A clear winner is not overruled by a hint for another language.
        let clear = try gbk("1\n00:00:01,000 --> 00:00:02,000\n\(gbkLine)\n")
        #expect(try TextDecoder.decode(clear, file: "t", hint: .language(.korean)).encoding == .gb18030)
    }

    /// Random bytes (no NUL) are refused or decoded consistently, never crash detection.
    @Test func randomBytes() throws {
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for _ in 0..<300 {
            let count = Int(next() % 400) + 1
            let bytes = (0..<count).map { _ in UInt8(next() % 255) + 1 }
            guard let decoded = try? TextDecoder.decode(bytes, file: "r") else { continue }
            #expect(try TextDecoder.decode(bytes, as: decoded.encoding, file: "r").utf8 == decoded.utf8)
        }
    }
}
