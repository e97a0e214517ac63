import Dispatch
import Foundation
import SubCore
import SubfixLibrary
import SubfixPostgres
import Synchronization

/// Where the library database is: `--db PATH`, else the XDG default.
enum LibraryLocation {
    /// The `--db PATH` row of every command that reads the library or records its run there.
    static let option = OptionSpec.value(
        .db, "PATH",
        "The library database: a SQLite file, or postgresql://[user[:password]@]host[:port]/dbname (default: "
            + "$SUBFIX_DB, else the config file's db, else $XDG_DATA_HOME/subfix/library.sqlite).")

    /// The path `--db` gives, else `$SUBFIX_DB`, else the config file's `db`, else
    /// `$XDG_DATA_HOME/subfix/library.sqlite` or
    /// `$HOME/.local/share/subfix/library.sqlite`; nil when none of them is set.
    static func path(_ arguments: ParsedArguments, io: CommandIO) throws(UsageError) -> String? {
        guard let path = try located(arguments, io: io) else { return nil }
        // SQLite opens a file by its UTF-8 name: a name with other bytes (kept by `PathBytes` from the command
        // line or the environment) would make a library under another name.
        guard !PathBytes.hasRawBytes(path) else {
            throw UsageError.invalidValue(
                option: OptionKey.db.name, value: path, expected: "a UTF-8 path; SQLite cannot open other names")
        }
        return path
    }

    /// Where the library is, before its name is checked.
    private static func located(_ arguments: ParsedArguments, io: CommandIO) throws(UsageError) -> String? {
        if let path = arguments.given(.db) {
            guard !path.isEmpty else {
                throw UsageError.invalidValue(option: OptionKey.db.name, value: path, expected: "a file path")
            }
            // Every command takes a URL before it asks for a SQLite path; one that reaches here with a URL is a bug
            // caught as a usage error rather than a file named "postgresql:".
            if PostgresBackend.isURL(path) { throw PostgresBackend.sqliteOnly(path) }
            return path
        }
        let environment = io.environment
        // Then $SUBFIX_DB, then the config file's `db` (each skipped when it is a URL: `PostgresBackend.url` takes
        // it first).
        for path in [environment["SUBFIX_DB"], arguments.configured(.db)] {
            if let path, !path.isEmpty, !PostgresBackend.isURL(path) { return path }
        }
        let hasData = environment["XDG_DATA_HOME"].map { $0.hasPrefix("/") } ?? false
        let hasHome = !(environment["HOME"] ?? "").isEmpty
        guard hasData || hasHome else { return nil }
        return LibraryDatabase.defaultPath { environment[$0] }
    }

    /// Like `path`, but a missing location is a usage error (commands that need the library).
    static func requiredPath(_ arguments: ParsedArguments, io: CommandIO) throws(UsageError) -> String {
        guard let path = try path(arguments, io: io) else {
            throw UsageError.invalidValue(
                option: OptionKey.db.name, value: "", expected: "a path: neither XDG_DATA_HOME nor HOME is set")
        }
        return path
    }
}

extension LibraryLocation {
    /// Runs `body` on the existing library at `path`; a failure is printed (about `path` when it names no file)
    /// and gives nil, for commands that read the library. A library that could only be opened as an immutable
    /// file (its folder cannot be written) is read all the same, with one warning line.
    static func reading<T>(_ path: String, io: CommandIO, _ body: (LibraryDatabase) throws -> T) -> T? {
        do {
            let library = try LibraryDatabase(path: path, mode: .readOnly)
            if library.isImmutableSnapshot {
                io.warning(
                    "read as a snapshot (its folder cannot be written): changes made while this command runs are"
                        + " not seen", file: path)
            }
            return try body(library)
        } catch {
            io.error(error, file: path)
        }
        return nil
    }
}

/// The library database being opened on another thread while a command does its work, so that opening and
/// migrating it add no wall time to the run (a large `fix` would otherwise wait ~5 ms for it at its end).
final class PendingLibrary: Sendable {
    private let opened = Mutex<Result<String, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts creating and migrating the library at `path`. The connections made here are closed here, before
    /// the library is handed over: a library still open on this thread when the command exits would leave its
    /// `-wal` and `-shm` files behind (only the last connection to close deletes them).
    init(path: String) {
        DispatchQueue.global(qos: .utility).async { [self] in
            let prepared = Result { _ = try LibraryDatabase(path: path, mode: .create) }
            opened.withLock { $0 = prepared.map { path } }
            done.signal()
        }
    }

    /// Waits until the library is created and migrated, then opens it for the caller (the caller's reference is
    /// the only one, so it closes where the caller lets it go); throws what creating it threw.
    func database() throws -> LibraryDatabase {
        done.wait()
        done.signal()
        // Never nil here: the result is stored before the semaphore is signalled.
        guard let result = opened.withLock({ $0 }) else { throw CancellationError() }
        return try LibraryDatabase(path: result.get(), mode: .existing)
    }
}

extension JobFileRecord {
    /// A row of a run's job record about `path` (and where its result went); the job id is given when the run is
    /// recorded.
    static func file(
        _ path: String, output: String? = nil, status: JobFileStatus, counts: [String: Int] = [:], error: String? = nil
    ) -> JobFileRecord {
        JobFileRecord(jobId: 0, path: path, output: output, status: status, counts: counts, error: error)
    }

    /// Prints `error` about `path` (or the file it names) as `subfix: error: <file>: <cause>` and returns the
    /// row of `path` as failed.
    static func failed(_ path: String, _ error: any Error, io: CommandIO) -> JobFileRecord {
        let failure = CommandFailure(error, file: path)
        io.error(failure)
        return file(path, status: .failed, error: failure.detail)
    }
}

extension ParsedArguments {
    /// The command line as the job log keeps it, the one serialization of it: the positionals, then each option
    /// given in its command's table order (a single-value option once, with the value that counted). Paths (a
    /// `PATH` positional, `DIR`/`PATH`/`FILE` values) are made absolute; a URL's password is left out.
    var loggedArguments: [String] {
        let spec = commandTable.first { $0.name == command }
        let directory = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> String {
            // postgresql://user:secret@host/db: the password never reaches the log.
            if path.contains("://") { return PostgresURL.redacted(path) }
            return path.hasPrefix("/") || path == "-" ? path : (directory as NSString).appendingPathComponent(path)
        }
        let pathPositionals = spec?.positionals.allSatisfy { ["PATH", "FILE", "DIR"].contains($0.name) } ?? false
        var logged = pathPositionals ? positionals.map(absolute) : positionals
        for option in spec?.options ?? [] {
            // What was typed: the config file's defaults are not part of the command line.
            let given = option.repeatable ? values[option.name] ?? [] : self.given(option.key).map { [$0] } ?? []
            for text in given {
                logged.append("--" + option.name)
                guard case .value(let placeholder) = option.kind else { continue }
                logged.append(["DIR", "PATH", "FILE"].contains(placeholder) ? absolute(text) : text)
            }
        }
        return logged
    }
}
