import Foundation
import SubCore
import SubfixLibrary

/// `subfix index`: stores the dialogue of subtitle files and of media files' text tracks in the library, for
/// `subfix search`.
enum IndexCommand {
    static let spec = CommandSpec(
        name: "index",
        summary: "Index the dialogue of subtitle and media files for `subfix search`.",
        positionals: [
            PositionalSpec(
                name: "PATH", minimum: 1, maximum: nil,
                help:
                    "Files, or folders walked for .ass .ssa .srt .vtt and .mkv .mka .mks .mp4 .m4v .mov .webm .avi .ts .m2ts."
            )
        ],
        options: [
            LibraryLocation.option,
            .value(.jobs, "N", "Files parsed in parallel (default: the number of cores)."),
            PathArguments.nullOption,
            .flag(.prune, "Remove files that vanished from below the PATHs."),
            .flag(
                .foldChinese,
                "Fold Traditional and Simplified Chinese together (電視 finds 电视); set when the index is created."),
            .flag(.json, "One JSON object per file, then a summary object."),
            .quiet("No progress line; with --json, only the objects of the files that failed, and the summary."),
            EncodingHintOption.row,
        ],
        discussion: """
            Media files' text tracks are read in memory; nothing is written next to them. Files whose size and
            modification time did not change are skipped; changed ones are replaced, each in one transaction, so an
            interrupted run leaves a consistent index that the next run completes. Searching from another process
            works while an index runs. --fold-chinese is chosen when the index is created: changing it means
            deleting the database and indexing again. Exit status: 0 all indexed, 1 some file failed, 2 usage error.
            """,
        run: { arguments, io in try run(arguments, io: io) })

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let started = Date()
        let databasePath = try LibraryLocation.requiredPath(arguments, io: io)
        let jobs = try arguments.integer(.jobs, in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let json = arguments.has(.json)
        let hint = try EncodingHintOption.parse(arguments)
        let paths = try PathArguments.expand(arguments, io: io)
        let library: LibraryDatabase
        do {
            library = try LibraryDatabase(path: databasePath, mode: .create)
            try library.prepareDialogueIndex(foldsChinese: arguments.has(.foldChinese))
        } catch let error as LibraryError {
            io.error(error)
            return .someFailed
        } catch {
            io.error("cannot open the library: \(CommandFailure(error))", file: databasePath)
            return .someFailed
        }
        let results: [IndexFileResult]
        do {
            results = try IndexRunner.run(
                paths, library: library,
                options: IndexOptions(
                    jobs: jobs, prune: arguments.has(.prune), hint: hint, quiet: arguments.has(.quiet)),
                io: io)
        } catch {
            io.error(error, file: databasePath)
            return .someFailed
        }
        try? library.checkpoint()
        for result in results {
            if let error = result.error { io.error(error, file: result.file) }
            if let warning = result.warning { io.warning(warning, file: result.file) }
            if json && (!arguments.has(.quiet) || result.status == .failed) { io.printJSON(result.json) }
        }
        let counts = summaryCounts(results)
        if json {
            io.printJSON(summaryJSON(counts))
        } else {
            io.print(summaryLine(counts))
        }
        let failed = results.contains { $0.status == .failed }
        let job = JobRecord(
            command: "index", arguments: arguments.loggedArguments, startedAt: started, finishedAt: Date(),
            status: failed ? .failed : .succeeded, counts: Dictionary(uniqueKeysWithValues: counts))
        JobLog.record(job, files: jobFiles(results), to: .sqlite(path: databasePath), library: library, io: io)
        return failed ? .someFailed : .success
    }

    /// The job log's row of each file that was not unchanged, on both backends.
    static func jobFiles(_ results: [IndexFileResult]) -> [JobFileRecord] {
        results.filter { $0.status != .unchanged }.map { result in
            JobFileRecord(
                jobId: 0, path: result.file, status: result.status.logged,
                counts: ["sources": result.sources, "lines": result.lines],
                error: result.error?.detail ?? result.warning)
        }
    }

    /// Files, then each status, then lines.
    static func summaryCounts(_ results: [IndexFileResult]) -> [(String, Int)] {
        var counts: [(String, Int)] = [("files", results.count)]
        for status in [IndexFileResult.Status.new, .updated, .unchanged, .removed, .failed] {
            counts.append((status.rawValue, results.count { $0.status == status }))
        }
        counts.append(("lines", results.reduce(0) { $0 + $1.lines }))
        return counts
    }

    /// The `--json` summary object: `{"type":"summary","files":4,"new":2,...,"lines":1234}`.
    static func summaryJSON(_ counts: [(String, Int)]) -> JSON {
        .typed("summary", counts.map { ($0.0, JSON.int($0.1)) })
    }

    /// `4 files: 2 new, 1 updated, 1 unchanged, 0 removed, 0 failed; 1234 lines stored`
    static func summaryLine(_ counts: [(String, Int)]) -> String {
        let value = Dictionary(uniqueKeysWithValues: counts)
        let files = value["files"] ?? 0
        let parts = ["new", "updated", "unchanged", "removed", "failed"].map { "\(value[$0] ?? 0) \($0)" }
        return "\(files) file\(files == 1 ? "" : "s"): " + parts.joined(separator: ", ")
            + "; \(value["lines"] ?? 0) lines stored"
    }
}
