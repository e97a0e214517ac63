import Foundation
import SubfixLibrary
import SubfixPostgres

/// Chooses the PostgreSQL library when `--db` (or, without it, `SUBFIX_DB`) is a `postgresql://` URL, and runs
/// the command's PostgreSQL form instead of its SQLite one.
enum PostgresBackend {
    /// The URL `--db` or `SUBFIX_DB` gives, when it names PostgreSQL; nil for a SQLite path. A malformed URL is a
    /// usage error (exit 2) that shows the URL without its password.
    static func url(_ arguments: ParsedArguments, io: CommandIO) throws(UsageError) -> PostgresURL? {
        let text = arguments.given(.db) ?? io.environment["SUBFIX_DB"] ?? arguments.configured(.db)
        guard let text, PostgresURL.isPostgres(text) else { return nil }
        do {
            return try PostgresURL(text)
        } catch {
            switch error {
            case .malformedURL(let url, let reason):
                throw UsageError.invalidValue(option: OptionKey.db.name, value: url, expected: reason)
            default:
                throw UsageError.invalidValue(
                    option: OptionKey.db.name, value: PostgresURL.redacted(text), expected: "\(error)")
            }
        }
    }

    /// Whether `text` is a `postgresql://` URL rather than a SQLite path.
    static func isURL(_ text: String) -> Bool { PostgresURL.isPostgres(text) }

    /// The usage error of a use of the library that needs a SQLite file, given a URL as `--db`. Every command
    /// takes a URL (the job log, `jobs`, `report --library` included), so none should reach it.
    static func sqliteOnly(_ text: String) -> UsageError {
        UsageError.invalidValue(
            option: OptionKey.db.name, value: PostgresURL.redacted(text),
            expected: "a SQLite file path here (every subfix command takes postgresql:// URLs; this is a bug)")
    }

    /// `spec` with a `run` that goes to `postgres` when the library is on PostgreSQL.
    static func dispatching(
        _ spec: CommandSpec,
        to postgres: @escaping @Sendable (ParsedArguments, CommandIO, PostgresURL) throws -> ExitStatus
    ) -> CommandSpec {
        var wrapped = spec
        let sqlite = spec.run
        wrapped.run = { arguments, io in
            if let url = try url(arguments, io: io) { return try postgres(arguments, io, url) }
            return try sqlite(arguments, io)
        }
        return wrapped
    }

    /// The library at `url`, connected and migrated; a failure is printed as one line and gives nil.
    static func open(_ url: PostgresURL, io: CommandIO) -> PostgresLibrary? {
        do {
            return try PostgresLibrary(url: url)
        } catch {
            io.error(message(error))
        }
        return nil
    }

    /// A failure as one line, with any password removed.
    static func message(_ error: any Error) -> String {
        PostgresURL.redactedMessage(CommandFailure(error).description).replacingOccurrences(of: "\n", with: " ")
    }

    /// The `--db` row of the PostgreSQL-only commands.
    static let option = OptionSpec.value(
        .db, "URL", "The PostgreSQL library: postgresql://[user[:password]@]host[:port]/dbname (default: $SUBFIX_DB).")

    /// The URL a PostgreSQL-only command needs: `--db`, else `SUBFIX_DB`; a SQLite path is a usage error.
    static func requiredURL(_ arguments: ParsedArguments, io: CommandIO) throws(UsageError) -> PostgresURL {
        if let url = try url(arguments, io: io) { return url }
        let given = arguments.given(.db) ?? io.environment["SUBFIX_DB"] ?? arguments.configured(.db) ?? ""
        throw UsageError.invalidValue(
            option: OptionKey.db.name, value: PostgresURL.redacted(given),
            expected: "a postgresql:// URL (the queue needs PostgreSQL)")
    }
}
