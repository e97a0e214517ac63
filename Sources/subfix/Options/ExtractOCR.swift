import Foundation
import SubCore
import SubfixLibrary

extension OptionKey {
    static let ocr = OptionKey("ocr")
    static let ocrLang = OptionKey("ocr-lang")
    static let ocrMinConfidence = OptionKey("ocr-min-confidence")
}

/// `extract --ocr [--ocr-lang LANG] [--ocr-min-confidence N] [--jobs N]`: the bitmap tracks among those named are
/// read by Tesseract (`BitmapTrackRecognizer`) and written as SRT or ASS, named as text tracks are; the text tracks
/// named with them are extracted as usual.
struct OCRRequest: Equatable {
    var options: OCROptions
    /// Events below this confidence are still written, and reported.
    var minimumConfidence: Int

    /// The option rows `extract` shows.
    static let rows: [OptionSpec] = [
        .flag(.ocr, "Read bitmap tracks (PGS, VobSub, DVB) with Tesseract OCR and write them as text."),
        .value(
            .ocrLang, "LANG", "OCR language instead of the track's tag: eng, chi_sim, chi_tra, jpn, kor, zh-Hant..."),
        .value(.ocrMinConfidence, "N", "Report events Tesseract is less sure of than N (0-100, default 70)."),
        .value(.jobs, "N", "With --ocr, events recognized in parallel (default: the number of cores)."),
    ]

    /// nil without `--ocr`; throws when an OCR option is given without it or has a bad value.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> OCRRequest? {
        guard arguments.has(.ocr) else {
            for key in [OptionKey.ocrLang, .ocrMinConfidence, .jobs] where arguments.has(key) {
                throw .needsOption(key.name, requires: OptionKey.ocr.name)
            }
            return nil
        }
        var language: OCRLanguage?
        if let text = arguments.value(.ocrLang) {
            guard let parsed = OCRLanguage(text) else {
                throw .invalidValue(
                    option: OptionKey.ocrLang.name, value: text,
                    expected: "a Tesseract language code (eng, chi_sim, chi_tra, jpn, kor) or a tag such as zh-Hant")
            }
            language = parsed
        }
        let jobs = try arguments.integer(.jobs, in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let minimum = try arguments.integer(.ocrMinConfidence, in: 0...100) ?? 70
        return OCRRequest(options: OCROptions(language: language, jobs: jobs), minimumConfidence: minimum)
    }
}

/// The OCR half of `subfix extract`.
enum ExtractOCR {
    /// The bitmap streams among those `request` names (every one for `--all`) and the selectors left for the text
    /// path. A selector that names no track is left to the text path, which reports it.
    static func partition(
        _ request: ExtractRequest, media: MediaFile
    ) -> (bitmaps: [MediaStream], selectors: [TrackIndex.Selector]) {
        if request.all { return (media.subtitleStreams.filter { $0.subtitleEncoding == .bitmap }, []) }
        var bitmaps: [MediaStream] = []
        var rest: [TrackIndex.Selector] = []
        for selector in request.selectors {
            if let stream = try? media.trackIndex.stream(for: selector), stream.subtitleEncoding == .bitmap {
                if !bitmaps.contains(where: { $0.index == stream.index }) { bitmaps.append(stream) }
            } else {
                rest.append(selector)
            }
        }
        return (bitmaps.sorted { $0.index < $1.index }, rest)
    }

    /// Recognizes `streams` and writes each as a sidecar; returns the exit status and the job rows. A track that
    /// cannot be read (missing language pack, no events, no contrast) is one error line and exit 1.
    static func extract(
        _ streams: [MediaStream], of media: MediaFile, _ request: ExtractRequest, _ ocr: OCRRequest,
        _ arguments: ParsedArguments, _ io: CommandIO, fixer: TrackFixer?
    ) throws -> (ExitStatus, [JobFileRecord]) {
        var status = ExitStatus.success
        var files: [JobFileRecord] = []
        let path = media.path
        let directory = request.outDirectory ?? URL(fileURLWithPath: path).deletingLastPathComponent()
        let base = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let names = SidecarNamer(naming: request.naming, base: base, streams: media.subtitleStreams)
        let recognizer = BitmapTrackRecognizer(file: media, options: ocr.options)
        for stream in streams {
            let recognized: RecognizedTrack
            do {
                recognized = try recognizer.recognize(stream)
            } catch let error as OCRError {
                files.append(.failed(path, error, io: io))
                status = .someFailed
                continue
            }
            let format: ExtractionFormat = request.format == .ass ? .ass : .srt
            let extracted = recognized.extractedTrack(format: format)
            let (tracks, fixes) = try fixer?.fix([extracted], names: names) ?? ([extracted], [:])
            let written = try SubtitleTrackWriter.write(tracks, names: names, to: directory)
            let summary = Summary(recognized, minimum: ocr.minimumConfidence)
            for item in written {
                if !arguments.has(.quiet) {
                    report(
                        item, summary: summary, fixed: fixes[stream.index], file: path, json: arguments.has(.json),
                        io: io)
                }
                files.append(
                    .file(
                        path, output: item.url.relativePath, status: fixes[stream.index] == nil ? .extracted : .fixed,
                        counts: [
                            "events": summary.events, "lowConfidence": summary.lowConfidence.count,
                            "empty": summary.empty.count,
                        ]))
            }
            if warn(about: recognized, summary, file: path, io: io) { status = .someFailed }
        }
        return (status, files)
    }

    /// What one recognized track amounts to.
    struct Summary {
        var events: Int
        var lowConfidence: [RecognizedEvent]
        var empty: [RecognizedEvent]
        var meanConfidence: Int
        var minimum: Int
        var language: String

        init(_ track: RecognizedTrack, minimum: Int) {
            events = track.events.count
            lowConfidence = track.lowConfidence(below: minimum)
            empty = track.emptyEvents
            let confidences = track.textEvents.map(\.confidence)
            meanConfidence = confidences.isEmpty ? 0 : confidences.reduce(0, +) / confidences.count
            self.minimum = minimum
            language = track.language.code
        }

        var text: String {
            "OCR \(language): \(events) events, mean confidence \(meanConfidence), \(lowConfidence.count) below "
                + "\(minimum), \(empty.count) without text"
        }
    }

    /// One warning per low-confidence event, per event without text and per damaged packet; true when some event
    /// was lost (no text, or not decodable), which makes the exit status 1.
    private static func warn(
        about track: RecognizedTrack, _ summary: Summary, file: String, io: CommandIO
    ) -> Bool {
        let name = "track \(track.stream.playerIndex ?? 0)"
        for event in summary.lowConfidence {
            let text = event.text.replacingOccurrences(of: "\n", with: " / ")
            io.warning(
                "\(name): \(MediaTime.format(event.startSeconds)): confidence \(event.confidence) below "
                    + "\(summary.minimum): \(text)", file: file)
        }
        for event in summary.empty {
            let cause = event.lacksContrast ? "its palette has no contrast" : "Tesseract found no text in it"
            io.warning("\(name): \(MediaTime.format(event.startSeconds)): no text recognized (\(cause))", file: file)
        }
        for problem in track.problems { io.warning("\(name): \(problem)", file: file) }
        return !summary.empty.isEmpty || !track.problems.isEmpty
    }

    private static func report(
        _ item: SubtitleTrackWriter.Written, summary: Summary, fixed: FixFileResult?, file: String, json: Bool,
        io: CommandIO
    ) {
        let stream = item.track.stream
        if json {
            io.printJSON(
                .typed(
                    "track",
                    ExtractCommand.trackJSON(item, file: file) + [
                        ("ocr", .bool(true)),
                        ("ocrLanguage", .string(summary.language)),
                        ("events", .int(summary.events)),
                        ("meanConfidence", .int(summary.meanConfidence)),
                        ("lowConfidence", .array(summary.lowConfidence.map(eventJSON))),
                        ("empty", .array(summary.empty.map(eventJSON))),
                    ] + (fixed?.countsJSON ?? [])))
        } else {
            let details = [stream.codec, stream.language].compactMap { $0 }.joined(separator: ", ")
            var line =
                "\(item.url.relativePath): track \(stream.playerIndex ?? 0) = 0:s:\(stream.subtitleIndex ?? 0) "
                + "= stream \(stream.index) (\(details)), \(summary.text)"
            if let fixed { line += ", fixed (\(fixed.countsText))" + fixed.leftAloneText }
            io.printLine(line)
        }
    }

    private static func eventJSON(_ event: RecognizedEvent) -> JSON {
        .object([
            ("start", .string(MediaTime.format(event.startSeconds))), ("confidence", .int(event.confidence)),
            ("text", .string(event.text)),
        ])
    }
}
