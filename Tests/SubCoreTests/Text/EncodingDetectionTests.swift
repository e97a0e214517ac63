import Foundation
import SubCore
import Testing

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
                refused.append("\(file): \(error.message)")
            }
            if isCorrect { correct += 1 }
            if file.cues >= 3 {
                fromThree += 1
                if isCorrect { correctFromThree += 1 }
            }
        }
        if ProcessInfo.processInfo.environment["SUBFIX_DETECTION_REPORT"] != nil {
            print("labelled set: \(files.count) files, \(correct) correct, \(wrong.count) wrong, \(refused.count) refused")
            print("from 3 cues: \(correctFromThree) of \(fromThree)")
            for line in wrong + refused { print("  " + line) }
        }
        #expect(wrong.isEmpty, "wrong decodings: \(wrong.prefix(20))")
        #expect(Double(correctFromThree) >= 0.99 * Double(fromThree), "refused from 3 cues: \(refused.filter { !$0.contains(" 1 cue") && !$0.contains(" 2 cue") }.prefix(20))")
        #expect(Double(correct) >= 0.90 * Double(files.count), "refused: \(refused.count) of \(files.count)")
    }
}
