import Foundation
import SubCore
import TestSupport
import Testing

@testable import subfix

/// `subfix extract --ocr` on bitmap tracks made from known text in the test.
@Suite struct ExtractOCRTests {
    static let lines = ["Where were you last night?", "I was at home."]

    /// A Matroska file with one VobSub track (English, 480 lines) of `lines`.
    static func vobSub(in directory: URL, name: String = "movie.mkv") throws -> String {
        let sample = lines.enumerated().map {
            BitmapSubtitleSample.Line(text: $1, start: 1000 + $0 * 2000, end: 2500 + $0 * 2000)
        }
        let events = try BitmapSubtitleSample.events(sample, width: 720, height: 480, fontFamily: "Noto Sans")
        let url = directory.appendingPathComponent(name)
        try BitmapSubtitleSample.vobSubMatroska(events, width: 720, height: 480, language: "eng").write(to: url)
        return url.path
    }

    @Test func aVobSubTrackBecomesAnSRTSidecarNamedAsTextTracksAre() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let movie = try Self.vobSub(in: directory)
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", movie, "--track", "1", "--ocr", "--jobs", "2"], io: io) == .success)
        #expect(output.stderr == "")
        // The confidence is Tesseract's to give: only its place in the line is fixed.
        #expect(
            output.stdout.hasPrefix(
                "\(directory.path)/movie.0.eng.srt: track 1 = 0:s:0 = stream 0 (dvd_subtitle, eng), OCR eng: 2 "
                    + "events, mean confidence "))
        #expect(output.stdout.hasSuffix(", 0 below 70, 0 without text\n"))
        let srt = try String(contentsOf: directory.appendingPathComponent("movie.0.eng.srt"), encoding: .utf8)
        #expect(srt.hasPrefix("1\n00:00:01,000 --> 00:00:02,49"))
        #expect(srt.contains("\nWhere were you last night?\n\n2\n00:00:03,000 --> 00:00:04,49"))
        #expect(srt.hasSuffix("\nI was at home.\n\n"))
        #expect(try MediaCLIFixtures.listing(directory) == ["movie.0.eng.srt", "movie.mkv"])
    }

    @Test func assWithJSONAndLowConfidenceMarked() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let movie = try Self.vobSub(in: directory)
        let (io, output) = CommandIO.capturing()
        // No event is 100% sure: with a minimum of 100 every one is reported, and still written.
        let arguments = [
            "extract", movie, "--all", "--ocr", "--format", "ass", "--json", "--ocr-min-confidence", "100",
        ]
        #expect(SubfixCLI.run(arguments, io: io) == .success)
        let warnings = output.stderr.split(separator: "\n")
        #expect(warnings.count == 2)
        #expect(warnings.first?.hasPrefix("subfix: warning: \(movie): track 1: 0:00:01.000: confidence ") == true)
        #expect(warnings.first?.hasSuffix(" below 100: Where were you last night?") == true)
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["ocr"] as? Bool == true)
        #expect(object["output"] as? String == "\(directory.path)/movie.0.eng.ass")
        #expect((object["lowConfidence"] as? [Any])?.count == 2)
        #expect((object["meanConfidence"] as? Int ?? 0) > 50)
        let ass = try String(contentsOf: directory.appendingPathComponent("movie.0.eng.ass"), encoding: .utf8)
        #expect(ass.contains(",Default,,0,0,0,,Where were you last night?\n"))
    }

    @Test func aMissingLanguagePackIsOneLineAndExitOne() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let movie = try Self.vobSub(in: directory)
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", movie, "--track", "1", "--ocr", "--ocr-lang", "fra"], io: io) == .someFailed)
        #expect(
            output.stderr
                == "subfix: error: \(movie): track 1: the Tesseract language data 'fra' is not installed (install the "
                + "Debian package tesseract-ocr-fra)\n")
        #expect(try MediaCLIFixtures.listing(directory) == ["movie.mkv"])
    }

    @Test func aTrackWithNoEventsIsOneLineAndExitOne() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let pgs = try MediaCLIFixtures.pgsOnlyMKV(in: directory)
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", pgs, "--track", "1", "--ocr", "--ocr-lang", "eng"], io: io) == .someFailed)
        #expect(
            output.stderr
                == "subfix: error: \(pgs): track 1: the track has no subtitle events; nothing to recognize, no file "
                + "written\n")
        #expect(try MediaCLIFixtures.listing(directory) == ["pgs.mkv", "pgs.sup"])
    }

    @Test func ocrOptionsNeedOCR() throws {
        for option in [["--ocr-lang", "eng"], ["--ocr-min-confidence", "50"], ["--jobs", "2"]] {
            let (io, output) = CommandIO.capturing()
            #expect(SubfixCLI.run(["extract", "x.mkv", "--track", "1"] + option, io: io) == .usage)
            #expect(output.stderr.contains(option[0]))
        }
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", "x.mkv", "--track", "1", "--ocr", "--ocr-lang", "x!"], io: io) == .usage)
        #expect(output.stderr.contains("--ocr-lang"))
    }
}

extension ExtractOCRTests {
    /// `--all --ocr` on a file with a text track and a bitmap track: the text track is extracted as always, the
    /// bitmap one recognized, both named by their subtitle index.
    @Test func allWithOCRTakesTextAndBitmapTracks() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let vobSub = try Self.vobSub(in: directory, name: "vobsub.mkv")
        let srt = directory.appendingPathComponent("text.srt")
        try Data("1\n00:00:05,000 --> 00:00:06,000\nA text line\n\n".utf8).write(to: srt)
        let movie = directory.appendingPathComponent("both.mkv").path
        try MediaCLIFixtures.ffmpeg([
            "-i", vobSub, "-i", srt.path, "-map", "0", "-map", "1", "-c", "copy", "-c:s:1", "srt",
            "-metadata:s:s:1", "language=eng", movie,
        ])
        let out = directory.appendingPathComponent("out")
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", movie, "--all", "--ocr", "--out", out.path], io: io) == .success)
        #expect(output.stderr == "")
        #expect(try MediaCLIFixtures.listing(out) == ["both.0.eng.srt", "both.1.eng.srt"])
        let recognized = try String(contentsOf: out.appendingPathComponent("both.0.eng.srt"), encoding: .utf8)
        #expect(recognized.contains("Where were you last night?"))
        let text = try String(contentsOf: out.appendingPathComponent("both.1.eng.srt"), encoding: .utf8)
        #expect(text == "1\n00:00:05,000 --> 00:00:06,000\nA text line\n\n")
    }
}

extension ExtractOCRTests {
    /// A PGS stream of `lines` at 480 lines, with `edit` applied to its bytes, written as `name`.
    static func pgs(in directory: URL, name: String, edit: (inout [UInt8]) -> Void = { _ in }) throws -> String {
        let sample = lines.enumerated().map {
            BitmapSubtitleSample.Line(text: $1, start: 1000 + $0 * 2000, end: 2500 + $0 * 2000)
        }
        let events = try BitmapSubtitleSample.events(sample, width: 720, height: 480, fontFamily: "Noto Sans")
        var bytes = [UInt8](BitmapSubtitleSample.pgsStream(events, width: 720, height: 480))
        edit(&bytes)
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func aDamagedBitmapIsAWarningWithItsTimeAndExitOne() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        // The first object's width made 0xFFxx, which libavcodec refuses.
        let damaged = try Self.pgs(in: directory, name: "damaged.sup") { bytes in
            var offset = 0
            while offset + 13 <= bytes.count {
                if bytes[offset + 10] == 0x15 {
                    bytes[offset + 13 + 7] = 0xFF
                    return
                }
                offset += 13 + (Int(bytes[offset + 11]) << 8 | Int(bytes[offset + 12]))
            }
        }
        let (io, output) = CommandIO.capturing()
        #expect(
            SubfixCLI.run(["extract", damaged, "--track", "1", "--ocr", "--ocr-lang", "eng"], io: io) == .someFailed)
        #expect(
            output.stderr.hasPrefix(
                "subfix: warning: \(damaged): track 1: dropped the subtitle at 0:00:01.000: damaged bitmap packet: "
                    + "Bitmap dimensions ("))
        #expect(output.stderr.split(separator: "\n").count == 1)
        let srt = try String(contentsOf: directory.appendingPathComponent("damaged.0.srt"), encoding: .utf8)
        // The damaged event is left out; the other one is written, at its time.
        #expect(srt.hasPrefix("1\n00:00:03,000 --> 00:00:04,500\n"))
        #expect(srt.hasSuffix("was at home.\n\n"))
    }

    @Test func aFlatPaletteIsOneLineAndExitOne() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        // Every palette entry the same opaque grey (Y 128, alpha 255).
        let flat = try Self.pgs(in: directory, name: "flat.sup") { bytes in
            var offset = 0
            while offset + 13 <= bytes.count {
                let size = Int(bytes[offset + 11]) << 8 | Int(bytes[offset + 12])
                if bytes[offset + 10] == 0x14 {
                    for entry in stride(from: offset + 15, to: offset + 13 + size, by: 5) {
                        bytes.replaceSubrange((entry + 1)...(entry + 4), with: [128, 128, 128, 255])
                    }
                }
                offset += 13 + size
            }
        }
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["extract", flat, "--track", "1", "--ocr", "--ocr-lang", "eng"], io: io) == .someFailed)
        #expect(
            output.stderr
                == "subfix: error: \(flat): track 1: no event's palette has any contrast (text and background are the "
                + "same colour); nothing to recognize, no file written\n")
        #expect(try MediaCLIFixtures.listing(directory) == ["flat.sup"])
    }
}
