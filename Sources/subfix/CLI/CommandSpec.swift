/// One option of a command: `--name VALUE` or a `--flag`, as one row of the argument table.
struct OptionSpec: Sendable {
    /// What the option takes.
    enum Kind: Sendable, Equatable {
        /// A switch without a value, such as `--json`.
        case flag
        /// An option followed by a value, shown in help as the placeholder, such as `DIR`.
        case value(placeholder: String)
    }

    var name: String
    var short: Character?
    var kind: Kind
    /// Whether the option may be given more than once (its values are collected in order).
    var repeatable: Bool
    var help: String

    /// The option's typed key.
    var key: OptionKey { OptionKey(name) }

    static func flag(_ key: OptionKey, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: key.name, short: short, kind: .flag, repeatable: false, help: help)
    }

    /// `-q/--quiet` of the commands that print a line (or JSON object) per file: `help` says what is still printed.
    static func quiet(_ help: String) -> OptionSpec { .flag(.quiet, short: "q", help) }

    static func value(
        _ key: OptionKey, _ placeholder: String, short: Character? = nil, repeatable: Bool = false, _ help: String
    ) -> OptionSpec {
        OptionSpec(
            name: key.name, short: short, kind: .value(placeholder: placeholder), repeatable: repeatable, help: help)
    }
}

/// A positional argument of a command, such as `PATH...`.
struct PositionalSpec: Sendable {
    var name: String
    var minimum: Int
    /// `nil` for no upper bound.
    var maximum: Int?
    var help: String
}

/// A row of the command table: what a command is called, what it takes, and what runs it.
struct CommandSpec: Sendable {
    var name: String
    var summary: String
    var positionals: [PositionalSpec]
    var options: [OptionSpec]
    /// Extra paragraphs shown at the end of `subfix COMMAND --help`.
    var discussion: String
    var run: @Sendable (ParsedArguments, CommandIO) throws -> ExitStatus

    init(
        name: String, summary: String, positionals: [PositionalSpec] = [], options: [OptionSpec],
        discussion: String = "", run: @escaping @Sendable (ParsedArguments, CommandIO) throws -> ExitStatus
    ) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        // Every command understands --help.
        self.options = options + [.flag(.help, short: "h", "Show this help.")]
        self.discussion = discussion
        self.run = run
    }

    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }
    func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }
}

/// How a run ended, as the process exit code.
enum ExitStatus: Int32, Sendable {
    /// Everything succeeded.
    case success = 0
    /// Some inputs failed; the others were processed.
    case someFailed = 1
    /// The command line could not be understood.
    case usage = 2
}
