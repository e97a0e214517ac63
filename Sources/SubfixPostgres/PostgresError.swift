/// A failure of libpq or of the server, carrying libpq's own message (with any password removed).
public enum PostgresError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL cannot be read (a usage error: exit 2).
    case malformedURL(url: String, reason: String)
    /// No connection: wrong host, port, user, password or database name.
    case connection(url: String, message: String)
    /// A statement failed; `sqlState` is the five-character SQLSTATE code when the server sent one.
    case query(message: String, sqlState: String?)
    /// libpq itself cannot be loaded (`libpq.so.5` is not installed); carries the dynamic loader's message.
    case libraryMissing(message: String)
    /// A result whose shape is not what subfix expects (a missing column, a value of the wrong type).
    case unexpectedResult(String)

    public var description: String {
        switch self {
        case .malformedURL(let url, let reason): return "malformed database URL \(url): \(reason)"
        case .connection(let url, let message): return "cannot connect to \(url): \(message)"
        case .query(let message, _): return "PostgreSQL: \(message)"
        case .unexpectedResult(let what): return "PostgreSQL: unexpected result: \(what)"
        case .libraryMissing(let message): return "PostgreSQL's client library cannot be loaded: \(message)"
        }
    }

    /// Whether the server reported that the connection itself broke (a restart, a network failure), so that the
    /// statement may be retried on a new connection.
    public var isConnectionLost: Bool {
        switch self {
        case .connection: return true
        case .query(_, let state):
            guard let state else { return true }  // libpq reports a broken connection without a SQLSTATE
            return state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03"
        default: return false
        }
    }
}
