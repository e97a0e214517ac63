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
        } catch let error as CommandFailure {
            io.error(error.cause, file: error.file)
            return .someFailed
        } catch {
            io.error(String(describing: error))
            return .someFailed
        }
    }

    private static func dispatch(_ arguments: [String], io: CommandIO, table: [CommandSpec]) throws -> ExitStatus {
        guard let first = arguments.first else {
            io.printError(Help.overview(table))
            throw UsageError.missingCommand
        }
        switch first {
        case "--help", "-h", "help":
            if first == "help", arguments.count > 1, let spec = table.first(where: { $0.name == arguments[1] }) {
                io.print(Help.command(spec))
            } else {
                io.print(Help.overview(table))
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
        let parsed = try parse(tokenize(Array(arguments.dropFirst())), for: spec)
        if parsed.has(.help) {
            io.print(Help.command(spec))
            return .success
        }
        return try spec.run(parsed, io)
    }

    /// `subfix --version`: subfix's version, then each linked C library's own report.
    static func versionLines() -> [String] {
        ["subfix \(version)", "SQLite \(SQLiteLibrary.version)"]
            + LinkedLibraries.all.map { "\($0.name) \($0.version)" }
    }
}

/// A failure of a whole command that is not a usage error: printed as `subfix: error: <file>: <cause>`, exit 1.
struct CommandFailure: Error, Sendable {
    var file: String?
    var cause: String
}
