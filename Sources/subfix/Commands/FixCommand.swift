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
                help: "Subtitle files, or folders walked for .ass .ssa .srt .vtt.")
        ],
        options: [
            .value("out", "DIR", "Write the fixed files under DIR, mirroring the paths below each PATH."),
            .flag("in-place", "Rewrite the files themselves, keeping a backup of each."),
            .flag("dry-run", "Write nothing; report what would change."),
            .value("font", "NAME", "The font to write (default: \(BundledFont.familyName))."),
            .value("policy", "all|cjk", "Rewrite every font (all, the default) or only known CJK fonts (cjk)."),
            .value("also", "NAME", repeatable: true, "With --policy cjk, also rewrite this font."),
            .value("encoding", "utf8|keep", "Write UTF-8 (default) or keep each file's own encoding."),
            .value(
                "encoding-hint", "LANG|CODEPAGE",
                "Breaks ties when detecting legacy encodings (zh-Hans, zh-Hant, ja, ko, gbk, big5, sjis)."),
            .value("backup-suffix", "SUF", "Backup suffix for --in-place (default: .orig)."),
            .flag("diff", "Print a unified diff of each change."),
            .value("jobs", "N", "Files processed in parallel (default: the number of cores)."),
            .flag("json", "One JSON object per file, then a summary object."),
            .value("db", "PATH", "Record the run in this library (default: $XDG_DATA_HOME/subfix/library.sqlite)."),
        ],
        discussion: """
            One of --out, --in-place or --dry-run is required. Output is UTF-8, with a byte order mark only where
            the input had one, unless --encoding keep. Writes are atomic and keep the input's permissions; an
            existing backup is never overwritten. Exit status: 0 all fixed, 1 some file failed, 2 usage error.
            """,
        run: { arguments, io in try run(arguments, io: io) })

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let started = Date()
        let databasePath = try LibraryLocation.path(arguments, io: io)
        let modes = ["out", "in-place", "dry-run"]
        try arguments.exclusive(modes)
        let destination: FixDestination
        if let folder = arguments.value("out") {
            guard !folder.isEmpty else {
                throw UsageError.invalidValue(option: "out", value: folder, expected: "a folder")
            }
            destination = .folder(folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder)
        } else if arguments.has("in-place") {
            let suffix = arguments.value("backup-suffix") ?? ".orig"
            guard !suffix.isEmpty, !suffix.contains("/") else {
                throw UsageError.invalidValue(
                    option: "backup-suffix", value: suffix, expected: "a non-empty suffix without '/'")
            }
            destination = .inPlace(backupSuffix: suffix)
        } else if arguments.has("dry-run") {
            destination = .dryRun
        } else {
            throw UsageError.missingOneOf(command: "fix", options: modes)
        }
        let font = arguments.value("font") ?? BundledFont.familyName
        let trimmed = font.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed != font || font.contains(where: { "{}\\,<>\"'\n\r".contains($0) }) {
            throw UsageError.invalidValue(
                option: "font", value: font,
                expected: "a font family name without outer blanks and without , { } \\ < > \" '")
        }
        let policy: RewritePolicy
        switch try arguments.choice("policy", ["all", "cjk"]) ?? "all" {
        case "cjk": policy = .cjk(also: arguments.all("also"))
        default: policy = .all
        }
        let keep = try arguments.choice("encoding", ["utf8", "keep"]) == "keep"
        var hint: TextEncoding?
        if let label = arguments.value("encoding-hint") {
            guard let encoding = TextEncoding(label: label) else {
                throw UsageError.invalidValue(
                    option: "encoding-hint", value: label,
                    expected:
                        "a language such as zh-Hans, zh-Hant, ja, ko or a code page such as gbk, big5, sjis, cp1252")
            }
            hint = encoding
        }
        let jobs = try arguments.integer("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let json = arguments.has("json")
        let options = FixOptions(
            destination: destination, rewriter: FontRewriter(targetFont: font, policy: policy),
            keepEncoding: keep, hint: hint, diff: arguments.has("diff") && !json)

        var excluded: String?
        if case .folder(let folder) = destination { excluded = folder }
        let inputs = FixInputs.collect(arguments.positionals, excluding: excluded)
        let outputs = outputPaths(inputs, destination: destination)
        let results = process(inputs, outputs: outputs, options: options, jobs: jobs, io: io, json: json)

        let run = FixRunResult(
            commandLine: commandLine(arguments), started: started, finished: Date(),
            files: results)
        if json {
            io.printJSON(run.summaryJSON)
        } else {
            io.print(run.summaryLine)
        }
        recordJob(run, io: io, databasePath: databasePath)
        return run.failed > 0 ? .someFailed : .success
    }

    /// The command line as the job log records it: `fix`, the paths, then each option given, in the order of the
    /// option table (ParsedArguments keeps values, not the raw argv).
    static func commandLine(_ arguments: ParsedArguments) -> [String] {
        var line = ["fix"] + arguments.positionals
        for option in spec.options {
            for value in arguments.all(option.name) {
                line.append("--" + option.name)
                if case .value = option.kind { line.append(value) }
            }
        }
        return line
    }

    /// The output path of each input (nil for `--dry-run`); for `--in-place` the input itself. A second input
    /// mapping to the same output gets a failure instead.
    private static func outputPaths(_ inputs: [FixInput], destination: FixDestination) -> [Result<String?, FixFailure>]
    {
        var claimed: [String: String] = [:]
        return inputs.map { input in
            switch destination {
            case .dryRun: return .success(nil)
            case .inPlace: return .success(input.path)
            case .folder(let folder):
                let output = folder + "/" + input.relativePath
                if let first = claimed[output] {
                    return .failure(FixFailure(cause: "output '\(output)' is also the output of '\(first)'"))
                }
                claimed[output] = input.path
                return .success(output)
            }
        }
    }

    /// Processes the files on `jobs` threads and prints each result in input order as soon as it and all
    /// before it are done. A progress line goes to a terminal's stderr once the run has taken a second.
    private static func process(
        _ inputs: [FixInput], outputs: [Result<String?, FixFailure>], options: FixOptions, jobs: Int,
        io: CommandIO, json: Bool
    ) -> [FixFileResult] {
        struct State {
            var next = 0
            var printed = 0
            var done = 0
            var results: [FixFileResult?]
            var progressShown = false
            var lastProgress = 0.0
        }
        let state = Mutex(State(results: Array(repeating: nil, count: inputs.count)))
        let start = Date()
        let workers = max(1, min(jobs, inputs.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = state.withLock { state -> Int? in
                    guard state.next < inputs.count else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }
                guard let index else { return }
                let result: FixFileResult
                switch outputs[index] {
                case .success(let output):
                    result = FixProcessor.process(inputs[index], output: output, options: options)
                case .failure(let failure):
                    result = FixFileResult(
                        input: inputs[index].path, output: nil, status: .failed, error: failure.cause)
                }
                state.withLock { state in
                    state.results[index] = result
                    state.done += 1
                    while state.printed < inputs.count, let ready = state.results[state.printed] {
                        if state.progressShown { io.progress("\r\u{1B}[K") }
                        report(ready, io: io, json: json)
                        state.printed += 1
                    }
                    let elapsed = Date().timeIntervalSince(start)
                    if io.stderrIsTerminal, elapsed > 1, elapsed - state.lastProgress > 0.1, state.done < inputs.count {
                        io.progress("\r[\(state.done)/\(inputs.count)] fixing...")
                        state.progressShown = true
                        state.lastProgress = elapsed
                    }
                }
            }
        }
        return state.withLock { state in
            if state.progressShown { io.progress("\r\u{1B}[K") }
            return state.results.compactMap { $0 }
        }
    }

    private static func report(_ result: FixFileResult, io: CommandIO, json: Bool) {
        if let error = result.error { io.error(error, file: result.input) }
        if json {
            io.printJSON(result.json)
        } else {
            io.print(result.line)
            if let diff = result.diff, !diff.isEmpty { io.print(String(diff.dropLast())) }
        }
    }
}
