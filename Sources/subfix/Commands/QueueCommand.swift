import Foundation
import SubfixLibrary
import SubfixPostgres

/// `subfix queue add PATH...` and `subfix queue status`: the shared work queue in a PostgreSQL library.
enum QueueCommand {
    static let spec = CommandSpec(
        name: "queue",
        summary: "Add jobs to the shared PostgreSQL work queue, or show its counts.",
        positionals: [
            PositionalSpec(
                name: "ACTION [PATH...]", minimum: 1, maximum: nil,
                help: "add PATH... (files, or folders walked as `subfix index` walks them), or status.")
        ],
        options: [
            PostgresBackend.option,
            .flag(
                .json, "status: one object {\"type\":\"queue\",\"pending\":…,\"running\":…,\"done\":…,\"failed\":…}."),
        ],
        discussion: """
            Jobs index files into the library (`subfix worker` runs them, on any machine that sees the same paths).
            A running job whose worker died returns to the queue when its lease expires; status counts it as
            pending. Exit status: 0 done, 1 a path or the database failed, 2 usage error.
            """,
        run: { arguments, io in try run(arguments, io: io) })

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let url = try PostgresBackend.requiredURL(arguments, io: io)
        let action = arguments.positionals.first ?? ""
        let paths = Array(arguments.positionals.dropFirst())
        switch action {
        case "add":
            guard !paths.isEmpty else { throw UsageError.missingArgument(command: "queue add", name: "PATH") }
            return add(paths, url: url, io: io)
        case "status":
            guard paths.isEmpty else {
                throw UsageError.unexpectedArgument(command: "queue status", argument: paths[0])
            }
            return status(url: url, json: arguments.has(.json), io: io)
        default:
            throw UsageError.invalidValue(option: "ACTION", value: action, expected: "add or status")
        }
    }

    static func add(_ paths: [String], url: PostgresURL, io: CommandIO) -> ExitStatus {
        let (inputs, _, failures) = IndexInputs.collect(paths)
        for (path, cause) in failures { io.error(cause, file: path) }
        guard let library = PostgresBackend.open(url, io: io) else { return .someFailed }
        do {
            let ids = try PostgresQueue(connection: library.connection).add(.index, paths: inputs.map(\.path))
            io.print("\(ids.count) job\(ids.count == 1 ? "" : "s") added")
        } catch {
            io.error(PostgresBackend.message(error))
            return .someFailed
        }
        return failures.isEmpty ? .success : .someFailed
    }

    static func status(url: PostgresURL, json: Bool, io: CommandIO) -> ExitStatus {
        guard let library = PostgresBackend.open(url, io: io) else { return .someFailed }
        do {
            let counts = try PostgresQueue(connection: library.connection).status()
            if json {
                io.printJSON(
                    .typed(
                        "queue",
                        [
                            ("pending", .int(counts.pending)), ("running", .int(counts.running)),
                            ("done", .int(counts.done)), ("failed", .int(counts.failed)),
                        ]))
            } else {
                io.print(
                    "\(counts.pending) pending, \(counts.running) running, \(counts.done) done, \(counts.failed) failed"
                )
            }
        } catch {
            io.error(PostgresBackend.message(error))
            return .someFailed
        }
        return .success
    }
}
