import SubCore

/// The paths a command is given, where `-` stands for a list read from standard input: one path per line, or
/// NUL-separated with `-0` (as `xargs -0`), so `find … -print0 | subfix fix - -0 --out o` works. Paths are
/// bytes: a name that is not UTF-8 still names its file (`PathBytes`).
enum PathArguments {
    /// The `-0` row of the commands that take paths.
    static let nullOption = OptionSpec.flag(
        .null, short: "0", "With '-': the paths on standard input end with NUL, not a newline (find -print0).")

    /// The positionals with `-` replaced by the paths read from standard input (read once).
    static func expand(_ arguments: ParsedArguments, io: CommandIO) throws(UsageError) -> [String] {
        let null = arguments.has(.null)
        guard arguments.positionals.contains("-") else {
            if null {
                throw .meaningless(OptionKey.null.name, without: "'-' among the paths (the list on standard input)")
            }
            return arguments.positionals
        }
        let separator: UInt8 = null ? 0 : 10
        let listed = io.readInput().split(separator: separator, omittingEmptySubsequences: true).map { bytes in
            PathBytes.decode(null ? Array(bytes) : Array(bytes.last == 13 ? bytes.dropLast() : bytes))
        }
        return arguments.positionals.flatMap { $0 == "-" ? listed : [$0] }
    }
}
