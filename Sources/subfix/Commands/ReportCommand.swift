import Dispatch
import Foundation
import SubCore
import SubfixLibrary
import SubfixPostgres
import Synchronization

/// `subfix report`: one self-contained HTML page on a folder of subtitle and media files: each file's status on
/// a player without CJK fonts, the characters that render blank, before/after frames, and its sidecars.
enum ReportCommand {
    static let spec = CommandSpec(
        name: "report",
        summary: "Write one self-contained HTML page showing which files need fixing, with before/after frames.",
        positionals: [
            PositionalSpec(
                name: "PATH", minimum: 0, maximum: nil,
                help: "Subtitle or media files, or folders walked for them as 'fix' walks them (at least one, or"
                    + " --library).")
        ],
        options: [
            .value(.out, "FILE.html", "Write the page to FILE.html (required; replaced atomically)."),
            .value(
                .playerFontsDir, "DIR", repeatable: true,
                "The fonts the player of the 'before' frames has (default: none but the file's own fonts)."),
            .value(.playerDefaultFont, "FILE", "The font that player falls back to."),
        ] + RewriteOptions.rows.filter { $0.name != "embed" } + [
            EncodingHintOption.row,
            .value(.jobs, "N", "Files looked at in parallel (default: the number of cores)."),
            .flag(
                .library, "Also report every file the library database (--db) has indexed ('subfix index')."),
            .flag(.json, "One JSON object per file (type \"file\"), then a summary object (type \"summary\")."),
            .quiet("Print only the files that failed, and the summary."),
            LibraryLocation.option,
        ],
        discussion: """
            Each file is checked and rendered (libass, as 'check' and 'render' do) as a player without CJK fonts
            sees it: no system fonts, only --player-fonts-dir and the fonts the file carries ([Fonts], a media
            file's attachments). It is then fixed in memory as 'fix --embed' with the same --font, --policy,
            --also and font options would fix it (nothing but the page is written), and checked and rendered
            again. --fonts-dir, --no-system-fonts and --default-font say which faces the fix may use, as for
            'fix'; the player is described by --player-fonts-dir and --player-default-font alone. Status: fixed (no CJK character is blank as it is), needs fixing (some are, and the fix makes
            them all render), missing glyphs (some stay blank after the fix; listed), failed (with the error),
            skipped (a media file without a text subtitle track).
            Files with CJK text get a frame before and after the fix, inlined in the page; a media file is
            looked at through its first subtitle track. Sidecar subtitles (Movie.zh.ass next to Movie.mkv)
            are linked.

            The page needs no network and runs no script: styles are inline, frames are data: URIs, and a
            Content-Security-Policy forbids scripts; every name and line from a file is escaped. Exit status: 0
            when every file could be looked at (even if some need fixing), 1 when some file failed, 2 usage error.
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let started = Date()
        let log = try LibraryLocation.jobLog(arguments, io: io)
        let out = try outputPath(arguments)
        let hint = try EncodingHintOption.parse(arguments)
        let jobs = try arguments.integer(.jobs, in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let (fixer, reportsKeptFonts) = try RewriteOptions.fixer(
            arguments, io: io, encodingHint: hint, embed: true)
        let player = FontSetup(
            systemFonts: false, directories: arguments.all(.playerFontsDir),
            defaultFont: arguments.value(.playerDefaultFont))
        let inspector = ReportInspector(
            options: FixOptions(destination: .dryRun, fixer: fixer, diff: false, reportsKeptFonts: reportsKeptFonts),
            player: player, playerCatalog: try FontSetupOptions.catalog(player, io: io))

        var paths = arguments.positionals
        if arguments.has(.library) {
            guard let log else {
                throw CommandFailure(file: nil, cause: "no library database to read: pass --db PATH")
            }
            guard let indexed = indexedPaths(log, io: io) else { return .someFailed }
            paths += indexed
        }
        guard !paths.isEmpty else { throw UsageError.missingArgument(command: "report", name: "PATH") }

        let json = arguments.has(.json)
        var finder = SidecarFinder()
        let inputs = FixInputs.collect(paths)
        if let page = FixFileSystem.status(out),
            let input = inputs.first(where: { input in
                FixFileSystem.status(input.path).map { $0.st_dev == page.st_dev && $0.st_ino == page.st_ino } ?? false
            })
        {
            throw CommandFailure(file: out, cause: "the page would replace the input '\(input.path)'")
        }
        let related = inputs.map { finder.related(to: $0.path) }
        let entries = inspect(inputs, with: inspector, jobs: jobs, io: io, quiet: arguments.has(.quiet)) {
            index, entry in
            var entry = entry
            entry.related = related[index]
            for warning in entry.warnings { io.warning(warning.cause, file: warning.file) }
            if let error = entry.error { io.error(error) }
            if arguments.has(.quiet) && entry.status != .failed {
                // --quiet: only the failures and the summary.
            } else if json {
                io.printJSON(entry.json)
            } else {
                io.printLine(entry.line)
            }
            return entry
        }
        let files = entries.map { entry in
            JobFileRecord.file(entry.file, output: out, status: entry.status.logged, error: entry.error?.description)
        }

        let page = ReportPage(
            entries: entries, output: out, directory: FileManager.default.currentDirectoryPath,
            playerFonts: playerDescription(player))
        let summary = ReportSummary(entries)
        let failed = summary.count(.failed) > 0
        do {
            try RenderFileWriter.write(Data(page.html.utf8), to: out)
        } catch {
            record(
                files, failed: true, summary: summary, arguments: arguments, started: started, log: log, io: io)
            throw error
        }
        if json {
            io.printJSON(summary.json(out: out))
        } else {
            io.printLine(summary.line(out: out))
        }
        record(
            files, failed: failed, summary: summary, arguments: arguments, started: started, log: log, io: io)
        return failed ? .someFailed : .success
    }

    /// Looks at `inputs` on `jobs` threads through `OrderedWork` (with its progress line, which `quiet`
    /// leaves out); `report` gets each entry in input order as soon as it and all before it are done, and returns
    /// the entry kept.
    private static func inspect(
        _ inputs: [FixInput], with inspector: ReportInspector, jobs: Int, io: CommandIO, quiet: Bool,
        report: @escaping @Sendable (Int, ReportEntry) -> ReportEntry
    ) -> [ReportEntry] {
        let kept = Mutex<[ReportEntry]>([])
        let work = OrderedWork<ReportEntry>(
            count: inputs.count, io: io, verb: "inspecting", showsProgress: !quiet,
            deliver: { entry in kept.withLock { $0.append(report($0.count, entry)) } })
        work.run(jobs: max(1, min(jobs, inputs.count))) { index in inspector.inspect(inputs[index]) }
        _ = work.finish()
        return kept.withLock { $0 }
    }

    /// `--out`: required, a file path (not empty, not `-`, not a folder).
    static func outputPath(_ arguments: ParsedArguments) throws -> String {
        guard let out = arguments.value(.out) else {
            throw UsageError.missingOneOf(command: "report", keys: [.out])
        }
        if out.isEmpty || out == "-" || out.hasSuffix("/") {
            throw UsageError.invalidValue(option: OptionKey.out.name, value: out, expected: "a path for the HTML file")
        }
        if SubtitleFormat(path: out) != nil || FixInputs.isMedia(out) {
            throw UsageError.invalidValue(
                option: OptionKey.out.name, value: out,
                expected: "a path for the HTML file, not a subtitle or media file")
        }
        if let info = FixFileSystem.status(out), info.st_mode & S_IFMT == S_IFDIR {
            throw UsageError.invalidValue(option: OptionKey.out.name, value: out, expected: "a file path, not a folder")
        }
        return out
    }

    /// Every file the library has indexed, sorted; a failure is printed and gives nil.
    private static func indexedPaths(_ library: LibraryBackend, io: CommandIO) -> [String]? {
        switch library {
        case .sqlite(let path):
            return LibraryLocation.reading(path, io: io, { try $0.indexedFiles().keys.sorted() })
        case .postgres(let url, _):
            guard let library = PostgresBackend.open(url, io: io) else { return nil }
            do {
                return try library.indexedFiles().keys.sorted()
            } catch {
                io.error(PostgresBackend.message(error))
                return nil
            }
        }
    }

    /// The player's fonts in words, for the page.
    static func playerDescription(_ player: FontSetup) -> String {
        var parts = player.directories.map { "the fonts in \(MessageText.escaped($0))" }
        if let font = player.defaultFont { parts.append("\(MessageText.escaped(font)) as its fallback") }
        return parts.isEmpty ? "no fonts of its own" : parts.joined(separator: ", ")
    }

    /// The job record: the page as the output of every file, and the counts of each status.
    private static func record(
        _ files: [JobFileRecord], failed: Bool, summary: ReportSummary, arguments: ParsedArguments, started: Date,
        log: LibraryBackend?, io: CommandIO
    ) {
        JobLog.record(
            "report", arguments: arguments, started: started, failed: failed,
            counts: [
                "files": summary.files, "needsFixing": summary.count(.needsFixing), "fixed": summary.count(.fixed),
                "missingGlyphs": summary.count(.missingGlyphs), "failed": summary.count(.failed),
                "skipped": summary.count(.skipped),
            ],
            files: files, to: log, io: io)
    }
}
