import Foundation
import Testing

@testable import subfix

/// The man pages and completions `subfix --generate` prints: every command and option of the table in each,
/// valid for the real tools (groff and man, bash, zsh, fish), working completions, and help texts full of shell
/// and roff syntax that stay text.
@Suite struct GeneratedDocsTests {
    /// Every generated file for `table`, by kind (`man` is the overview page, `man-NAME` a command's).
    static func generate(_ table: [CommandSpec]) throws -> [String: String] {
        var files: [String: String] = [:]
        for kind in ["man", "bash", "zsh", "fish", "commands"] {
            files[kind] = try generated([kind], table: table)
        }
        for spec in table { files["man-" + spec.name] = try generated(["man", spec.name], table: table) }
        return files
    }

    static func generated(_ arguments: [String], table: [CommandSpec] = commandTable) throws -> String {
        let (io, output) = CommandIO.capturing()
        let status = SubfixCLI.run(["--generate"] + arguments, io: io, table: table)
        try #require(status == .success, "--generate \(arguments): \(output.stderr)")
        return output.stdout
    }

    /// The lines of `text` from the one equal to `start` up to (not including) the next one starting with `end`.
    static func block(_ text: String, from start: String, until end: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.firstIndex(of: start) else { return "" }
        let rest = lines[(first + 1)...]
        let last = rest.firstIndex { $0.hasPrefix(end) } ?? lines.endIndex
        return lines[first..<last].joined(separator: "\n")
    }

    @Test func everyCommandAndOptionAppearsInEachFormat() throws {
        let files = try Self.generate(commandTable)
        #expect(files["commands"] == commandTable.map { $0.name + "\n" }.joined())
        let overview = try #require(files["man"])
        let bash = try #require(files["bash"])
        let zsh = try #require(files["zsh"])
        let fish = try #require(files["fish"])
        for option in Help.globalOptions {
            #expect(overview.contains("\\fB\\-\\-\(ManPage.text(option.name))\\fR"), "subfix.1: --\(option.name)")
            let words = commandTable.map(\.name) + ["--help", "-h", "--version"]
            #expect(bash.contains("'" + words.joined(separator: " ") + "'"))
            let zshBlock = Self.block(zsh, from: "_subfix() {", until: "}")
            #expect(zshBlock.contains("--\(option.name)[") || zshBlock.contains(",--\(option.name)}"))
            #expect(
                fish.contains(
                    "complete -c subfix -n __fish_use_subcommand \(option.short.map { "-s \($0) " } ?? "")-l \(option.name) "
                ))
        }
        for spec in commandTable {
            #expect(overview.contains("\\fB\(ManPage.text(spec.name))\\fR"), "subfix.1: \(spec.name)")
            #expect(overview.contains("\\fBsubfix\\-\(ManPage.text(spec.name))\\fR(1)"))
            #expect(Self.block(zsh, from: "_subfix() {", until: "}").contains("'\(spec.name):"))
            #expect(fish.contains("complete -c subfix -n __fish_use_subcommand -a \(spec.name) -d "))
            let page = try #require(files["man-" + spec.name])
            #expect(page.contains(".TH SUBFIX\\-\(ManPage.text(spec.name.uppercased())) 1 "))
            let bashBlock = Self.block(bash, from: "    \(spec.name))", until: "        ;;")
            let zshBlock = Self.block(zsh, from: "_subfix_\(spec.name)() {", until: "}")
            let fishLines = fish.split(separator: "\n").filter {
                $0.contains("'__fish_seen_subcommand_from \(spec.name)'")
            }
            let bashWords =
                bashBlock.split(separator: "\n").first { $0.contains("compgen -W '--") }?
                .split(separator: "'").dropFirst().first?.split(separator: " ").map(String.init) ?? []
            for option in spec.options {
                let long = "--" + option.name
                var manTag = "\\fB\\-\\-\(ManPage.text(option.name))\\fR"
                if let short = option.short { manTag = "\\fB\\-\(short)\\fR, " + manTag }
                #expect(page.contains(".TP\n" + manTag), "subfix-\(spec.name).1: \(long)")
                #expect(page.contains(ManPage.text(Help.optionHelp(option))), "subfix-\(spec.name).1: \(long) help")
                #expect(bashWords.contains(long), "bash: \(spec.name) \(long)")
                if let short = option.short { #expect(bashWords.contains("-\(short)"), "bash: \(spec.name) -\(short)") }
                #expect(
                    zshBlock.contains("'\(long)[") || zshBlock.contains("'\(long)=[") || zshBlock.contains(",\(long)}")
                        || zshBlock.contains(",\(long)=}") || zshBlock.contains("'*\(long)=["),
                    "zsh: \(spec.name) \(long)")
                #expect(fishLines.contains { $0.contains(" -l \(option.name) ") }, "fish: \(spec.name) \(long)")
                if case .value = option.kind {
                    #expect(bashBlock.contains("        \(long)"), "bash completes the value of \(spec.name) \(long)")
                }
            }
        }
    }

    /// The files as the tools see them: no groff warning, `man` renders every option, and the three shells parse
    /// their scripts.
    @Test func realToolsAcceptTheGeneratedFiles() throws {
        try Self.checkWithTools(commandTable)
    }

    static func checkWithTools(_ table: [CommandSpec]) throws {
        let folder = try InstallSupport.folder("generated")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try generate(table)
        for (kind, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(kind)) }
        for shell in ["bash", "zsh", "fish"] {
            let result = try InstallSupport.run([shell, "-n", folder.appendingPathComponent(shell).path])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(shell) -n: \(result.stderr)")
        }
        for page in ["man"] + table.map({ "man-" + $0.name }) {
            let path = folder.appendingPathComponent(page).path
            let groff = try InstallSupport.run(["groff", "-man", "-ww", "-z", "-Tutf8", path])
            #expect(groff.status == 0 && groff.stderr.isEmpty, "groff \(page): \(groff.stderr)")
            let man = try InstallSupport.run(
                ["man", "-l", path], environment: ["MANWIDTH": "250", "MAN_KEEP_FORMATTING": ""])
            #expect(man.status == 0 && man.stderr.isEmpty, "man -l \(page): \(man.stderr)")
            let options = page == "man" ? Help.globalOptions : table.first { "man-" + $0.name == page }?.options ?? []
            for option in options {
                #expect(man.stdout.contains("--" + option.name), "man -l \(page) shows --\(option.name)")
            }
        }
    }

    /// Bash and fish complete commands, options and option values from the scripts as installed.
    @Test func completionsComplete() throws {
        let folder = try InstallSupport.folder("completion")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bashScript = folder.appendingPathComponent("subfix.bash").path
        try Data(try Self.generated(["bash"]).utf8).write(to: URL(fileURLWithPath: bashScript))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("my shows"), withIntermediateDirectories: true)
        func bash(_ words: [String]) throws -> [String] {
            let quoted = words.map { BashCompletion.quoted($0) }.joined(separator: " ")
            let script = """
                source \(BashCompletion.quoted(bashScript)); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                _subfix; printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try InstallSupport.run(["bash", "-c", script], in: folder.path)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try bash(["subfix", "se"]) == ["search"])
        #expect(try bash(["subfix", "fix", "--pol"]) == ["--policy"])
        #expect(try bash(["subfix", "fix", "--policy", ""]) == ["text", "all", "cjk", "missing"])
        #expect(try bash(["subfix", "fix", "--out", "my"]) == ["my shows"])
        #expect(try bash(["subfix", "search", "--lim"]) == ["--limit"])

        let fishScript = folder.appendingPathComponent("subfix.fish").path
        try Data(try Self.generated(["fish"]).utf8).write(to: URL(fileURLWithPath: fishScript))
        func fish(_ line: String) throws -> [String] {
            let result = try InstallSupport.run(
                [
                    "fish", "--no-config", "-c",
                    "source \(BashCompletion.quoted(fishScript)); complete -C \(BashCompletion.quoted(line))",
                ],
                in: folder.path)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try fish("subfix ren") == ["render"])
        #expect(try fish("subfix fix --no-sys") == ["--no-system-fonts"])
        #expect(try fish("subfix fix --policy ").sorted() == ["all", "cjk", "missing", "text"])
    }

    /// Help texts are written by people: quotes, backslashes, brackets, colons, `$(...)`, a leading dot and CJK
    /// text must come out as text in every format, never as syntax (or a command the shell runs).
    @Test func hostileHelpTextStaysText() throws {
        let nasty = "It's a \"test\" of \\fB, [brackets]: $(touch pwned) `touch pwned` ; & | 字幕 — done"
        let spec = CommandSpec(
            name: "odd-name", summary: ".TH nasty summary: it's \\ here",
            positionals: [PositionalSpec(name: "PATH", minimum: 0, maximum: nil, help: "'.B' \\e \(nasty)")],
            options: [
                .value(OptionKey("with-value"), "A|b'c", nasty),
                .value(OptionKey("dir"), "DIR", repeatable: true, "\n.SH INJECTED\n" + nasty),
                .flag(OptionKey("quiet"), short: "q", "'single' and \\ backslash. Second sentence."),
            ],
            discussion: ".PP\n'quoted line\n\n\\fIitalic?\\fR \(nasty)",
            run: { _, _ in .success })
        try Self.checkWithTools([spec])
        let files = try Self.generate([spec])
        let page = try #require(files["man-odd-name"])
        #expect(!page.contains("\n.SH INJECTED"))
        #expect(!page.contains("\n'quoted"))
        let folder = try InstallSupport.folder("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        for shell in ["bash", "zsh", "fish"] {
            let path = folder.appendingPathComponent("script").path
            try Data((files[shell] ?? "").utf8).write(to: URL(fileURLWithPath: path))
            let complete =
                shell == "bash" ? "COMP_WORDS=(subfix odd-name --with-value ''); COMP_CWORD=3; _subfix" : ":"
            _ = try InstallSupport.run(
                [shell, "-c", shell == "fish" ? "source \(path)" : ". \(path); \(complete)"], in: folder.path)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("pwned").path))
        let fish = try InstallSupport.run(
            ["fish", "--no-config", "-c", "source \(folder.path)/script; complete -C 'subfix odd-name --with'"],
            in: folder.path)
        #expect(fish.stdout == "--with-value\t\(CompletionValue.shortHelp(nasty))\n")
    }

    @Test func hiddenFromHelpAndStrictAboutItsArguments() {
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["--help"], io: io) == .success)
        #expect(!output.stdout.contains("generate"))
        let cases: [([String], String)] = [
            ([], "subfix: error: option '--generate' needs a value (man|bash|zsh|fish|commands)"),
            (["pdf"], "subfix: error: invalid value 'pdf' for '--generate' (expected man, bash, zsh, fish, commands)"),
            (["man", "fixx"], "subfix: error: unknown command 'fixx' (did you mean 'fix'?)"),
            (["man", "fix", "more"], "subfix: error: '--generate' does not take the argument 'more'"),
            (["bash", "extra"], "subfix: error: '--generate' does not take the argument 'extra'"),
        ]
        for (arguments, message) in cases {
            let (io, output) = CommandIO.capturing()
            #expect(SubfixCLI.run(["--generate"] + arguments, io: io) == .usage)
            #expect(output.stderr == message + "\n")
            #expect(output.stdout.isEmpty)
        }
    }
}
