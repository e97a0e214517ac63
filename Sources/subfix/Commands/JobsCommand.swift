import Foundation
import SubfixLibrary
import SubfixPostgres

/// `subfix jobs`: the recent runs of subfix commands, from the library's job log (SQLite or PostgreSQL: the same
/// lines and objects).
enum JobsCommand {
    static let spec = CommandSpec(
        name: "jobs",
        summary: "List recent runs of fix, index and the other commands.",
        options: [
            LibraryLocation.option,
            .value(.limit, "N", "At most N runs, newest first (default 20)."),
            .flag(.json, "One JSON object per run."),
        ],
        discussion: """
            fix, extract, render, check, report and index (and 'subfix worker', for each fix job) log their runs
            in the library: a SQLite file, or a PostgreSQL server given as a postgresql:// URL, where the lines and
            JSON objects are the same. Arguments are kept with paths made absolute and any password replaced by
            ***; a dry run is marked with the count dryRun.
            """,
        run: { arguments, io in try run(arguments, io: io) })

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let read: [JobRecord]?
        if let url = try PostgresBackend.url(arguments, io: io) {
            read = recentJobs(url, limit: try limit(arguments), io: io)
        } else {
            let databasePath = try LibraryLocation.requiredPath(arguments, io: io)
            let limit = try limit(arguments)
            read = LibraryLocation.reading(databasePath, io: io, { try $0.recentJobs(limit: limit) })
        }
        guard let jobs = read else { return .someFailed }
        for job in jobs {
            if arguments.has(.json) {
                io.printJSON(json(job))
            } else {
                io.printLine(line(job))
            }
        }
        return .success
    }

    /// `--limit N`, 20 by default.
    static func limit(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        try arguments.integer(.limit, in: 1...100_000) ?? 20
    }

    /// The newest `limit` jobs of the PostgreSQL library at `url`; a failure is printed and gives nil.
    static func recentJobs(_ url: PostgresURL, limit: Int, io: CommandIO) -> [JobRecord]? {
        guard let library = PostgresBackend.open(url, io: io) else { return nil }
        do {
            return try library.recentJobs(limit: limit)
        } catch {
            io.error(PostgresBackend.message(error))
            return nil
        }
    }

    /// `2026-11-29T19:40:01Z`
    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// `#3 2026-11-29T19:40:01Z fix succeeded 1.2 s: changed 2, files 2 -- fix --out o a.srt`
    static func line(_ job: JobRecord) -> String {
        var text = "#\(job.id ?? 0) \(date(job.startedAt)) \(job.command) \(job.status)"
        if let finished = job.finishedAt {
            text += String(format: " %.1f s", finished.timeIntervalSince(job.startedAt))
        }
        let counts = job.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        if !counts.isEmpty { text += ": " + counts.joined(separator: ", ") }
        return text + " -- " + ([job.command] + job.arguments).joined(separator: " ")
    }

    static func json(_ job: JobRecord) -> JSON {
        .typed(
            "job",
            [
                ("id", .int(Int(job.id ?? 0))), ("command", .string(job.command)),
                ("arguments", .array(job.arguments.map(JSON.string))), ("started", .string(date(job.startedAt))),
                ("finished", .optional(job.finishedAt.map(date))), ("status", .string(job.status.rawValue)),
                ("counts", .object(job.counts.sorted { $0.key < $1.key }.map { ($0.key, JSON.int($0.value)) })),
            ])
    }
}
