import Foundation
import Testing

@testable import SubCore

/// `SubtitleInput(bytes:name:)`: a subtitle held in memory (a fix not yet written) read as a file is.
@Suite struct SubtitleInputBytesTests {
    @Test func readsSRTBytesInAnotherEncodingAsTheFileWouldBe() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "1\n00:00:01,000 --> 00:00:02,000\n你好\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let input = try SubtitleInput(bytes: Data(bytes), name: "memory.srt")
        #expect(input.name == "memory.srt")
        #expect(input.assText.hasSuffix("Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,你好\n"))
        #expect(input.attachments.isEmpty)
    }

    @Test func keepsAnASSScriptAsItIs() throws {
        let script = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Start, End, Text\n"
        #expect(try SubtitleInput(bytes: Data(script.utf8), name: "a.ass").assText == script)
    }

    @Test(
        arguments: [
            ([0x78, 0x00, 0x79], "mediaInput"),
            (Array("hello world".utf8), "not a subtitle file (expected ASS/SSA, SRT or WebVTT text)"),
            (Array("1\n00:00:01,000 --> nonsense\nx\n".utf8), "memory.srt:2:18: malformed timestamp"),
        ] as [([UInt8], String)])
    func refusesWhatIsNotSubtitleText(_ bytes: [UInt8], _ expected: String) {
        do {
            _ = try SubtitleInput(bytes: Data(bytes), name: "memory.srt")
            Issue.record("read \(bytes) as a subtitle")
        } catch .mediaInput(let file) {
            #expect(expected == "mediaInput" && file == "memory.srt")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }
}
