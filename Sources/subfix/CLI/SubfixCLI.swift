import SubCore
import SubDB
import SubfixLibrary

/// The entry point shared by the executable and the tests: parse, dispatch, map errors to exit codes.
enum SubfixCLI {
    /// subfix's own version.
    static let version = "0.1.0"

    /// Runs one command line (without the program name) and returns its exit status.
    static func run(_ arguments: [String], io: CommandIO, table: [CommandSpec] = commandTable) -> ExitStatus {
        do {
            return try dispatch(arguments, io: io, table: table)
        } catch let error as UsageError {
            io.error(error.message)
            return .usage
        } catch let error as ConfigFileError {
            io.error(error.message, file: error.location)
            return .usage
        } catch {
            io.error(error)
            return .someFailed
        }
    }

    private static func dispatch(_ given: [String], io: CommandIO, table: [CommandSpec]) throws -> ExitStatus {
        let (global, arguments) = try leadingGlobalOptions(given)
        guard let first = arguments.first else {
            io.printError(Help.overview(table))
            throw UsageError.missingCommand
        }
        let width = helpWidth(io)
        switch first {
        case "--help", "-h", "help":
            if first == "help", arguments.count > 1, let spec = table.first(where: { $0.name == arguments[1] }) {
                io.print(Help.command(spec, width: width))
            } else {
                io.print(first == "-h" ? Help.briefOverview(table, width: width) : Help.overview(table, width: width))
            }
            return .success
        case "--version":
            versionLines().forEach(io.print)
            return .success
        case GeneratedDocs.option:
            return try GeneratedDocs.run(Array(arguments.dropFirst()), io: io, table: table)
        default:
            break
        }
        guard let spec = table.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") {
                throw UsageError.unknownOption(
                    first, command: "",
                    suggestion: nearestCandidate(to: first, in: ["--help", "--version"]))
            }
            throw UsageError.unknownCommand(first, suggestion: nearestCandidate(to: first, in: table.map(\.name)))
        }
        let tokens = tokenize(global + Array(arguments.dropFirst()))
        var parsed = try parse(tokens, for: spec)
        if parsed.has(.help) {
            // `-h` alone is the short usage; `--help` (given at all) the whole text.
            let full = tokens.contains(.long(name: OptionKey.help.name, value: nil))
            io.print(full ? Help.command(spec, width: width) : Help.brief(spec, width: width))
            return .success
        }
        parsed.defaults = try UserConfig.load(environment: io.environment) { unreadable in
            io.warning(unreadable.message + " (running without its defaults)", file: unreadable.location)
        }.defaults(for: spec)
        // Under --json, errors are also objects on standard output, including a whole command's failure.
        let commandIO = parsed.has(.json) ? io.reportingErrorsAsJSON() : io
        do {
            return try spec.run(parsed, commandIO)
        } catch let error as CommandFailure where commandIO.errorsAsJSON {
            commandIO.error(error.cause, file: error.file)
            return .someFailed
        } catch  where commandIO.errorsAsJSON && !(error is UsageError) {
            commandIO.error(String(describing: error))
            return .someFailed
        }
    }

    /// The columns help is wrapped to: the terminal's, else `$COLUMNS`, else `Help.defaultWidth`; at least 40.
    static func helpWidth(_ io: CommandIO) -> Int {
        max(40, io.terminalColumns ?? io.environment["COLUMNS"].flatMap { Int($0) } ?? Help.defaultWidth)
    }

    /// Options given before the command that belong to it, such as `subfix --db lib.sqlite search 你好` (as
    /// `git -C DIR log`): `--db VALUE` or `--db=VALUE`, moved after the command's own arguments.
    private static func leadingGlobalOptions(_ arguments: [String]) throws(UsageError) -> ([String], [String]) {
        var moved: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if first.hasPrefix("--db=") {
                moved.append(first)
                rest = rest.dropFirst()
            } else if first == "--db" {
                guard rest.count > 1 else { throw .missingValue(option: OptionKey.db.name, placeholder: "PATH") }
                moved += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        return (moved, Array(rest))
    }

    /// `subfix --version`: subfix's version, then each linked C library's own report.
    static func versionLines() -> [String] {
        ["subfix \(version)", "SQLite \(SQLiteLibrary.version)"]
            + LinkedLibraries.all.map { "\($0.name) \($0.version)" }
    }
}
