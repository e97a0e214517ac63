/// `subfix --generate man [COMMAND] | bash | zsh | fish | commands`: prints a man page, a completion script,
/// or the command names (one a line) to standard output, all from the command table. Hidden from `--help`:
/// it is for `make install` and `make deb`, which write what it prints into the install tree.
enum GeneratedDocs {
    /// The hidden option that asks for generated files.
    static let option = "--generate"
    /// What `--generate` takes.
    static let kinds = ["man", "bash", "zsh", "fish", "commands"]

    /// Prints what `arguments` (the words after `--generate`) ask for.
    static func run(_ arguments: [String], io: CommandIO, table: [CommandSpec]) throws(UsageError) -> ExitStatus {
        guard let kind = arguments.first else {
            throw .missingValue(option: "generate", placeholder: kinds.joined(separator: "|"))
        }
        let rest = arguments.dropFirst()
        if kind == "man", let name = rest.first {
            guard let spec = table.first(where: { $0.name == name }) else {
                throw .unknownCommand(name, suggestion: nearestCandidate(to: name, in: table.map(\.name)))
            }
            if let extra = rest.dropFirst().first { throw .unexpectedArgument(command: option, argument: extra) }
            io.print(ManPage.command(spec, version: SubfixCLI.version))
            return .success
        }
        if let extra = rest.first { throw .unexpectedArgument(command: option, argument: extra) }
        switch kind {
        case "man": io.print(ManPage.overview(table, version: SubfixCLI.version))
        case "bash": io.print(BashCompletion.script(table))
        case "zsh": io.print(ZshCompletion.script(table))
        case "fish": io.print(FishCompletion.script(table))
        case "commands": table.forEach { io.print($0.name) }
        default:
            throw .invalidValue(option: "generate", value: kind, expected: kinds.joined(separator: ", "))
        }
        return .success
    }
}
