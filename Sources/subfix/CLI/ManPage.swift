import Foundation

/// The man pages, written in roff from the command table: `subfix(1)` (the commands, global options,
/// environment and files) and `subfix-COMMAND(1)` per command (its arguments, every option with the help
/// `--help` shows, and the discussion). `make install` writes them with `subfix --generate man [COMMAND]`.
enum ManPage {
    /// The environment variables subfix reads, with what each one does (documented in subfix(1)).
    static let environment: [(name: String, help: String)] = [
        (
            "SUBFIX_DB",
            "The library database when --db is not given: a SQLite file, or a postgresql:// URL (every command"
                + " then keeps its index, font catalog, queue and job log on that server; a password in it is never"
                + " printed). It comes before the config file's db."
        ),
        (
            "XDG_CONFIG_HOME",
            "The config file is $XDG_CONFIG_HOME/subfix/config (default ~/.config/subfix/config); see FILES."
        ),
        (
            "SUBFIX_FONTS_DIR",
            "A folder holding the bundled font (NotoSansCJKsc-Subset.otf), searched before the installed one"
                + " (../share/subfix/fonts from the folder of the executable) and, for a build inside a checkout,"
                + " the checkout's Fonts/ folder. When none holds it, fix warns on every run that the names it"
                + " writes will not resolve on this machine."
        ),
        (
            "SUBFIX_MAX_INPUT_SIZE",
            "The largest subtitle file read, such as 2G or 512M (default 256M); larger files are refused."
        ),
        (
            "XDG_DATA_HOME",
            "The library database is $XDG_DATA_HOME/subfix/library.sqlite (default"
                + " ~/.local/share/subfix/library.sqlite) unless --db says otherwise."
        ),
        ("FONTCONFIG_FILE", "fontconfig's configuration, which decides the system fonts subfix and libass see."),
        ("NO_COLOR", "When set and not empty, search does not colour its matches (unless --color always)."),
    ]

    /// The FILES entry of the config file: its keys come from `UserConfig.keys`.
    static var configFile: String {
        "Defaults a user sets once, one key = value a line; lines starting with # and blank lines are ignored."
            + " Keys: " + UserConfig.keys.map(\.name).joined(separator: ", ")
            + " (each the default of the option of that name, for the commands that have it; fonts-dir may be"
            + " given more than once; paths are absolute or start with ~/). An option given on the command line"
            + " wins, then the environment (SUBFIX_DB), then this file, then the built-in default. An unknown key, a"
            + " line without =, a bad value or a file that cannot be read is an error naming the file and line"
            + " (exit status 2)."
    }

    /// `subfix(1)`: the overview page.
    static func overview(_ table: [CommandSpec], version: String) -> String {
        var page = header(title: "SUBFIX", version: version)
        page += [".SH NAME", "subfix \\- " + text(lowercasedFirst(Help.description))]
        page += [".SH SYNOPSIS", ".B subfix", "\\fICOMMAND\\fR [\\fIoptions\\fR]", ".br"]
        page += [".B subfix", "\\fICOMMAND\\fR \\fB\\-\\-help\\fR"]
        page += [".SH DESCRIPTION", text(Help.description)]
        page += [
            ".PP",
            text("Each command has its own page, subfix-COMMAND(1), and its own --help."),
            ".SH COMMANDS",
        ]
        for spec in table {
            page += [".TP", "\\fB\(text(spec.name))\\fR", text(spec.summary)]
            page += ["See \\%\\fBsubfix\\-\(text(spec.name))\\fR(1)."]
        }
        page += [".SH OPTIONS"]
        for option in Help.globalOptions { page += optionItem(option) }
        page += footer(seeAlso: table.map { "subfix-" + $0.name })
        return page.joined(separator: "\n")
    }

    /// `subfix-COMMAND(1)`.
    static func command(_ spec: CommandSpec, version: String) -> String {
        let name = "subfix-" + spec.name
        var page = header(title: name.uppercased(), version: version)
        page += [".SH NAME", text(name) + " \\- " + text(lowercasedFirst(spec.summary))]
        page += [".SH SYNOPSIS", ".B subfix \(text(spec.name))"]
        var synopsis: [String] = []
        for positional in spec.positionals {
            let argument = "\\fI\(text(positional.name))\\fR" + (positional.maximum == 1 ? "" : "...")
            synopsis.append(positional.minimum > 0 ? argument : "[\(argument)]")
        }
        page.append((synopsis + ["[\\fIoptions\\fR]"]).joined(separator: " "))
        page += [".SH DESCRIPTION", text(spec.summary)]
        if !spec.positionals.isEmpty {
            page += [".SH ARGUMENTS"]
            for positional in spec.positionals {
                page += [".TP", "\\fI\(text(positional.name))\\fR", text(positional.help)]
            }
        }
        page += [".SH OPTIONS"]
        for option in spec.options { page += optionItem(option) }
        if !spec.discussion.isEmpty {
            page += [".SH NOTES"] + paragraphs(spec.discussion)
        }
        page += footer(seeAlso: ["subfix"])
        return page.joined(separator: "\n")
    }

    private static func header(title: String, version: String) -> [String] {
        [
            ".\\\" Generated by `subfix --generate man` from subfix's command table; do not edit.",
            ".TH \(text(title)) 1 \"\" \"subfix \(text(version))\" \"User Commands\"",
        ]
    }

    /// ENVIRONMENT, FILES, EXIT STATUS and SEE ALSO: the same on every page.
    private static func footer(seeAlso: [String]) -> [String] {
        var lines = [".SH ENVIRONMENT"]
        for variable in environment {
            lines += [".TP", "\\fB\(text(variable.name))\\fR", text(variable.help)]
        }
        lines += [
            ".SH FILES",
            ".TP",
            "\\fI$XDG_CONFIG_HOME/subfix/config\\fR, \\fI~/.config/subfix/config\\fR",
            text(configFile),
            ".TP",
            "\\fIPREFIX/share/subfix/fonts/NotoSansCJKsc\\-Subset.otf\\fR",
            text(
                "The bundled font (Noto Sans CJK SC, cut to about 10,500 characters), which subfix registers with"
                    + " fontconfig's fonts and rewrites font names to; PREFIX is the folder above the one holding"
                    + " the subfix executable."),
            ".SH EXIT STATUS",
            text(
                "0 when everything succeeded, 1 when some inputs failed (the others are still processed), 2 on a"
                    + " usage error."),
            ".SH SEE ALSO",
            seeAlso.map { "\\%\\fB\(text($0))\\fR(1)" }.joined(separator: ", ") + ", \\fBfc\\-list\\fR(1)",
        ]
        return lines
    }

    /// An option as a tagged paragraph: `\fB-h\fR, \fB--help\fR` then its help.
    private static func optionItem(_ option: OptionSpec) -> [String] {
        var tag = option.short.map { "\\fB\\-\(text(String($0)))\\fR, " } ?? ""
        tag += "\\fB\\-\\-\(text(option.name))\\fR"
        if case .value(let placeholder) = option.kind { tag += " \\fI\(text(placeholder))\\fR" }
        return [".TP", tag, text(Help.optionHelp(option))]
    }

    /// A discussion's blank-line-separated paragraphs, each filled by roff.
    private static func paragraphs(_ discussion: String) -> [String] {
        var lines: [String] = []
        var paragraph: [String] = []
        func flush() {
            guard !paragraph.isEmpty else { return }
            lines += [".PP", text(paragraph.joined(separator: " "))]
            paragraph = []
        }
        for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { flush() } else { paragraph.append(trimmed) }
        }
        flush()
        return lines
    }

    /// `value` as roff text: backslashes as `\e`, hyphens as `\-` (so options copy-paste as ASCII), anything
    /// outside ASCII as `\[uXXXX]`, and a leading `.` or `'` (a request) guarded by `\&`.
    static func text(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "\n", "\r", "\t": out += " "
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: continue
            case _ where scalar.value > 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    private static func lowercasedFirst(_ sentence: String) -> String {
        var words = sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
        if let first = words.first, first.isUppercase, words.dropFirst().first?.isLowercase ?? false {
            words = first.lowercased() + words.dropFirst()
        }
        return words
    }
}
