import Foundation
import SubCore
import SubfixLibrary
import SubfixPostgres

/// `subfix queue add PATH...` and `subfix queue status`: the shared work queue in a PostgreSQL library.
enum QueueCommand {
    static let spec = CommandSpec(
        name: "queue",
        summary: "Add jobs to the shared PostgreSQL work queue, or show its counts.",
        positionals: [
            PositionalSpec(
                name: "ACTION [PATH...]", minimum: 1, maximum: nil,
                help: "add PATH... (files, or folders walked as `subfix index` walks them), or status.")
        ],
        options: [
            PostgresBackend.option,
            .flag(
                .json, "status: one object {\"type\":\"queue\",\"pending\":…,\"running\":…,\"done\":…,\"failed\":…}."),
            .flag(
                .details,
                "status: first one line (with --json, one object) per job not done: running ones (worker, lease "
                    + "left), failed ones (the error), pending ones."),
            .flag(.all, "status --details: list the done jobs too (with their results)."),
            .value(.limit, "N", "status --details: at most N jobs (default 100; 0 for every one)."),
            .flag(
                .fix,
                "add: fix jobs (as `subfix fix` with the options below, one file each) instead of index jobs; needs"
                    + " --out or --in-place."),
        ] + fixRows,
        discussion: """
            Jobs index files into the library, or with --fix fix their fonts (`subfix worker` runs them, on any
            machine that sees the same paths). A fix job writes what `subfix fix PATH --out DIR` (or --in-place)
            would write for its file, under the same relative path below DIR; relative paths given to the fix
            options are made absolute when the job is added. A running job whose worker died returns to the queue
            when its lease expires; status counts it as pending. Exit status: 0 done, 1 a path or the database
            failed, 2 usage error.
            """,
        run: { arguments, io in try run(arguments, io: io) })

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let url = try PostgresBackend.requiredURL(arguments, io: io)
        let action = arguments.positionals.first ?? ""
        let paths = Array(arguments.positionals.dropFirst())
        if !(action == "add" && arguments.has(.fix)), let stray = fixKeys.first(where: arguments.has) {
            throw UsageError.needsOption(stray.name, requires: OptionKey.fix.name)
        }
        switch action {
        case "add":
            guard !paths.isEmpty else { throw UsageError.missingArgument(command: "queue add", name: "PATH") }
            if arguments.has(.fix) { return try addFixJobs(paths, arguments: arguments, url: url, io: io) }
            return add(paths, url: url, io: io)
        case "status":
            guard paths.isEmpty else {
                throw UsageError.unexpectedArgument(command: "queue status", argument: paths[0])
            }
            let limit = try arguments.integer(.limit, in: 0...Int(Int32.max)) ?? 100
            let details = arguments.has(.details) ? (all: arguments.has(.all), limit: limit == 0 ? nil : limit) : nil
            return status(url: url, json: arguments.has(.json), details: details, io: io)
        default:
            throw UsageError.invalidValue(option: "ACTION", value: action, expected: "add or status")
        }
    }

    static func add(_ paths: [String], url: PostgresURL, io: CommandIO) -> ExitStatus {
        let (inputs, _, failures) = IndexInputs.collect(paths)
        for (path, cause) in failures { io.error(cause, file: path) }
        guard let library = PostgresBackend.open(url, io: io) else { return .someFailed }
        do {
            let ids = try PostgresQueue(connection: library.connection).add(.index, paths: inputs.map(\.path))
            io.print("\(ids.count) job\(ids.count == 1 ? "" : "s") added")
        } catch {
            io.error(PostgresBackend.message(error))
            return .someFailed
        }
        return failures.isEmpty ? .success : .someFailed
    }

    /// The options of `subfix fix` that a fix job carries: where the fixed files go and how fonts are chosen.
    static let fixKeys: [OptionKey] =
        [.out, .inPlace, .remux] + RewriteOptions.keys + [.encoding, .encodingHint, .backupSuffix]

    /// `fix`'s rows for `fixKeys`, their help saying they go with `--fix`.
    static let fixRows: [OptionSpec] = FixCommand.spec.options.filter { fixKeys.contains($0.key) }.map { row in
        var row = row
        row.help = "With --fix: " + row.help.prefix(1).lowercased() + row.help.dropFirst()
        return row
    }

    /// `queue add --fix`: one fix job per subtitle or media file under `paths`, each with the fix options (paths
    /// made absolute) and an `--out` that puts its output where `subfix fix PATH... --out DIR` would.
    static func addFixJobs(_ paths: [String], arguments: ParsedArguments, url: PostgresURL, io: CommandIO) throws
        -> ExitStatus
    {
        try arguments.exclusive([.out, .inPlace])
        guard arguments.has(.out) || arguments.has(.inPlace) else {
            throw UsageError.missingOneOf(command: "queue add --fix", keys: [.out, .inPlace])
        }
        // What `fix` would refuse as a usage error is refused now, not by every worker.
        _ = try arguments.choice(.policy, RewriteOptions.policies)
        _ = try arguments.choice(.encoding, ["utf8", "keep"])
        _ = try EncodingHintOption.parse(arguments)
        let directory = FileManager.default.currentDirectoryPath
        var out = arguments.value(.out)
        if let given = out {
            guard !given.isEmpty, given != "-" else {
                throw UsageError.invalidValue(option: OptionKey.out.name, value: given, expected: "a folder")
            }
            if let failure = FixInputs.outputFolderIsInput(paths, out: given) { throw failure }
            let trimmed = given.count > 1 && given.hasSuffix("/") ? String(given.dropLast()) : given
            out = trimmed.hasPrefix("/") ? trimmed : (directory as NSString).appendingPathComponent(trimmed)
        }
        // The other fix options as the job log writes them: in fix's table order, paths absolute.
        var values = arguments.values.filter { fixKeys.map(\.name).contains($0.key) }
        values[OptionKey.out.name] = nil
        let common = ParsedArguments(command: FixCommand.spec.name, values: values).loggedArguments
        var failed = false
        var jobs: [(path: String, options: [String])] = []
        for input in FixInputs.collect(paths, excluding: out) {
            let absolute =
                input.path.hasPrefix("/") ? input.path : (directory as NSString).appendingPathComponent(input.path)
            if let problem = input.problem {
                io.error(problem, file: input.path)
                failed = true
                continue
            }
            guard FixFileSystem.status(absolute) != nil else {
                io.error("no such file or folder", file: input.path)
                failed = true
                continue
            }
            var options = common
            if let out {
                let relative = (input.relativePath as NSString).deletingLastPathComponent
                options += ["--out", relative.isEmpty ? out : out + "/" + relative]
            }
            jobs.append((absolute, options))
        }
        guard let library = PostgresBackend.open(url, io: io) else { return .someFailed }
        do {
            let ids = try PostgresQueue(connection: library.connection).add(.fix, jobs: jobs)
            io.print("\(ids.count) job\(ids.count == 1 ? "" : "s") added")
        } catch {
            io.error(PostgresBackend.message(error))
            return .someFailed
        }
        return failed ? .someFailed : .success
    }

    static func status(url: PostgresURL, json: Bool, details: (all: Bool, limit: Int?)?, io: CommandIO)
        -> ExitStatus
    {
        guard let library = PostgresBackend.open(url, io: io) else { return .someFailed }
        do {
            let queue = PostgresQueue(connection: library.connection)
            if let details {
                for entry in try queue.entries(includingDone: details.all, limit: details.limit) {
                    if json { io.printJSON(self.json(entry)) } else { io.print(line(entry)) }
                }
            }
            let counts = try queue.status()
            if json {
                io.printJSON(
                    .typed(
                        "queue",
                        [
                            ("pending", .int(counts.pending)), ("running", .int(counts.running)),
                            ("done", .int(counts.done)), ("failed", .int(counts.failed)),
                        ]))
            } else {
                io.print(
                    "\(counts.pending) pending, \(counts.running) running, \(counts.done) done, \(counts.failed) failed"
                )
            }
        } catch {
            io.error(PostgresBackend.message(error))
            return .someFailed
        }
        return .success
    }

    /// `#7 running index /m/a.srt: worker host:41/0, attempt 1, lease 9m58s left`, `#8 failed index /m/b.srt:
    /// attempt 3: <error>`, `#9 pending index /m/c.srt: attempt 1 by host:40/1, lease expired`.
    static func line(_ entry: PostgresQueue.Entry) -> String {
        var details: [String] = []
        if entry.status == "running", let worker = entry.worker { details.append("worker " + worker) }
        if entry.attempts > 0 {
            let by = entry.status == "pending" ? entry.worker.map { " by " + $0 } ?? "" : ""
            details.append("attempt \(entry.attempts)" + by)
        }
        if let seconds = entry.leaseSecondsLeft { details.append("lease \(duration(seconds)) left") }
        if entry.leaseExpired { details.append("lease expired") }
        var text = "#\(entry.id) \(entry.status) \(entry.kind.rawValue) " + MessageText.escaped(entry.path)
        if !details.isEmpty { text += ": " + details.joined(separator: ", ") }
        if entry.status == "failed", let error = entry.error { text += ": " + MessageText.escaped(oneLine(error)) }
        if entry.status == "done", let result = entry.result { text += ": " + MessageText.escaped(oneLine(result)) }
        return text
    }

    /// `{"type":"job","id","kind","path","status","attempts","worker","leaseSecondsLeft","leaseExpired","result",`
    /// `"error"}`
    static func json(_ entry: PostgresQueue.Entry) -> JSON {
        .object([
            ("type", .string("job")), ("id", .int(entry.id)), ("kind", .string(entry.kind.rawValue)),
            ("file", .string(entry.path)), ("status", .string(entry.status)), ("attempts", .int(entry.attempts)),
            ("worker", .optional(entry.worker)),
            ("leaseSecondsLeft", entry.leaseSecondsLeft.map { .int(Int($0.rounded(.up))) } ?? .null),
            ("leaseExpired", .bool(entry.leaseExpired)), ("result", .optional(entry.result)),
            ("error", .optional(entry.error)),
        ])
    }

    /// `42s`, `9m58s`, `2h05m`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(max(0, seconds.rounded(.up)))
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m" + String(format: "%02ds", whole % 60) }
        return "\(whole / 3600)h" + String(format: "%02dm", whole / 60 % 60)
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " / ")
    }
}
