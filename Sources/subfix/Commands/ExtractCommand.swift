import Foundation
import SubCore
import SubfixLibrary

/// `subfix extract FILE [--track N | --subtitle-index N | --stream N | --all] [--format ass|srt|auto]
/// [--attachments DIR] [--out DIR] [--fix [--font NAME] [--policy all|cjk] [--also NAME]...] [--json]`: text subtitle
/// tracks (one demux pass) and font attachments; with `--fix`, each track's fonts rewritten as `subfix fix` does.
enum ExtractCommand {
    static let selectorOptions = TrackOptions.keys + [.all]

    static let spec = CommandSpec(
        name: "extract", summary: "Extract text subtitle tracks (in one pass) and font attachments from a media file.",
        positionals: [PositionalSpec(name: "FILE", minimum: 1, maximum: 1, help: "A media file (MKV, MP4, ...).")],
        options: TrackOptions.rows(repeatable: true) + [
            .flag(.all, "Every text subtitle track."),
            .value(.format, "FORMAT", "ass, srt or auto (ASS for ASS tracks, SRT for the others; default)."),
            .value(.attachments, "DIR", "Also write the attachments (fonts) here; alone, only them."),
            .value(.out, "DIR", "Write tracks here (default: next to FILE)."),
            NamingOption.row,
            .flag(.fix, "Rewrite each track's fonts as 'subfix fix' does before it is written."),
            ReadRateOption.row,
        ]
            + OCRRequest.rows + RewriteOptions.rows(onlyWith: "fix") + [
                .flag(.json, "One JSON object per written file on standard output."),
                .quiet("Print no line per written file: only errors and warnings."), LibraryLocation.option,
            ],
        discussion: """
            Tracks are written as <base>.<subtitleIndex>.<language>.<ext>, byte for byte what
            'ffmpeg -i FILE -map 0:s:N OUT.<ext>' writes; --naming jellyfin or plex names them as those servers
            read sidecars (Movie.ja.default.ass, Movie.zh-Hans.zh.forced.ass, Movie.zh.sdh.srt). Bitmap tracks
            (PGS, VobSub, DVB) are read with Tesseract OCR under --ocr (in the track's language, or --ocr-lang),
            written as SRT (or ASS with --format ass); events below --ocr-min-confidence are written and reported,
            events that give no text are reported with their time and make the exit status 1.
            A truncated file gives what was readable, a warning saying where reading stopped, and exit 1.
            With --fix, each line (and JSON object) also says how many styles, \\fn tags and font tags were
            rewritten; the files are what 'subfix fix' makes of the plain extracted tracks.
            """,
        run: { arguments, io in try run(arguments, io) })

    /// Runs the command and records it in the job log; with `--fix`, each track is fixed before any is written.
    static func run(_ arguments: ParsedArguments, _ io: CommandIO) throws -> ExitStatus {
        let started = Date()
        guard let path = arguments.positionals.first else {
            throw UsageError.missingArgument(command: "extract", name: "FILE")
        }
        let log = try LibraryLocation.jobLog(arguments, io: io)
        let request = try ExtractRequest(arguments)
        let fixer = request.fix ? try TrackFixer(arguments, io: io) : nil
        let status: ExitStatus
        let files: [JobFileRecord]
        do {
            (status, files) = try extract(path, request, arguments, io, fixer: fixer)
        } catch {
            if error is UsageError { throw error }
            JobLog.record(
                "extract", arguments: arguments, started: started, failed: true, counts: ["files": 1],
                files: [.file(path, status: .failed, error: CommandFailure(error).description)],
                to: log, io: io)
            throw error
        }
        let tracks = files.count { $0.status == .extracted || $0.status == .fixed }
        JobLog.record(
            "extract", arguments: arguments, started: started, failed: status != .success,
            counts: ["files": 1, "tracks": tracks, "attachments": files.count { $0.status == .attachment }],
            files: files, to: log, io: io)
        return status
    }

    /// Extracts what `request` asks for from the media file at `path`; returns the exit status and a job row per
    /// file written (or for the failure).
    private static func extract(
        _ path: String, _ request: ExtractRequest, _ arguments: ParsedArguments, _ io: CommandIO, fixer: TrackFixer?
    ) throws -> (ExitStatus, [JobFileRecord]) {
        let media: MediaFile
        let budget = try ReadRateOption.parse(arguments)
        do {
            media = try MediaFile(path: path, readBudget: budget)
        } catch let error as MediaError {
            return (.someFailed, [.failed(path, error, io: io)])
        }
        var status = ExitStatus.success
        var files: [JobFileRecord] = []
        var request = request
        do {
            if let ocr = request.ocr {
                let (bitmaps, selectors) = ExtractOCR.partition(request, media: media)
                if !bitmaps.isEmpty {
                    (status, files) = try ExtractOCR.extract(
                        bitmaps, of: media, request, ocr, arguments, io, fixer: fixer)
                }
                request.selectors = selectors
            }
            let (streams, refusal) = try selectStreams(request, media: media, io: io)
            if let refusal {
                files.append(refusal)
                status = .someFailed
            }
            if !streams.isEmpty {
                let result = try SubtitleExtractor(file: media).extract(tracks: streams, format: request.format)
                let directory = request.outDirectory ?? URL(fileURLWithPath: path).deletingLastPathComponent()
                let base = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                let names = SidecarNamer(naming: request.naming, base: base, streams: media.subtitleStreams)
                let readable = withoutEmptyTracks(result, file: path, io: io)
                if readable.count < result.tracks.count { status = .someFailed }
                let (tracks, fixes) = try fixer?.fix(readable, names: names) ?? (readable, [:])
                let written = try SubtitleTrackWriter.write(tracks, names: names, to: directory)
                for item in written {
                    let fixed = fixes[item.track.stream.index]
                    if !arguments.has(.quiet) {
                        report(item, fixed: fixed, file: path, json: arguments.has(.json), io: io)
                    }
                    files.append(
                        .file(
                            path, output: item.url.relativePath, status: fixed == nil ? .extracted : .fixed,
                            counts: fixed.map { ["styles": $0.styles, "fnTags": $0.fnTags, "fontTags": $0.fontTags] }
                                ?? [:]))
                }
                for track in result.tracks where !track.problems.isEmpty {
                    warnAbout(track, file: path, io: io)
                    status = .someFailed
                }
                if let interruption = result.interruption {
                    io.warning("\(interruption); the tracks hold what was readable", file: path)
                    files.append(.file(path, status: .failed, error: "\(interruption)"))
                    status = .someFailed
                }
            }
            if let attachmentDirectory = request.attachmentDirectory {
                let written = try AttachmentWriter.write(media.attachments, of: media, to: attachmentDirectory)
                if written.isEmpty { io.warning("the file has no attachments", file: path) }
                for item in written {
                    if !arguments.has(.quiet) { report(item, file: path, json: arguments.has(.json), io: io) }
                    files.append(.file(path, output: item.url.relativePath, status: .attachment))
                }
            }
        } catch let error as MediaError {
            return (.someFailed, files + [.failed(error.file ?? path, error, io: io)])
        } catch let failure as CommandFailure {
            return (.someFailed, files + [.failed(path, failure, io: io)])
        }
        return (status, files)
    }

    /// The tracks that hold anything: a track of a truncated file that gave nothing (0 bytes) is reported and not
    /// written, so an empty file never passes for an extracted track.
    static func withoutEmptyTracks(_ result: ExtractionResult, file: String, io: CommandIO) -> [ExtractedTrack] {
        result.tracks.filter { track in
            guard track.data.isEmpty, result.interruption != nil else { return true }
            let name = "track \(track.stream.playerIndex ?? 0)"
            io.warning("\(name): nothing of it was readable; no file written", file: file)
            return false
        }
    }

    /// The tracks the options name; for `--all`, every text track (bitmap tracks are skipped with a warning),
    /// and the failed job row of a file that has none (printed).
    static func selectStreams(
        _ request: ExtractRequest, media: MediaFile, io: CommandIO
    ) throws -> (streams: [MediaStream], refusal: JobFileRecord?) {
        let extractor = SubtitleExtractor(file: media)
        guard request.all else { return (try extractor.streams(for: request.selectors), nil) }
        // With --ocr, the bitmap tracks were read already.
        let subtitles = media.subtitleStreams.filter { request.ocr == nil || $0.subtitleEncoding != .bitmap }
        if subtitles.isEmpty && request.ocr != nil && !media.subtitleStreams.isEmpty { return ([], nil) }
        if subtitles.isEmpty {
            return ([], .failed(media.path, CommandFailure(cause: "the file has no subtitle tracks"), io: io))
        }
        var text: [MediaStream] = []
        for stream in subtitles {
            do {
                _ = try extractor.streams(for: [.stream(stream.index)])
                text.append(stream)
            } catch let error as MediaError {
                io.warning("skipped: " + error.cause, file: media.path)
            }
        }
        if text.isEmpty {
            return ([], .failed(media.path, CommandFailure(cause: "the file has no text subtitle tracks"), io: io))
        }
        return (text, nil)
    }

    /// One warning per dropped subtitle, at most three per track, then a count of the rest.
    private static func warnAbout(_ track: ExtractedTrack, file: String, io: CommandIO) {
        let name = "track \(track.stream.playerIndex ?? 0)"
        for problem in track.problems.prefix(3) { io.warning("\(name): \(problem)", file: file) }
        if track.problems.count > 3 {
            io.warning("\(name): dropped \(track.problems.count - 3) more subtitles the same way", file: file)
        }
    }

    /// The members of a written track's JSON object that every extraction has (`--ocr` adds its own after them).
    static func trackJSON(_ item: SubtitleTrackWriter.Written, file: String) -> [(String, JSON)] {
        let stream = item.track.stream
        return [
            ("file", .string(file)), ("track", .optional(stream.playerIndex)),
            ("subtitleIndex", .optional(stream.subtitleIndex)), ("stream", .int(stream.index)),
            ("codec", .string(stream.codec)), ("language", .optional(stream.language)),
            ("format", .string(item.track.format.rawValue)), ("output", .string(item.url.relativePath)),
        ]
    }

    /// One line (or JSON object) per written track; with `--fix`, what the rewriter did to it.
    private static func report(
        _ item: SubtitleTrackWriter.Written, fixed: FixFileResult?, file: String, json: Bool, io: CommandIO
    ) {
        let stream = item.track.stream
        if json {
            io.printJSON(.typed("track", trackJSON(item, file: file) + (fixed?.countsJSON ?? [])))
        } else {
            let details = [stream.codec, stream.language].compactMap { $0 }.joined(separator: ", ")
            var line =
                "\(item.url.relativePath): track \(stream.playerIndex ?? 0) = 0:s:\(stream.subtitleIndex ?? 0) "
                + "= stream \(stream.index) (\(details))"
            if let fixed {
                line += ", fixed (\(fixed.countsText))"
                line += fixed.leftAloneText
            }
            io.printLine(line)
            for detail in fixed?.detailLines ?? [] { io.printLine(detail) }
        }
    }

    private static func report(_ item: AttachmentWriter.Written, file: String, json: Bool, io: CommandIO) {
        if json {
            io.printJSON(
                .typed(
                    "attachment",
                    [
                        ("file", .string(file)),
                        ("stream", .int(item.attachment.index)),
                        ("filename", .optional(item.attachment.fileName)),
                        ("mimetype", .optional(item.attachment.mimeType)),
                        ("size", .int(item.attachment.size)),
                        ("output", .string(item.url.relativePath)),
                    ]))
        } else {
            io.printLine(
                "\(item.url.relativePath): attachment, stream \(item.attachment.index) (\(item.attachment.size) bytes)")
        }
    }
}

/// The options of `subfix extract`, checked.
struct ExtractRequest {
    var selectors: [TrackIndex.Selector] = []
    var all = false
    var format = ExtractionFormatChoice.auto
    var attachmentDirectory: URL?
    var outDirectory: URL?
    /// `--naming`: how the written tracks are named.
    var naming = SidecarNaming.subfix
    /// `--fix`: rewrite each track's fonts before writing it.
    var fix = false
    /// `--ocr`: read the bitmap tracks with Tesseract.
    var ocr: OCRRequest?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        all = arguments.has(.all)
        if all {
            let given = ExtractCommand.selectorOptions.filter(arguments.has)
            if given.count > 1 { throw .conflictingOptions(given.map(\.name)) }
        }
        selectors = try TrackOptions.selectors(arguments)
        if let choice = try arguments.choice(.format, ExtractionFormatChoice.allCases.map(\.rawValue)),
            let format = ExtractionFormatChoice(rawValue: choice)
        {
            self.format = format
        }
        attachmentDirectory = arguments.value(.attachments).map { URL(fileURLWithPath: $0) }
        outDirectory = arguments.value(.out).map { URL(fileURLWithPath: $0) }
        naming = try NamingOption.parse(arguments)
        fix = arguments.has(.fix)
        ocr = try OCRRequest.parse(arguments)
        if !fix, let option = RewriteOptions.keys.first(where: arguments.has) {
            throw .needsOption(option.name, requires: OptionKey.fix.name)
        }
        if selectors.isEmpty && !all && attachmentDirectory == nil {
            throw .missingOneOf(command: "extract", keys: ExtractCommand.selectorOptions + [.attachments])
        }
    }
}
