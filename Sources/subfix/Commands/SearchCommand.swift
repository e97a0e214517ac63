import Foundation
import SubCore
import SubfixLibrary

/// `subfix search`: finds dialogue lines in the library, best matches first.
enum SearchCommand {
    /// grep's and ripgrep's exit statuses, which scripts test: 0 matched, 1 nothing matched, 2 error.
    static let matched = ExitStatus.success
    static let nothingMatched = ExitStatus.someFailed
    static let error = ExitStatus.usage

    static let spec = CommandSpec(
        name: "search",
        summary: "Find lines of dialogue in the library built by `subfix index`.",
        positionals: [
            PositionalSpec(
                name: "QUERY", minimum: 1, maximum: 1,
                help: "Words to find; quote the whole query for the shell.")
        ],
        options: [
            LibraryLocation.option,
            .value(.lang, "L", "Only tracks and files in this language (zh also matches zh-Hans)."),
            .value(
                .path, "GLOB",
                "Only files whose path matches this pattern, relative to here: * any text, ? one character, "
                    + "[abc] or [a-z] one of those characters, [^abc] any other; [[] a literal [."),
            .value(.limit, "N", "At most N hits (default 20; 0 for every hit)."),
            .value(.context, "N", "Also show N lines before and after each hit."),
            .flag(.count, "Print the number of matching lines of each file (path:count), every match counted."),
            .flag(.filesWithMatches, "Print only the paths of the files with a match."),
            .flag(.json, "One JSON object per hit (with --count or --files-with-matches: per file)."),
            .value(
                .color, "WHEN",
                "Colour the matches: auto (on a terminal, unless NO_COLOR is set), always or never."),
            .flag(.brackets, "Mark the matches with [ ] in plain text (without colour)."),
        ],
        discussion: """
            Query language: every word must appear; a run of Chinese, Japanese or Korean characters must appear as
            written (你好 finds 你好, not 你，好); "quoted words" must appear in that order; word* matches words that
            start with word (Latin letters); -word excludes; OR between words gives alternatives. Case, accents and
            full-width forms do not matter. A query that starts with - goes after --: subfix search -- '-a b'.
            Shorter matching lines rank first (by length; ts_rank on PostgreSQL); without --lang
            and --path, among the 1,000 most recently indexed matching lines when there are more, on both backends.
            Exit status, as ripgrep and grep: 0 when something matched, 1 when nothing
            did (nothing is printed), 2 on an error (a query with nothing to search, no library).
            """,
        run: { arguments, io in try run(arguments, io: io) })

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let databasePath = try LibraryLocation.requiredPath(arguments, io: io)
        let options = try searchOptions(arguments, unlimited: Int.max)
        let context = options.context
        let text = arguments.positionals.first ?? ""
        let query: DialogueQuery
        do {
            query = try DialogueQuery(text)
        } catch {
            io.error(LibraryError.query(error))
            return Self.error
        }
        let json = arguments.has(.json)
        let colour = try colours(arguments, io: io)
        let brackets = arguments.has(.brackets)
        let directory = FileManager.default.currentDirectoryPath
        if arguments.has(.count) || arguments.has(.filesWithMatches) {
            guard
                let counts = LibraryLocation.reading(
                    databasePath, io: io, { try $0.matchCounts(query, options: options) })
            else { return Self.error }
            return printCounts(counts, arguments: arguments, io: io)
        }
        var printer = HitPrinter(
            io: io, json: json, context: context, colour: colour, brackets: brackets, directory: directory)
        // Each hit printed as it is ranked and read: `--limit 0` over a million hits holds one at a time.
        guard
            LibraryLocation.reading(
                databasePath, io: io, { try $0.search(query, options: options) { printer.print($0) } }) != nil
        else {
            printer.flush()
            return Self.error
        }
        printer.flush()
        return printer.count == 0 ? Self.nothingMatched : Self.matched
    }

    /// Prints hits as `search` shows them (a header line and the marked text, `--context` lines around it, `--`
    /// between groups; or one JSON object a hit), written in batches of 64 KiB rather than a write per line (20
    /// hits were 20 system calls).
    struct HitPrinter {
        let io: CommandIO
        let json: Bool
        let context: Int
        let colour: Bool
        let brackets: Bool
        let directory: String
        /// The hits printed so far.
        private(set) var count = 0
        private var lines: [String] = []
        private var size = 0

        init(io: CommandIO, json: Bool, context: Int, colour: Bool, brackets: Bool, directory: String) {
            self.io = io
            self.json = json
            self.context = context
            self.colour = colour
            self.brackets = brackets
            self.directory = directory
        }

        mutating func print(_ hit: DialogueHit) {
            if json {
                add(SearchCommand.json(hit, from: directory).serialized())
            } else {
                if context > 0 && count > 0 { add("--") }
                for line in hit.before { add(SearchCommand.contextLine(line)) }
                add(
                    SearchCommand.header(hit, from: directory) + "  "
                        + SearchCommand.marked(hit.segments, colour: colour, brackets: brackets))
                for line in hit.after { add(SearchCommand.contextLine(line)) }
            }
            count += 1
        }

        private mutating func add(_ line: String) {
            lines.append(line)
            size += line.utf8.count
            if size >= 1 << 16 { flush() }
        }

        /// Writes what is buffered.
        mutating func flush() {
            guard !lines.isEmpty else { return }
            io.print(lines: lines)
            lines.removeAll(keepingCapacity: true)
            size = 0
        }
    }

    /// Prints `--count` (`path:count`, or `{"type":"count","file","count"}` with `--json`) or `--files-with-matches`
    /// (paths, or `{"type":"file","file"}`) lines,
    /// the same for every backend; the exit status says whether anything matched.
    static func printCounts(_ counts: [(path: String, count: Int)], arguments: ParsedArguments, io: CommandIO)
        -> ExitStatus
    {
        let directory = FileManager.default.currentDirectoryPath
        for (path, count) in counts {
            let shown = DisplayPath.show(path, from: directory)
            if arguments.has(.json) {
                // -l: `{"type":"file","file"}`; --count: `{"type":"count","file","count"}`.
                io.printJSON(
                    arguments.has(.count)
                        ? .typed("count", [("file", .string(shown)), ("count", .int(count))])
                        : .typed("file", [("file", .string(shown))]))
            } else if !arguments.has(.count) {
                io.print(MessageText.escaped(shown))
            } else {
                io.print(MessageText.escaped(shown) + ":\(count)")
            }
        }
        return counts.isEmpty ? Self.nothingMatched : Self.matched
    }

    /// `HH:MM:SS.mmm`
    static func timestamp(_ milliseconds: Int) -> String {
        let ms = max(0, milliseconds)
        let hours = ms / 3_600_000
        let minutes = ms / 60_000 % 60
        let seconds = ms / 1000 % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = ms % 1000
        let three = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(two(hours)):\(two(minutes)):\(two(seconds)).\(three)"
    }

    /// `path [track 2, ja] 00:00:01.000 --> 00:00:02.500`
    static func header(_ hit: DialogueHit, from directory: String) -> String {
        var text = MessageText.escaped(DisplayPath.show(hit.path, from: directory))
        var details: [String] = []
        if let track = hit.source.playerIndex { details.append("track \(track)") }
        if let language = hit.source.language { details.append(language) }
        if !details.isEmpty { text += " [" + details.joined(separator: ", ") + "]" }
        return text + " " + timestamp(hit.line.startMs) + " --> " + timestamp(hit.line.endMs)
    }

    /// A line shown around a hit: indented, with its times.
    static func contextLine(_ line: DialogueLineRecord) -> String {
        "    " + timestamp(line.startMs) + " --> " + timestamp(line.endMs) + "  " + oneLine(line.text)
    }

    /// `--lang`, `--path`, `--limit` (0 for every hit: `unlimited`) and `--context` as search options, the same
    /// on every backend.
    static func searchOptions(_ arguments: ParsedArguments, unlimited: Int) throws(UsageError)
        -> DialogueSearchOptions
    {
        let requestedLimit = try arguments.integer(.limit, in: 0...Int(Int32.max)) ?? 20
        let limit = requestedLimit == 0 ? unlimited : requestedLimit
        let context = try arguments.integer(.context, in: 0...100) ?? 0
        // Paths are stored absolute: a relative pattern is taken from the current directory.
        let pattern = arguments.value(.path).map { pattern in
            pattern.hasPrefix("/") || pattern.hasPrefix("*")
                ? pattern : globEscaped(FileManager.default.currentDirectoryPath) + "/" + pattern
        }
        return DialogueSearchOptions(
            language: arguments.value(.lang), pathPattern: pattern, limit: limit, context: context)
    }

    /// Whether matches are coloured: `--color always|never`, or (auto) when standard output is a terminal and
    /// `NO_COLOR` is unset or empty (no-color.org).
    static func colours(_ arguments: ParsedArguments, io: CommandIO) throws(UsageError) -> Bool {
        switch try arguments.choice(.color, ["auto", "always", "never"]) ?? "auto" {
        case "always": return true
        case "never": return false
        default: return io.stdoutIsTerminal && (io.environment["NO_COLOR"] ?? "").isEmpty
        }
    }

    /// The line with its matches in bold red (`colour`, as grep and ripgrep show them), in `[...]` (`brackets`),
    /// or unmarked; line breaks shown as ` / `.
    static func marked(_ segments: [DialogueHit.Segment], colour: Bool, brackets: Bool) -> String {
        segments.map { segment in
            let text = oneLine(segment.text)
            guard segment.isMatch else { return text }
            if colour { return "\u{1B}[1;31m" + text + "\u{1B}[0m" }
            return brackets ? "[" + text + "]" : text
        }.joined()
    }

    /// Line breaks as ` / `; other control characters from the file escaped (`MessageText`).
    static func oneLine(_ text: String) -> String {
        MessageText.escaped(text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " / "))
    }

    /// `{"type":"hit","file","track","language","start","end","text","snippet","rank"}`, with `before` and `after`
    /// when `--context` gave lines around it.
    static func json(_ hit: DialogueHit, from directory: String) -> JSON {
        var fields: [(String, JSON)] = [
            ("file", .string(DisplayPath.show(hit.path, from: directory))),
            ("track", hit.source.playerIndex.map { JSON.int($0) } ?? .null),
            ("language", .optional(hit.source.language)),
            ("start", .string(timestamp(hit.line.startMs))), ("end", .string(timestamp(hit.line.endMs))),
            ("text", .string(hit.line.text)), ("snippet", .string(hit.snippet)),
            ("rank", .double((hit.rank * 1000).rounded() / 1000)),
        ]
        if !hit.before.isEmpty || !hit.after.isEmpty {
            fields.append(("before", .array(hit.before.map { .string($0.text) })))
            fields.append(("after", .array(hit.after.map { .string($0.text) })))
        }
        return .typed("hit", fields)
    }

    /// `text` as a GLOB pattern that matches only itself: `[`, `*` and `?` each in a class of its own (the current
    /// folder before a relative `--path`: a folder named `[Group] Show` is no pattern).
    static func globEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            escaped += "[*?".contains(character) ? "[\(character)]" : String(character)
        }
        return escaped
    }
}
