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

    static func command(_ spec: CommandSpec) -> String {
        var lines = ["usage: " + usageLine(for: spec), "", spec.summary]
        if !spec.positionals.isEmpty {
            lines += ["", "arguments:"]
            for positional in spec.positionals {
                lines.append(row(positional.name, positional.help))
            }
        }
        lines += ["", "options:"]
        for option in spec.options {
            lines.append(row(optionLabel(option), optionHelp(option)))
        }
        if !spec.discussion.isEmpty { lines += ["", spec.discussion] }
        return lines.joined(separator: "\n")
    }

    static func overview(_ table: [CommandSpec]) -> String {
        var lines = ["usage: subfix COMMAND [options]", ""] + wrapped(description, width: 90) + ["", "commands:"]
        for spec in table { lines.append(row(spec.name, spec.summary)) }
        lines += ["", "options:"]
        for option in globalOptions { lines.append(row(optionLabel(option), optionHelp(option))) }
        lines += ["", exitStatus]
        return lines.joined(separator: "\n")
    }

    private static func row(_ left: String, _ right: String) -> String {
        let padded = left.count < 26 ? left + String(repeating: " ", count: 26 - left.count) : left + "  "
        return "  " + padded + right
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
