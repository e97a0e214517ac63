import Foundation
import TestSupport
import Testing

@testable import SubCore

/// Bitmap tracks made from known text (libass renders, libavcodec's dvdsub encoder or our PGS writer encodes),
/// read back by OCR and compared character by character.
@Suite struct BitmapTrackRecognizerTests {
    static let languages = ["eng", "chi_sim", "chi_tra", "jpn", "kor"]

    /// The goal at 1080p: 98% of English characters, 95% of CJK ones.
    static func goal(_ language: String, height: Int) -> Double {
        height >= 1080 ? (language == "eng" ? 0.98 : 0.95) : 0.85
    }

    /// Recognizes a VobSub sample of `language` at `height` lines (tagged with the track's language, no
    /// `--ocr-lang`), and returns the track with the texts it was made from.
    static func recognizeVobSub(
        _ language: String, height: Int, jobs: Int = 2
    ) throws -> (track: RecognizedTrack, texts: [String]) {
        let directory = try TestFiles.temporaryDirectory("ocr-vobsub")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = try #require(OCRSamples.lines[language])
        let title = language == "chi_tra" ? "繁體中文" : nil
        let path = try OCRSamples.vobSub(
            sample.texts, font: sample.font, language: OCRSamples.tag(language), title: title,
            width: height * 16 / 9 / 2 * 2, height: height, in: directory)
        let media = try MediaFile(path: path)
        let stream = try #require(media.subtitleStreams.first)
        #expect(stream.codec == "dvd_subtitle")
        let track = try BitmapTrackRecognizer(file: media, options: OCROptions(jobs: jobs)).recognize(stream)
        return (track, sample.texts)
    }

    @Test(arguments: languages, [1080, 480])
    func vobSubIsReadInTheTracksLanguage(language: String, height: Int) throws {
        let (track, texts) = try Self.recognizeVobSub(language, height: height)
        #expect(track.language.code == language)
        #expect(track.problems.isEmpty)
        #expect(track.events.count == texts.count)
        let recognized = track.events.map(\.text).joined()
        let accuracy = OCRSamples.accuracy(recognized, texts.joined())
        print("OCR accuracy VobSub \(height)p \(language): \(String(format: "%.1f", accuracy * 100))%")
        #expect(accuracy >= Self.goal(language, height: height), "\(language) \(height)p: \(recognized)")
        // Times kept (the dvdsub encoder stores the end in 1/90000 s ticks of 1024: within 20 ms).
        for (index, event) in track.events.enumerated() {
            #expect(event.start == 1000 + index * 2000)
            #expect(abs(event.end - (2500 + index * 2000)) <= 20)
            #expect(event.confidence > 50)
            #expect(event.position == nil)
        }
    }

    @Test(arguments: ["eng", "jpn"])
    func pgsIsReadAtTheEventsTimes(language: String) throws {
        let directory = try TestFiles.temporaryDirectory("ocr-pgs")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = try #require(OCRSamples.lines[language])
        let path = try OCRSamples.pgs(sample.texts, font: sample.font, in: directory)
        let media = try MediaFile(path: path)
        let stream = try #require(media.subtitleStreams.first)
        #expect(stream.codec == "hdmv_pgs_subtitle")
        let track = try BitmapTrackRecognizer(
            file: media, options: OCROptions(language: OCRLanguage(language), jobs: 2)
        ).recognize(stream)
        #expect(track.frameWidth == 1920 && track.frameHeight == 1080)
        #expect(track.events.map(\.start) == [1000, 3000])
        #expect(track.events.map(\.end) == [2500, 4500])
        let accuracy = OCRSamples.accuracy(track.events.map(\.text).joined(), sample.texts.joined())
        print("OCR accuracy PGS 1080p \(language): \(String(format: "%.1f", accuracy * 100))%")
        #expect(accuracy >= Self.goal(language, height: 1080))
    }

    @Test func oneThreadAndTwoGiveTheSameText() throws {
        let (one, _) = try Self.recognizeVobSub("eng", height: 480, jobs: 1)
        let (two, _) = try Self.recognizeVobSub("eng", height: 480, jobs: 2)
        #expect(one.events == two.events)
    }

    @Test func anEventAtTheTopKeepsItsPosition() throws {
        let directory = try TestFiles.temporaryDirectory("ocr-top")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = [
            BitmapSubtitleSample.Line(text: "Bottom line", start: 1000, end: 2000),
            BitmapSubtitleSample.Line(text: "Top line", start: 3000, end: 4000, top: true),
        ]
        let events = try BitmapSubtitleSample.events(lines, width: 720, height: 480, fontFamily: "Noto Sans")
        let data = try BitmapSubtitleSample.vobSubMatroska(events, width: 720, height: 480, language: "eng")
        let url = directory.appendingPathComponent("top.mkv")
        try data.write(to: url)
        let media = try MediaFile(path: url.path)
        let track = try BitmapTrackRecognizer(file: media, options: OCROptions()).recognize(media.subtitleStreams[0])
        #expect(track.events.map(\.text) == ["Bottom line", "Top line"])
        #expect(track.events[0].position == nil)
        let position = try #require(track.events[1].position)
        #expect(abs(position.x - 360) < 8)
        #expect(position.y < 60)
        let srt = String(decoding: track.subtitleData(format: .srt), as: UTF8.self)
        #expect(srt.contains("00:00:03,000 --> ") && srt.contains("{\\an8}Top line\n"))
        let ass = String(decoding: track.subtitleData(format: .ass), as: UTF8.self)
        #expect(ass.contains("PlayResX: 720\nPlayResY: 480\n"))
        // The dvdsub encoder keeps the end in 1024/90000 s ticks: 2.000 s comes back as 1.99.
        #expect(ass.contains("Dialogue: 0,0:00:01.00,0:00:01.99,Default,,0,0,0,,Bottom line\n"))
        #expect(ass.contains(",Default,,0,0,0,,{\\an8\\pos(\(position.x),\(position.y))}Top line\n"))
    }

    @Test func aMissingLanguagePackNamesTheDebianPackage() throws {
        let directory = try TestFiles.temporaryDirectory("ocr-missing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try OCRSamples.vobSub(
            ["Hello"], font: "Noto Sans", language: "eng", width: 720, height: 480, in: directory)
        let media = try MediaFile(path: path)
        let recognizer = BitmapTrackRecognizer(file: media, options: OCROptions(language: OCRLanguage("fra")))
        #expect(throws: OCRError.missingLanguage(file: path, track: 1, language: "fra", package: "tesseract-ocr-fra")) {
            try recognizer.recognize(media.subtitleStreams[0])
        }
        #expect(
            OCRError.missingLanguage(file: path, track: 1, language: "fra", package: "tesseract-ocr-fra").description
                == "\(path): track 1: the Tesseract language data 'fra' is not installed (install the Debian package "
                + "tesseract-ocr-fra)")
    }

    @Test func aTrackWithNoEventsIsAnError() throws {
        let directory = try TestFiles.temporaryDirectory("ocr-empty")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("empty.sup")
        try BitmapSubtitleSample.pgsStream([], width: 1920, height: 1080).write(to: url)
        let media = try MediaFile(path: url.path)
        let recognizer = BitmapTrackRecognizer(file: media, options: OCROptions(language: OCRLanguage("eng")))
        #expect(throws: OCRError.noEvents(file: url.path, track: 1)) {
            try recognizer.recognize(media.subtitleStreams[0])
        }
    }

    @Test func aPaletteWithNoContrastIsAnError() throws {
        let directory = try TestFiles.temporaryDirectory("ocr-flat")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The rendered text, its four colours all the same opaque grey: a box with nothing to read in it.
        let rendered = try BitmapSubtitleSample.events(
            OCRSamples.sampleLines(["Flat"]), width: 720, height: 480, fontFamily: "Noto Sans")
        let flat = rendered.map { event -> BitmapEvent in
            var event = event
            event.bitmaps = event.bitmaps.map { bitmap in
                var bitmap = bitmap
                bitmap.palette = [UInt32](repeating: 0xFF80_8080, count: 4)
                return bitmap
            }
            return event
        }
        let url = directory.appendingPathComponent("flat.sup")
        try BitmapSubtitleSample.pgsStream(flat, width: 720, height: 480).write(to: url)
        let media = try MediaFile(path: url.path)
        let recognizer = BitmapTrackRecognizer(file: media, options: OCROptions(language: OCRLanguage("eng")))
        #expect(throws: OCRError.noContrast(file: url.path, track: 1)) {
            try recognizer.recognize(media.subtitleStreams[0])
        }
    }

    @Test func aDamagedBitmapPacketIsReportedWithItsTime() throws {
        let directory = try TestFiles.temporaryDirectory("ocr-damaged")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = try #require(OCRSamples.lines["eng"])
        let path = try OCRSamples.pgs(sample.texts, font: sample.font, in: directory)
        // The first object's width made 0xFFxx: libavcodec refuses the bitmap.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 0
        while offset + 13 <= bytes.count {
            let size = Int(bytes[offset + 11]) << 8 | Int(bytes[offset + 12])
            if bytes[offset + 10] == 0x15 {
                bytes[offset + 13 + 7] = 0xFF
                break
            }
            offset += 13 + size
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let media = try MediaFile(path: path)
        let track = try BitmapTrackRecognizer(file: media, options: OCROptions(language: OCRLanguage("eng")))
            .recognize(media.subtitleStreams[0])
        #expect(track.problems.count == 1)
        #expect(track.problems.first?.time == 1.0)
        #expect(track.problems.first?.reason.hasPrefix("damaged bitmap packet: Bitmap dimensions (") == true)
        #expect(track.events.map(\.text) == ["Where were you last night?"])
    }

    @Test func aTextTrackIsRefused() throws {
        let media = try MediaFile(path: MediaFixtures.mkv)
        let stream = try #require(media.subtitleStreams.first)
        #expect(throws: OCRError.notBitmap(file: MediaFixtures.mkv, track: 1, codec: stream.codec)) {
            try BitmapTrackRecognizer(file: media, options: OCROptions()).recognize(stream)
        }
    }
}

/// Vertical Japanese: each character on its own line, one column, as vertical subtitles are drawn.
@Suite struct VerticalOCRTests {
    @Test func aVerticalJapaneseColumnIsReadAsVertical() throws {
        let directory = try TestFiles.temporaryDirectory("ocr-vertical")
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "明日駅で会いましょう"
        let column = text.map(String.init).joined(separator: "\n")
        let path = try OCRSamples.vobSub(
            [column], font: "Noto Sans CJK JP", language: "jpn", width: 1920, height: 1080, in: directory)
        // The picture is taken for a vertical column (so jpn_vert reads it, in Tesseract's vertical block mode).
        let events = try BitmapSubtitleSample.events(
            OCRSamples.sampleLines([column]), width: 1920, height: 1080, fontFamily: "Noto Sans CJK JP")
        let bitmap = try #require(events.first?.bitmaps.first)
        guard case .ready(_, .vertical) = try BitmapPreparation.prepare(bitmap, mayBeVertical: true) else {
            Issue.record("the column was not taken for vertical text")
            return
        }
        let media = try MediaFile(path: path)
        let track = try BitmapTrackRecognizer(file: media, options: OCROptions()).recognize(media.subtitleStreams[0])
        let recognized = try #require(track.events.first?.text)
        let accuracy = OCRSamples.accuracy(recognized, text)
        print("OCR accuracy vertical 1080p jpn: \(String(format: "%.1f", accuracy * 100))% [\(recognized)]")
        #expect(accuracy >= 0.9)
    }
}

extension BitmapTrackRecognizerTests {
    @Test func dvbIsReadToo() throws {
        let directory = try TestFiles.temporaryDirectory("ocr-dvb")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = try #require(OCRSamples.lines["eng"])
        let events = try BitmapSubtitleSample.events(
            OCRSamples.sampleLines(sample.texts), width: 720, height: 576, fontFamily: sample.font)
        let url = directory.appendingPathComponent("dvb.mkv")
        try BitmapSubtitleSample.dvbMatroska(events, width: 720, height: 576, language: "eng").write(to: url)
        let media = try MediaFile(path: url.path)
        let stream = try #require(media.subtitleStreams.first)
        #expect(stream.codec == "dvb_subtitle")
        let track = try BitmapTrackRecognizer(file: media, options: OCROptions()).recognize(stream)
        #expect(track.events.map(\.start) == [1000, 3000])
        let accuracy = OCRSamples.accuracy(track.events.map(\.text).joined(), sample.texts.joined())
        print("OCR accuracy DVB 576p eng: \(String(format: "%.1f", accuracy * 100))%")
        #expect(accuracy >= 0.98)
    }
}
