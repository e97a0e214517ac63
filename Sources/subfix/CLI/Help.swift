/// Renders `subfix --help` and `subfix COMMAND --help` from the command table. The man pages (`ManPage`) and
/// the shell completions (`BashCompletion`, `ZshCompletion`, `FishCompletion`) read the same table and the
/// texts below, so none of them can drift from `--help`.
enum Help {
    /// What subfix does, in the overview and at the top of subfix(1).
    static let description =
        "Makes CJK subtitles render: rewrites the fonts they name, extracts embedded tracks, renders frames to"
        + " check them, and indexes dialogue for search."

    /// The options taken before any command (`subfix --version`).
    static let globalOptions: [OptionSpec] = [
        .flag(.help, short: "h", "Show this help; 'subfix COMMAND --help' for a command."),
        .flag(.version, "Show the versions of subfix and of the libraries it links."),
    ]

    /// What each exit status means, for every command.
    static let exitStatus = "Exit status: 0 all good, 1 some inputs failed, 2 usage error."

    static func usageLine(for spec: CommandSpec) -> String {
        var parts = ["subfix", spec.name]
        for positional in spec.positionals {
            let name = positional.maximum == 1 ? positional.name : positional.name + "..."
            parts.append(positional.minimum > 0 ? name : "[\(name)]")
        }
        parts.append("[options]")
        return parts.joined(separator: " ")
    }

    /// The left column of an option's row: `-h, --help` or `--out DIR`.
    static func optionLabel(_ option: OptionSpec) -> String {
        var label = (option.short.map { "-\($0), " } ?? "") + "--" + option.name
        if case .value(let placeholder) = option.kind { label += " " + placeholder }
        return label
    }

    /// An option's help text as `--help` shows it.
    static func optionHelp(_ option: OptionSpec) -> String {
        option.help + (option.repeatable ? " (repeatable)" : "")
    }

    /// The width `--help` is wrapped to when standard output is not a terminal and `$COLUMNS` is not set.
    static let defaultWidth = 100

    /// How many options `subfix COMMAND -h` shows: the first ones of the command's table, which lists the most
    /// used first.
    static let briefOptionCount = 5

    /// `subfix COMMAND --help`: every option and the discussion, wrapped to `width` columns.
    static func command(_ spec: CommandSpec, width: Int = defaultWidth) -> String {
        var lines = ["usage: " + usageLine(for: spec), ""] + wrapped(spec.summary, width: width)
        if !spec.positionals.isEmpty {
            lines += ["", "arguments:"]
            for positional in spec.positionals {
                lines += row(positional.name, positional.help, width: width)
            }
        }
        lines += ["", "options:"]
        for option in spec.options {
            lines += row(optionLabel(option), optionHelp(option), width: width)
        }
        if !spec.discussion.isEmpty { lines += [""] + paragraphs(spec.discussion, width: width) }
        return lines.joined(separator: "\n")
    }

    /// `subfix COMMAND -h`: the usage line, the summary and the first `briefOptionCount` options, then where the
    /// rest is.
    static func brief(_ spec: CommandSpec, width: Int = defaultWidth) -> String {
        let options = spec.options.filter { $0.key != .help }
        var lines = ["usage: " + usageLine(for: spec), ""] + wrapped(spec.summary, width: width) + ["", "options:"]
        for option in options.prefix(briefOptionCount) {
            lines += row(optionLabel(option), optionHelp(option), width: width)
        }
        lines += [""] + wrapped("'subfix \(spec.name) --help' shows all \(options.count) options.", width: width)
        return lines.joined(separator: "\n")
    }

    /// `subfix --help`: what subfix does, the commands, the global options and the exit status.
    static func overview(_ table: [CommandSpec], width: Int = defaultWidth) -> String {
        var lines =
            ["usage: subfix COMMAND [options]", ""] + wrapped(description, width: min(width, 90)) + ["", "commands:"]
        for spec in table { lines += row(spec.name, spec.summary, width: width) }
        lines += ["", "options:"]
        for option in globalOptions { lines += row(optionLabel(option), optionHelp(option), width: width) }
        lines += [""] + wrapped(exitStatus, width: width)
        return lines.joined(separator: "\n")
    }

    /// `subfix -h`: the commands, one line each, and where the rest is.
    static func briefOverview(_ table: [CommandSpec], width: Int = defaultWidth) -> String {
        var lines = ["usage: subfix COMMAND [options]", "", "commands:"]
        for spec in table { lines += row(spec.name, spec.summary, width: width) }
        lines +=
            [""]
            + wrapped(
                "'subfix COMMAND -h' shows a command's usage and its most used options, 'subfix --help' and 'subfix"
                    + " COMMAND --help' everything.", width: width)
        return lines.joined(separator: "\n")
    }

    /// A two-column row: `left` in 26 columns after 2 spaces, `right` wrapped beside it to `width` (below it when
    /// `left` fills its column).
    private static func row(_ left: String, _ right: String, width: Int) -> [String] {
        let indent = String(repeating: " ", count: 28)
        let text = wrapped(right, width: max(20, width - indent.count))
        guard !text.isEmpty else { return ["  " + left] }
        guard left.count < 26 else { return ["  " + left] + text.map { indent + $0 } }
        let first = "  " + left + String(repeating: " ", count: 26 - left.count)
        return text.enumerated().map { ($0.offset == 0 ? first : indent) + $0.element }
    }

    /// `text` (a discussion) as paragraphs wrapped to `width`: lines are joined within a paragraph, paragraphs
    /// are separated by a blank line, and indented lines (examples) are kept as they are.
    static func paragraphs(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var paragraph: [Substring] = []
        func flush() {
            if !paragraph.isEmpty { lines += wrapped(paragraph.joined(separator: " "), width: width) }
            paragraph = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                flush()
                lines.append("")
            } else if line.first == " " {
                flush()
                lines.append(String(line))
            } else {
                paragraph.append(line)
            }
        }
        flush()
        return lines
    }

    /// `text` broken at spaces into lines of at most `width` characters (a longer word gets its own line).
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
