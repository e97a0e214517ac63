import Foundation

/// A `postgresql://` (or `postgres://`) connection URL, checked for shape before libpq sees it, with a form
/// safe to print: the password (in the user part or a `password=` parameter) replaced by `***`.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// The URL as given, password included: only ever passed to libpq.
    public let raw: String
    /// The password the URL carries, if any (kept so that it can be removed from libpq's messages).
    let password: String?

    /// Whether `text` names a PostgreSQL database rather than a SQLite file.
    public static func isPostgres(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// Checks the shape of `text`; throws `PostgresError.malformedURL` (with a redacted URL) when libpq could
    /// not read it.
    public init(_ text: String) throws(PostgresError) {
        guard Self.isPostgres(text) else {
            throw .malformedURL(url: Self.redacted(text), reason: "expected postgresql://[user[:password]@]host/dbname")
        }
        if let bad = text.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .malformedURL(
                url: Self.redacted(text), reason: "control character U+\(String(bad.value, radix: 16)) in the URL")
        }
        raw = text
        password = Self.passwordPart(of: text)
        for port in Self.ports(of: text) where !(port.allSatisfy(\.isASCII) && UInt16(port) != nil) {
            throw .malformedURL(url: Self.redacted(text), reason: "the port '\(port)' is not a number from 0 to 65535")
        }
        if let reason = PostgresConnection.parseError(conninfo: text) {
            throw .malformedURL(url: Self.redacted(text), reason: Self.scrub(reason, password: password))
        }
    }

    /// The URL with its password replaced by `***`.
    public var description: String { Self.redacted(raw) }

    /// The ports the URL's hosts name (`host:port`, `[::1]:port`, comma-separated hosts), as written.
    static func ports(of text: String) -> [String] {
        guard let schemeEnd = text.range(of: "://") else { return [] }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var hosts = rest[..<authorityEnd]
        if let at = hosts.lastIndex(of: "@") { hosts = hosts[hosts.index(after: at)...] }
        return hosts.split(separator: ",").compactMap { host -> String? in
            let afterBracket = host.lastIndex(of: "]").map { host[host.index(after: $0)...] } ?? host
            guard let colon = afterBracket.lastIndex(of: ":") else { return nil }
            let port = afterBracket[afterBracket.index(after: colon)...]
            return port.isEmpty ? nil : String(port)
        }
    }

    /// The user-part password of a URL (`scheme://user:PASSWORD@host`), undecoded.
    static func passwordPart(of text: String) -> String? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return nil }
        let userInfo = authority[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return nil }
        return String(userInfo[userInfo.index(after: colon)...])
    }

    /// `text` with the password of a URL's user part and any `password=` parameter replaced by `***`; text
    /// that is not a URL is returned with `password=` values redacted only.
    public static func redacted(_ text: String) -> String {
        var result = text
        if let schemeEnd = result.range(of: "://") {
            let rest = result[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            let authority = result[schemeEnd.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@"),
                let colon = authority[..<at].firstIndex(of: ":")
            {
                result.replaceSubrange(result.index(after: colon)..<at, with: "***")
            }
        }
        // `password=VALUE` in a query string or a conninfo string, up to `&` or white space.
        var searchStart = result.startIndex
        while let found = result.range(
            of: "password=", options: .caseInsensitive, range: searchStart..<result.endIndex)
        {
            let valueEnd =
                result[found.upperBound...].firstIndex(where: { $0 == "&" || $0 == " " || $0 == "\n" })
                ?? result.endIndex
            result.replaceSubrange(found.upperBound..<valueEnd, with: "***")
            searchStart = result.index(found.upperBound, offsetBy: 3)
        }
        return result
    }

    /// `message` with every occurrence of `password` (when it has one) replaced by `***`.
    static func scrub(_ message: String, password: String?) -> String {
        var message = redacted(message)
        if let password, password.count >= 1 {
            message = message.replacingOccurrences(of: password, with: "***")
            if let decoded = password.removingPercentEncoding, !decoded.isEmpty {
                message = message.replacingOccurrences(of: decoded, with: "***")
            }
        }
        return message
    }
}
