import Foundation
import SubCore
import SubfixLibrary
import SubfixPostgres

/// Which backend holds the library a command logs its run in (and `report --library` reads): a SQLite file, or
/// the PostgreSQL database that `--db` (or `SUBFIX_DB`, or the config file's `db`) names with a `postgresql://`
/// URL.
enum LibraryBackend: Equatable {
    case sqlite(path: String)
    /// `creating`: whether a database without subfix's schema is given one (false for a dry run).
    case postgres(PostgresURL, creating: Bool)

    /// The destination of a run that writes nothing (`fix --dry-run`): a library that exists, never a new one;
    /// nil for a SQLite file that is not there.
    var existingOnly: LibraryBackend? {
        switch self {
        case .sqlite(let path): return FixFileSystem.exists(path) ? self : nil
        case .postgres(let url, _): return .postgres(url, creating: false)
        }
    }

    /// The destination of a command that only reads its inputs (check, render): a library that exists and this
    /// user may write, else nil, so that such a command neither makes a library nor warns about one on shared,
    /// read-only storage.
    var existingWritable: LibraryBackend? {
        guard case .sqlite(let path) = self else { return existingOnly }
        return PathBytes.withCString(path) { access($0, W_OK) } == 0 ? self : nil
    }

    /// The library's name as messages show it (a URL without its password).
    var name: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url, _): return url.description
        }
    }
}

extension LibraryLocation {
    /// Where the commands that log their runs (fix, extract, render, check, report) log them: a
    /// `postgresql://` URL from `--db`, `SUBFIX_DB` or the config file, else the SQLite path `path` gives; nil when
    /// there is none.
    static func jobLog(_ arguments: ParsedArguments, io: CommandIO) throws(UsageError) -> LibraryBackend? {
        if let url = try PostgresBackend.url(arguments, io: io) { return .postgres(url, creating: true) }
        return try path(arguments, io: io).map { .sqlite(path: $0) }
    }
}

/// Writes runs of subfix commands to the library's job log, on either backend.
enum JobLog {
    /// Records one run; a database that cannot be opened or written is a warning, never a failure of the run.
    /// `library` or `pending` is the SQLite library when it is open already (or being opened).
    static func record(
        _ job: JobRecord, files: [JobFileRecord], to destination: LibraryBackend?,
        library: LibraryDatabase? = nil, pending: PendingLibrary? = nil, io: CommandIO
    ) {
        switch destination {
        case nil:
            return
        case .sqlite(let path):
            do {
                let database = try library ?? pending?.database() ?? LibraryDatabase(path: path, mode: .create)
                try database.record(job: job, files: files)
            } catch {
                io.warning("cannot record the job: \(CommandFailure(error).cause)", file: path)
            }
        case .postgres(let url, let creating):
            do {
                let library = creating ? try PostgresLibrary(url: url) : try PostgresLibrary(existing: url)
                try library?.record(job: job, files: files)
            } catch {
                io.warning("cannot record the job: \(PostgresBackend.message(error))")
            }
        }
    }

    /// Records a run of `command` that ends now: `failed` when some input failed or the run itself did.
    static func record(
        _ command: String, arguments: ParsedArguments, started: Date, failed: Bool, counts: [String: Int],
        files: [JobFileRecord], to destination: LibraryBackend?, io: CommandIO
    ) {
        let job = JobRecord(
            command: command, arguments: arguments.loggedArguments, startedAt: started, finishedAt: Date(),
            status: failed ? .failed : .succeeded, counts: counts)
        record(job, files: files, to: destination, io: io)
    }
}
