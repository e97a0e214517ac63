import Foundation
import SubCore

// ocr-bench generate FOLDER    renders known lines per language (eng, chi_sim, chi_tra, jpn, kor) at 1080 and 480
//                              lines into VobSub Matroska files <language>-<height>.mkv (libass + libavcodec's
//                              dvdsub encoder), the lines into <language>-<height>.txt, and each event's picture,
//                              prepared as subfix prepares it, into pgm/<language>-<height>-<n>.pgm for the
//                              tesseract CLI
// ocr-bench long FILE COUNT   a 480-line English VobSub track of COUNT events (the sentences in turn, 2 s apart),
//                              for the peak-memory check over a long track
// ocr-bench run FOLDER JOBS    reads every .mkv with `--jobs JOBS` and prints, per file, the events, the character
//                              accuracy (1 - edit distance / length) and the time; then `events N seconds S`

let samples: [(language: String, tag: String, font: String, lines: [String])] = [
    (
        "eng", "eng", "Noto Sans",
        [
            "The quick brown fox jumps over the lazy dog.", "Where were you last night?",
            "I told you, I was at home all evening.", "Don't worry, we'll find a way out of this.",
            "It's raining, take an umbrella with you.", "Meet me at the station tomorrow at eight.",
        ]
    ),
    (
        "chi_sim", "chi", "Noto Sans CJK SC",
        [
            "我们明天早上八点在车站见面。", "这件事情你不要告诉别人。", "下雨了，记得带伞出门。",
            "别担心，我们一定能找到办法的。", "昨天晚上你去哪里了？", "我一直都在家里看书。",
        ]
    ),
    (
        "chi_tra", "chi", "Noto Sans CJK TC",
        [
            "我們明天早上八點在車站見面。", "這件事情你不要告訴別人。", "下雨了，記得帶傘出門。",
            "別擔心，我們一定能找到辦法的。", "昨天晚上你去哪裡了？", "我一直都在家裡看書。",
        ]
    ),
    (
        "jpn", "jpn", "Noto Sans CJK JP",
        [
            "明日の朝八時に駅で会いましょう。", "そんなことは誰にも言わないで。", "雨が降ってきたから、傘を持っていこう。",
            "心配しないで、きっと何とかなるよ。", "昨日の夜はどこにいたの？", "ずっと家で本を読んでいました。",
        ]
    ),
    (
        "kor", "kor", "Noto Sans CJK KR",
        [
            "내일 아침 여덟 시에 역에서 만나요.", "이 일은 아무에게도 말하지 마세요.", "비가 오니까 우산을 챙기세요.",
            "걱정하지 마, 방법을 찾을 거야.", "어젯밤에 어디에 있었어요?", "저는 계속 집에서 책을 읽었어요.",
        ]
    ),
]

/// 1 − edit distance / length over characters, spaces left out.
func accuracy(_ recognized: String, _ expected: String) -> Double {
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

func generate(_ folder: URL) throws {
    try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("pgm"), withIntermediateDirectories: true)
    for sample in samples {
        for height in [1080, 480] {
            let width = height == 1080 ? 1920 : 720
            let lines = sample.lines.enumerated().map {
                BitmapSubtitleSample.Line(text: $1, start: 1000 + $0 * 2000, end: 2500 + $0 * 2000)
            }
            let events = try BitmapSubtitleSample.events(lines, width: width, height: height, fontFamily: sample.font)
            let name = "\(sample.language)-\(height)"
            // Traditional Chinese is told from Simplified by the track's title, as on real discs.
            let title = sample.language == "chi_tra" ? "繁體中文" : nil
            try BitmapSubtitleSample.vobSubMatroska(
                events, width: width, height: height, language: sample.tag, title: title
            ).write(to: folder.appendingPathComponent(name + ".mkv"))
            try Data((sample.lines.joined(separator: "\n") + "\n").utf8)
                .write(to: folder.appendingPathComponent(name + ".txt"))
            for (index, event) in events.enumerated() {
                guard let bitmap = event.bitmaps.first,
                    let pgm = try BitmapPreparation.portableGreyMap(bitmap, mayBeVertical: false)
                else { continue }
                try pgm.write(to: folder.appendingPathComponent("pgm/\(name)-\(index).pgm"))
            }
        }
    }
}

func run(_ folder: URL, jobs: Int) throws {
    var totalEvents = 0
    var totalSeconds = 0.0
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mkv") }
        .sorted()
    for file in files {
        let path = folder.appendingPathComponent(file).path
        let expected = try String(contentsOfFile: String(path.dropLast(4)) + ".txt", encoding: .utf8)
            .split(separator: "\n").joined()
        let started = Date()
        let media = try MediaFile(path: path)
        let track = try BitmapTrackRecognizer(file: media, options: OCROptions(jobs: jobs))
            .recognize(media.subtitleStreams[0])
        let seconds = Date().timeIntervalSince(started)
        totalEvents += track.events.count
        totalSeconds += seconds
        let score = accuracy(track.events.map(\.text).joined(), expected)
        print(
            "\(file.dropLast(4)) events \(track.events.count) accuracy \(String(format: "%.1f", score * 100))% "
                + "seconds \(String(format: "%.3f", seconds))")
    }
    print("events \(totalEvents) seconds \(String(format: "%.3f", totalSeconds))")
}

let arguments = CommandLine.arguments
do {
    switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
    case ("generate", 3): try generate(URL(fileURLWithPath: arguments[2]))
    case ("long", 4):
        let english = samples[0]
        let lines = (0..<(Int(arguments[3]) ?? 100)).map {
            BitmapSubtitleSample.Line(
                text: english.lines[$0 % english.lines.count], start: 1000 + $0 * 2000, end: 2500 + $0 * 2000)
        }
        // Rendered once per sentence: the events repeat the same pictures at later times.
        let pictures = try BitmapSubtitleSample.events(
            Array(lines.prefix(english.lines.count)), width: 720, height: 480, fontFamily: english.font)
        let events = lines.enumerated().map { index, line in
            var event = pictures[index % pictures.count]
            event.start = line.start
            event.end = line.end
            return event
        }
        try BitmapSubtitleSample.vobSubMatroska(events, width: 720, height: 480, language: "eng")
            .write(to: URL(fileURLWithPath: arguments[2]))
    case ("run", 4): try run(URL(fileURLWithPath: arguments[2]), jobs: Int(arguments[3]) ?? 1)
    default:
        FileHandle.standardError.write(
            Data("usage: ocr-bench generate FOLDER | long FILE COUNT | run FOLDER JOBS\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("ocr-bench: \(error)\n".utf8))
    exit(1)
}
