import Foundation
import SubCore

/// `subfix extract FILE [--track N | --subtitle-index N | --stream N | --all] [--format ass|srt|auto]
/// [--attachments DIR] [--out DIR] [--json]`: text subtitle tracks (one demux pass) and font attachments.
enum ExtractCommand {
    static let selectorOptions = ["track", "subtitle-index", "stream", "all"]

    static let spec = CommandSpec(
        name: "extract", summary: "Extract text subtitle tracks (in one pass) and font attachments from a media file.",
        positionals: [PositionalSpec(name: "FILE", minimum: 1, maximum: 1, help: "A media file (MKV, MP4, ...).")],
        options: [
            .value(
                "track", "N", repeatable: true, "Player track number: 1 is the first subtitle track (0 is \"Disable\")."
            ),
            .value("subtitle-index", "N", repeatable: true, "0-based subtitle index, as in ffmpeg -map 0:s:N."),
            .value("stream", "N", repeatable: true, "Absolute stream index, as in ffmpeg -map 0:N."),
            .flag("all", "Every text subtitle track."),
            .value("format", "FORMAT", "ass, srt or auto (ASS for ASS tracks, SRT for the others; default)."),
            .value("attachments", "DIR", "Also write the attachments (fonts) here; alone, only them."),
            .value("out", "DIR", "Write tracks here (default: next to FILE)."),
            .flag("json", "One JSON object per written file on standard output."),
        ],
        discussion: """
            Tracks are written as <base>.<subtitleIndex>.<language>.<ext>, byte for byte what
            'ffmpeg -i FILE -map 0:s:N OUT.<ext>' writes. Bitmap tracks (PGS, VobSub, DVB) cannot be extracted as
            text. A truncated file gives what was readable, a warning saying where reading stopped, and exit 1.
            """,
        run: { arguments, io in try run(arguments, io) })

    /// Runs the command; `transform` (the rewriter, for `--fix`) sees each track's bytes before they are written.
    static func run(
        _ arguments: ParsedArguments, _ io: CommandIO, transform: SubtitleTrackWriter.Transform? = nil
    ) throws -> ExitStatus {
        let path = arguments.positionals[0]
        let request = try ExtractRequest(arguments)
        let media: MediaFile
        do {
            media = try MediaFile(path: path)
        } catch let error as MediaError {
            io.error(error.description, file: path)
            return .someFailed
        }
        var status = ExitStatus.success
        do {
            let streams = try selectStreams(request, media: media, io: io, status: &status)
            if !streams.isEmpty {
                let result = try SubtitleExtractor(file: media).extract(tracks: streams, format: request.format)
                let directory = request.outDirectory ?? URL(fileURLWithPath: path).deletingLastPathComponent()
                let base = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                let written = try SubtitleTrackWriter.write(
                    result.tracks, base: base, to: directory, transform: transform)
                for item in written { report(item, file: path, json: arguments.has("json"), io: io) }
                if let interruption = result.interruption {
                    io.warning("\(interruption); the tracks hold what was readable", file: path)
                    status = .someFailed
                }
            }
            if let attachmentDirectory = request.attachmentDirectory {
                let written = try AttachmentWriter.write(media.attachments, of: media, to: attachmentDirectory)
                if written.isEmpty { io.warning("the file has no attachments", file: path) }
                for item in written { report(item, file: path, json: arguments.has("json"), io: io) }
            }
        } catch let error as MediaError {
            io.error(error.description, file: error.file)
            return .someFailed
        }
        return status
    }

    /// The tracks the options name; for `--all`, every text track (bitmap tracks are skipped with a warning).
    static func selectStreams(
        _ request: ExtractRequest, media: MediaFile, io: CommandIO, status: inout ExitStatus
    ) throws -> [MediaStream] {
        let extractor = SubtitleExtractor(file: media)
        guard request.all else { return try extractor.streams(for: request.selectors) }
        let subtitles = media.subtitleStreams
        if subtitles.isEmpty {
            io.error("the file has no subtitle tracks", file: media.path)
            status = .someFailed
            return []
        }
        var text: [MediaStream] = []
        for stream in subtitles {
            do {
                _ = try extractor.streams(for: [.stream(stream.index)])
                text.append(stream)
            } catch let error as MediaError {
                io.warning("skipped: " + error.description, file: media.path)
            }
        }
        if text.isEmpty {
            io.error("the file has no text subtitle tracks", file: media.path)
            status = .someFailed
        }
        return text
    }

    private static func report(_ item: SubtitleTrackWriter.Written, file: String, json: Bool, io: CommandIO) {
        let stream = item.track.stream
        if json {
            io.printJSON(
                .object([
                    ("file", .string(file)),
                    ("track", stream.playerIndex.map(JSON.int) ?? .null),
                    ("subtitleIndex", stream.subtitleIndex.map(JSON.int) ?? .null),
                    ("stream", .int(stream.index)),
                    ("codec", .string(stream.codec)),
                    ("language", .optional(stream.language)),
                    ("format", .string(item.track.format.rawValue)),
                    ("output", .string(item.url.relativePath)),
                ]))
        } else {
            let details = [stream.codec, stream.language].compactMap { $0 }.joined(separator: ", ")
            io.print(
                "\(item.url.relativePath): track \(stream.playerIndex ?? 0) = 0:s:\(stream.subtitleIndex ?? 0) "
                    + "= stream \(stream.index) (\(details))")
        }
    }

    private static func report(_ item: AttachmentWriter.Written, file: String, json: Bool, io: CommandIO) {
        if json {
            io.printJSON(
                .object([
                    ("file", .string(file)),
                    ("attachment", .int(item.attachment.index)),
                    ("filename", .optional(item.attachment.fileName)),
                    ("mimetype", .optional(item.attachment.mimeType)),
                    ("size", .int(item.attachment.size)),
                    ("output", .string(item.url.relativePath)),
                ]))
        } else {
            io.print(
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

    init(_ arguments: ParsedArguments) throws(UsageError) {
        all = arguments.has("all")
        if all {
            let given = ExtractCommand.selectorOptions.filter(arguments.has)
            if given.count > 1 { throw .conflictingOptions(given) }
        }
        for (option, make) in [
            ("track", TrackIndex.Selector.player), ("subtitle-index", TrackIndex.Selector.subtitle),
            ("stream", TrackIndex.Selector.stream),
        ] as [(String, (Int) -> TrackIndex.Selector)] {
            for text in arguments.all(option) {
                guard let number = Int(text), number >= 0 else {
                    throw .invalidValue(option: option, value: text, expected: "a whole number from 0")
                }
                selectors.append(make(number))
            }
        }
        if let choice = try arguments.choice("format", ExtractionFormatChoice.allCases.map(\.rawValue)),
            let format = ExtractionFormatChoice(rawValue: choice)
        {
            self.format = format
        }
        attachmentDirectory = arguments.value("attachments").map { URL(fileURLWithPath: $0) }
        outDirectory = arguments.value("out").map { URL(fileURLWithPath: $0) }
        if selectors.isEmpty && !all && attachmentDirectory == nil {
            throw .missingOneOf(command: "extract", options: ExtractCommand.selectorOptions + ["attachments"])
        }
    }
}
