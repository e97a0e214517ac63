import Dispatch
import Foundation
import SubCore
import Synchronization

/// `subfix fix`: rewrites the fonts of ASS/SSA, SRT and WebVTT files to a CJK font that is there.
enum FixCommand {
    static let spec = CommandSpec(
        name: "fix",
        summary: "Rewrite the fonts subtitles ask for to a CJK font that exists, changing nothing else.",
        positionals: [
            PositionalSpec(
                name: "PATH", minimum: 1, maximum: nil,
                help:
                    "Subtitle or media files, or folders walked for .ass .ssa .srt .vtt and .mkv .mka .mks .mp4 .m4v"
                    + " .mov .webm .avi .ts .m2ts.")
        ],
        options: [
            .value(.out, "DIR", "Write the fixed files under DIR, mirroring the paths below each PATH."),
            .flag(
                .inPlace,
                "Rewrite the files themselves, keeping a backup of each; for a media file, write the sidecars next"
                    + " to it (the media file itself is only modified with --remux)."),
            .flag(.dryRun, "Write nothing; report what would change."),
            .flag(
                .remux,
                "For a Matroska file: write the file itself again with its text tracks fixed and subsets of the"
                    + " faces they name attached (every other packet copied as is), instead of sidecars."),
            NamingOption.row,
        ] + RewriteOptions.rows + [
            .value(
                .encoding, "utf8|keep",
                "Write UTF-8 (default), or keep each file's own encoding and bytes: only the replaced font names are"
                    + " written, every other byte is copied."),
            EncodingHintOption.row,
            ReadRateOption.row,
            .value(.backupSuffix, "SUF", "Backup suffix for --in-place (default: .orig)."),
            .flag(.diff, "Print a unified diff of each change."),
            .value(.jobs, "N", "Files processed in parallel (default: the number of cores)."),
            PathArguments.nullOption,
            .flag(.json, "One JSON object per file, then a summary object."),
            .quiet("Print only the files that failed, and the summary."),
            .flag(
                .verbose, short: "v",
                "Also say for each file how its encoding was decided, the policy and font target, and every font"
                    + " reference kept and why (JSON: encodingBasis, policy, target, decisions); after the summary,"
                    + " how much was read from media files and how fast."),
            LibraryLocation.option,
        ],
        discussion: """
            One of --out, --in-place or --dry-run is required. Output is UTF-8, with a byte order mark only where
            the input had one, unless --encoding keep. Writes are atomic and keep the input's permissions; an
            existing backup is never overwritten. Exit status: 0 all fixed, 1 some file failed, 2 usage error.

            Without --remux a media file is only read, never modified: all its text subtitle tracks are extracted in one pass and
            each is fixed into a sidecar named as 'subfix extract' names it, <base>.<subtitleIndex>.<language>.<ext>
            or with --naming jellyfin|plex as those servers read sidecars (next to the media file, or under --out DIR
            mirroring the paths, so each sidecar sits beside the media file's name), one report line per track; --diff
            compares with the text as extracted. Bitmap tracks (PGS, VobSub, DVB) and files without subtitle
            tracks are reported as skipped. A truncated or damaged media file fails whole: no sidecar is written.
            With --json, media lines also carry track, subtitleIndex, stream and note.

            With --remux, a Matroska file is written again instead: under --out DIR at the mirrored path, or with
            --in-place over itself after keeping it as the backup (a temporary file next to it is written, flushed
            and renamed into place; the path always holds the original or the new file).
            Every stream is copied in order with its packets, tags and flags; each text track is replaced by its
            fixed version; the faces the fixed tracks name are attached, cut to the characters they draw (as
            application/x-truetype-font or font/otf; not when the same bytes are already attached). Other
            containers (MP4, ...) are refused; a file with no text tracks is skipped, one with nothing to change
            is not rewritten.

            --policy missing rewrites only the fonts that do not resolve in the font catalog (as libass resolves
            names; the catalog is what --fonts-dir, --no-system-fonts and --default-font describe, as for 'check')
            or that resolve to a face lacking characters shown with them, per style and per \\fn or <font face>
            run; each kept font is reported with why ("kept: NAME (resolves to FACE, covers all N characters
            shown)"; JSON: keptFonts).
            """,
        run: { arguments, io in try run(arguments, io: io) })

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let log = try LibraryLocation.jobLog(arguments, io: io)
        return try fix(arguments, io: io, log: log).failed > 0 ? .someFailed : .success
    }

    /// Fixes what `arguments` name, prints each file's report and the summary on `io`, logs the run in `log` (nil:
    /// nowhere) and returns it: the code of `subfix fix`, which `subfix worker` runs for a fix job. Throws a
    /// `UsageError` for bad options and a `CommandFailure` when the run cannot start.
    static func fix(_ arguments: ParsedArguments, io: CommandIO, log: LibraryBackend?) throws -> FixRunResult {
        let started = Date()
        TemporaryFiles.reset()
        var log = log
        let options = try FixOptions(arguments, io: io)
        let (destination, jobs, json, remux) = (options.destination, options.jobs, options.json, options.remux)

        // A SQLite job log opens on another thread while the files are fixed.
        // A dry run is logged in a library that exists, and never creates one.
        if destination == .dryRun { log = log?.existingOnly }
        var pending: PendingLibrary?
        if case .sqlite(let path) = log { pending = PendingLibrary(path: path) }
        let paths = try PathArguments.expand(arguments, io: io)
        var excluded: String?
        if case .folder(let folder) = destination {
            excluded = folder
            if let failure = FixInputs.outputFolderIsInput(paths, out: folder) { throw failure }
        }
        let inputs = FixInputs.collect(paths, excluding: excluded)
        let (outputs, claims) = outputPaths(inputs, destination: destination, remux: remux)
        let results = process(
            inputs, outputs: outputs, claims: claims, options: options, jobs: jobs, io: io, json: json,
            quiet: arguments.has(.quiet))

        let run = FixRunResult(
            commandLine: commandLine(arguments), dryRun: destination == .dryRun, started: started, finished: Date(),
            files: results)
        if json {
            io.printJSON(run.summaryJSON)
        } else {
            io.print(run.summaryLine)
            if options.explanation != nil, let line = ReadRateOption.report(options.readBudget) { io.print(line) }
        }
        for line in run.degradations { io.warning(line, file: nil) }
        recordJob(run, io: io, destination: log, pending: pending)
        return run
    }

    /// The command line as the job log records it: `fix`, then `ParsedArguments.loggedArguments`.
    static func commandLine(_ arguments: ParsedArguments) -> [String] {
        ["fix"] + arguments.loggedArguments
    }

    /// The output path of each input (nil for `--dry-run`); for `--in-place` the input itself; for a media file
    /// the folder its sidecars go to (with `remux`, the media file written, as for a subtitle file). A second
    /// input mapping to the same output gets a failure instead.
    private static func outputPaths(
        _ inputs: [FixInput], destination: FixDestination, remux: Bool
    ) -> (paths: [Result<String?, CommandFailure>], claims: FixClaims) {
        var claimed: [String: String] = [:]
        let paths = inputs.map { input -> Result<String?, CommandFailure> in
            if input.isMedia && !remux {
                switch destination {
                case .dryRun: return .success(nil)
                case .inPlace: return .success((input.path as NSString).deletingLastPathComponent)
                case .folder(let folder):
                    let relative = (input.relativePath as NSString).deletingLastPathComponent
                    return .success(relative.isEmpty ? folder : folder + "/" + relative)
                }
            }
            switch destination {
            case .dryRun: return .success(nil)
            case .inPlace:
                claimed[input.path] = input.path
                return .success(input.path)
            case .folder(let folder):
                let output = folder + "/" + input.relativePath
                if let first = claimed[output] {
                    return .failure(CommandFailure(cause: "output '\(output)' is also the output of '\(first)'"))
                }
                claimed[output] = input.path
                return .success(output)
            }
        }
        return (paths, FixClaims(files: claimed))
    }

    /// Processes the files on `jobs` threads and prints each result in input order as soon as it and all
    /// before it are done (a media file gives one result per track), with `OrderedWork`'s progress line. The
    /// subtitle files written go through one `CommitBatch`: their results are printed once the batch has put
    /// them in place.
    private static func process(
        _ inputs: [FixInput], outputs: [Result<String?, CommandFailure>], claims: FixClaims, options: FixOptions,
        jobs: Int, io: CommandIO, json: Bool, quiet: Bool
    ) -> [FixFileResult] {
        // The bytes of the media files read so far, of all of them, when there are any (a remux of 300 MB is one
        // file: the count alone would say nothing until it ends).
        let mediaBytes = inputs.filter(\.isMedia).reduce(Int64(0)) { total, input in
            var info = stat()
            return total + (PathBytes.withCString(input.path) { stat($0, &info) } == 0 ? Int64(info.st_size) : 0)
        }
        var detail: (@Sendable () -> (text: String, rate: String))?
        if mediaBytes > 0, let budget = options.readBudget {
            let start = Date()
            detail = {
                let read = budget.bytesRead
                let seconds = Date().timeIntervalSince(start)
                return ProgressLine.bytes(
                    read: read, of: mediaBytes, throughput: seconds > 0 ? Double(read) / seconds : nil)
            }
        }
        let work = OrderedWork<[FixFileResult]>(
            count: inputs.count, io: io, verb: "fixing", showsProgress: !quiet, detail: detail,
            isReady: { !$0.contains(where: \.awaitsCommit) },
            deliver: { results in
                // --quiet: only the failures and, with --diff, the diffs (and, after the run, the summary).
                for result in results {
                    if !quiet || result.status == .failed {
                        report(result, io: io, json: json)
                    } else if let diff = diffText(result, io: io) {
                        io.print(lines: [diff])
                    }
                }
            })
        let batch = CommitBatch()
        @Sendable func commit() {
            let outcome = batch.commit()
            work.update(outcome.keys) { key, results in
                for position in results.indices where results[position].awaitsCommit {
                    results[position].awaitsCommit = false
                    if let failure = outcome.failures[key] { results[position].fail(FixFileSystem.failure(failure)) }
                }
            }
        }
        work.run(jobs: jobs) { index in
            switch outputs[index] {
            case .success(let output) where inputs[index].isMedia && options.remuxEmbedder != nil:
                return FixProcessor.processRemux(inputs[index], output: output, options: options)
            case .success(let output) where inputs[index].isMedia:
                return FixProcessor.processMedia(inputs[index], folder: output, options: options, claims: claims)
            case .success(let output):
                let slot = FixCommitSlot(batch: batch, key: index, due: commit)
                return [FixProcessor.process(inputs[index], output: output, options: options, commit: slot)]
            case .failure(let failure):
                return [.failed(inputs[index].path, failure)]
            }
        }
        commit()
        return work.finish().flatMap { $0 }
    }

    private static func report(_ result: FixFileResult, io: CommandIO, json: Bool) {
        if let error = result.error { io.error(error) }
        if json {
            io.printJSON(result.json)
        } else {
            var lines = [result.line] + result.detailLines.map(MessageText.escaped)
            if let diff = diffText(result, io: io) { lines.append(diff) }
            io.print(lines: lines)
        }
    }

    /// The file's diff without its last newline (a byte: a CRLF file's last CR stays, or `patch` rejects the
    /// hunk), with control characters and line separators from the file escaped when standard output is a
    /// terminal (each line's CR before its LF kept); nil when there is none.
    static func diffText(_ result: FixFileResult, io: CommandIO) -> String? {
        guard let diff = result.diff, !diff.isEmpty else { return nil }
        let bytes = diff.utf8.last == 0x0A ? Array(diff.utf8.dropLast()) : Array(diff.utf8)
        let text = String(decoding: bytes, as: UTF8.self)
        guard io.stdoutIsTerminal else { return text }
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            let carriageReturn = line.last == 0x0D
            let content = String(decoding: carriageReturn ? line.dropLast() : line[...], as: UTF8.self)
            return MessageText.escaped(content) + (carriageReturn ? "\r" : "")
        }.joined(separator: "\n")
    }
}
