import Foundation
import TestSupport

@testable import SubCore

/// Known lines per language, rendered and encoded by `BitmapSubtitleSample`, and character accuracy against them.
enum OCRSamples {
    /// A few lines per language: short enough to keep the tests fast, varied enough to mean something.
    static let lines: [String: (font: String, texts: [String])] = [
        "eng": ("Noto Sans", ["The quick brown fox jumps over the lazy dog.", "Where were you last night?"]),
        "chi_sim": ("Noto Sans CJK SC", ["我们明天早上八点在车站见面。", "这件事情你不要告诉别人。"]),
        "chi_tra": ("Noto Sans CJK TC", ["我們明天早上八點在車站見面。", "這件事情你不要告訴別人。"]),
        "jpn": ("Noto Sans CJK JP", ["明日の朝八時に駅で会いましょう。", "そんなことは誰にも言わないで。"]),
        "kor": ("Noto Sans CJK KR", ["내일 아침 여덟 시에 역에서 만나요.", "이 일은 아무에게도 말하지 마세요."]),
    ]

    /// The ISO 639-2 tag a sample track of `language` carries.
    static func tag(_ language: String) -> String {
        ["eng": "eng", "chi_sim": "chi", "chi_tra": "chi", "jpn": "jpn", "kor": "kor"][language] ?? "und"
    }

    /// `lines`, a second apart, as sample lines.
    static func sampleLines(_ texts: [String]) -> [BitmapSubtitleSample.Line] {
        texts.enumerated().map { BitmapSubtitleSample.Line(text: $1, start: 1000 + $0 * 2000, end: 2500 + $0 * 2000) }
    }

    /// A VobSub Matroska file of `texts` at `width`x`height`, written into `directory`.
    static func vobSub(
        _ texts: [String], font: String, language: String?, title: String? = nil, width: Int, height: Int,
        in directory: URL, name: String = "sample.mkv"
    ) throws -> String {
        let events = try BitmapSubtitleSample.events(sampleLines(texts), width: width, height: height, fontFamily: font)
        let data = try BitmapSubtitleSample.vobSubMatroska(
            events, width: width, height: height, language: language, title: title)
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    /// A PGS `.sup` stream of `texts` at 1080p, written into `directory`.
    static func pgs(_ texts: [String], font: String, in directory: URL, name: String = "sample.sup") throws -> String {
        let events = try BitmapSubtitleSample.events(sampleLines(texts), width: 1920, height: 1080, fontFamily: font)
        let url = directory.appendingPathComponent(name)
        try BitmapSubtitleSample.pgsStream(events, width: 1920, height: 1080).write(to: url)
        return url.path
    }

    /// 1 − (edit distance / length of `expected`), over characters with spaces removed (Tesseract spaces CJK
    /// text as it likes), at least 0.
    static func accuracy(_ recognized: String, _ expected: String) -> Double {
        let got = Array(recognized.filter { !$0.isWhitespace })
        let want = Array(expected.filter { !$0.isWhitespace })
        guard !want.isEmpty else { return got.isEmpty ? 1 : 0 }
        var previous = Array(0...got.count)
        for (row, wanted) in want.enumerated() {
            var current = [row + 1] + [Int](repeating: 0, count: got.count)
            for (column, found) in got.enumerated() {
                current[column + 1] = min(
                    previous[column + 1] + 1, current[column] + 1, previous[column] + (wanted == found ? 0 : 1))
            }
            previous = current
        }
        return max(0, 1 - Double(previous[got.count]) / Double(want.count))
    }
}
