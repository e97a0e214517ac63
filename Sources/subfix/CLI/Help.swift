/// Renders `subfix --help` and `subfix COMMAND --help` from the command table.
enum Help {
    static func usageLine(for spec: CommandSpec) -> String {
        var parts = ["subfix", spec.name]
        for positional in spec.positionals {
            let name = positional.maximum == 1 ? positional.name : positional.name + "..."
            parts.append(positional.minimum > 0 ? name : "[\(name)]")
        }
        parts.append("[options]")
        return parts.joined(separator: " ")
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
            var left = (option.short.map { "-\($0), " } ?? "") + "--" + option.name
            if case .value(let placeholder) = option.kind { left += " " + placeholder }
            lines.append(row(left, option.help + (option.repeatable ? " (repeatable)" : "")))
        }
        if !spec.discussion.isEmpty { lines += ["", spec.discussion] }
        return lines.joined(separator: "\n")
    }

    static func overview(_ table: [CommandSpec]) -> String {
        var lines = [
            "usage: subfix COMMAND [options]",
            "",
            "Makes CJK subtitles render: rewrites the fonts they name, extracts embedded tracks,",
            "renders frames to check them, and indexes dialogue for search.",
            "",
            "commands:",
        ]
        for spec in table { lines.append(row(spec.name, spec.summary)) }
        lines += [
            "",
            "options:",
            row("-h, --help", "Show this help; 'subfix COMMAND --help' for a command."),
            row("--version", "Show the versions of subfix and of the libraries it links."),
            "",
            "Exit status: 0 all good, 1 some inputs failed, 2 usage error.",
        ]
        return lines.joined(separator: "\n")
    }

    private static func row(_ left: String, _ right: String) -> String {
        let padded = left.count < 26 ? left + String(repeating: " ", count: 26 - left.count) : left + "  "
        return "  " + padded + right
    }
}
