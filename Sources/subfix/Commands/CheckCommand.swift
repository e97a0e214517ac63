import Foundation
import SubCore
import SubfixLibrary

/// `subfix check`: for every event, are all its characters covered by the font libass would use?
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        summary: "Report the characters of each subtitle event that would render blank (missing glyphs).",
        positionals: [
            PositionalSpec(
                name: "INPUT", minimum: 1, maximum: nil,
                help: "Subtitle files (.ass .ssa .srt .vtt) or media files, or folders walked for them.")
        ],
        options: RenderInputs.trackOptions + FontSetupOptions.options + [
            .flag(.json, "One JSON object per file on stdout."),
            .quiet("Print only the files with missing glyphs and the ones that failed."), LibraryLocation.option,
        ],
        discussion: """
            Each style and \\fn run is resolved to the face libass picks (family, full or PostScript name,
            case-insensitive, '@' dropped); a character is missing when no face of that name covers it and,
            with system fonts, no fallback font does either. libass's own "Glyph ... not found" messages,
            captured while rendering each event, are added. Exit 1 when any character is missing.
            """,
        run: run)

    /// Checks every input, then records the run in the job log: one file record per input.
    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let started = Date()
        // A command that only reads its inputs logs to a library that exists, and never makes one.
        let log = try LibraryLocation.jobLog(arguments, io: io)?.existingWritable
        let status: ExitStatus
        let files: [JobFileRecord]
        do {
            (status, files) = try check(arguments, io: io)
        } catch {
            if error is UsageError { throw error }
            record([], failed: true, arguments: arguments, started: started, log: log, io: io)
            throw error
        }
        record(files, failed: status != .success, arguments: arguments, started: started, log: log, io: io)
        return status
    }

    /// The job record: files, failed files, events and events with missing glyphs over all inputs.
    private static func record(
        _ records: [JobFileRecord], failed: Bool, arguments: ParsedArguments, started: Date, log: LibraryBackend?,
        io: CommandIO
    ) {
        JobLog.record(
            "check", arguments: arguments, started: started, failed: failed,
            counts: [
                "files": records.count, "failed": records.count { $0.status == .failed },
                "events": records.reduce(0) { $0 + ($1.counts["events"] ?? 0) },
                "eventsWithMissingGlyphs": records.reduce(0) { $0 + ($1.counts["eventsWithMissingGlyphs"] ?? 0) },
            ],
            files: records, to: log, io: io)
    }

    /// Checks each input; returns the exit status and a job row per input: covered, missing (some glyphs) or
    /// failed.
    private static func check(
        _ arguments: ParsedArguments, io: CommandIO
    ) throws -> (ExitStatus, [JobFileRecord]) {
        let setup = FontSetupOptions.setup(arguments)
        let catalog = try FontSetupOptions.catalog(setup, io: io)
        var status = ExitStatus.success
        var files: [JobFileRecord] = []
        // Folders are walked as `fix` walks them (subtitle and media files, in name order).
        let inputs = FixInputs.collect(arguments.positionals)
        var progress = ProgressLine(io: io, total: inputs.count, verb: "checking", visible: !arguments.has(.quiet))
        defer { progress.wipe() }
        for (done, found) in inputs.enumerated() {
            progress.show(done: done)
            let input = found.path
            let report: GlyphCheckReport
            do {
                if let problem = found.problem { throw CommandFailure(file: input, cause: problem) }
                let (subtitle, _) = try RenderInputs.load(input, arguments: arguments)
                let renderer = try SubtitleRenderer(input: subtitle, setup: setup, width: 640, height: 360)
                // Attachments and [Fonts] travel with the input: they join the catalog for this file only.
                let embedded = renderer.embedded
                let fileCatalog = try catalog.adding(attachments: subtitle.attachments + embedded.fonts)
                progress.wipe()
                FontSetupOptions.report(
                    embedded.warnings + fileCatalog.warnings.dropFirst(catalog.warnings.count), io: io)
                report = try GlyphChecker.check(renderer, catalog: fileCatalog)
            } catch let error as UsageError {
                throw error
            } catch {
                progress.wipe()
                let failure = CommandFailure(error)
                io.error(failure)
                files.append(.file(input, status: .failed, error: failure.description))
                status = .someFailed
                continue
            }
            progress.wipe()
            if !report.missing.isEmpty { status = .someFailed }
            files.append(
                .file(
                    input, status: report.missing.isEmpty ? .covered : .missing,
                    counts: ["events": report.events, "eventsWithMissingGlyphs": report.eventsWithMissingGlyphs]))
            if arguments.has(.quiet) && report.missing.isEmpty {
                // --quiet: nothing for a file whose characters are all covered.
            } else if arguments.has(.json) {
                io.printJSON(json(report))
            } else {
                print(report, io: io)
            }
        }
        return (status, files)
    }

    static func print(_ report: GlyphCheckReport, io: CommandIO) {
        for entry in report.missing {
            let face = entry.face.map { "drawn with \($0)" } ?? "not found, nothing to fall back to"
            io.printLine(
                "\(report.file): event \(entry.event) at \(RenderTime.format(entry.start)): font '\(entry.font)' (\(face))"
                    + " lacks \(String(String.UnicodeScalarView(entry.characters))) in \"\(entry.text)\"")
        }
        let verdict =
            report.missing.isEmpty ? "all characters covered" : "\(report.eventsWithMissingGlyphs) with missing glyphs"
        io.printLine("\(report.file): \(report.events) event\(report.events == 1 ? "" : "s"), \(verdict)")
    }

    static func json(_ report: GlyphCheckReport) -> JSON {
        .typed(
            "file",
            [
                ("file", .string(report.file)), ("events", .int(report.events)),
                ("eventsWithMissingGlyphs", .int(report.eventsWithMissingGlyphs)),
                (
                    "missing",
                    .array(
                        report.missing.map { entry in
                            .object([
                                ("event", .int(entry.event)), ("start", .string(RenderTime.format(entry.start))),
                                ("text", .string(entry.text)), ("font", .string(entry.font)),
                                ("chars", .string(String(String.UnicodeScalarView(entry.characters)))),
                            ])
                        })
                ),
            ])
    }
}
