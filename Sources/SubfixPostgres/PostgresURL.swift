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
            throw .malformedURL(
                url: Self.redacted(text),
                reason: Self.scrub("the port '\(port)' is not a number from 0 to 65535", password: password))
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

    /// The user-part password of a URL (`scheme://user:PASSWORD@host`), undecoded, read the conservative way:
    /// whatever lies between the first `:` after the scheme and the last `@` of the whole text. A password may
    /// hold `@`, `/`, `?` or `#` unencoded, and libpq then parses the URL otherwise than a reader would: every
    /// byte that any parse could take for the password counts as the password.
    static func passwordPart(of text: String) -> String? {
        passwordRange(in: Array(text.utf8)).map { String(decoding: Array(text.utf8)[$0], as: UTF8.self) }
    }

    /// Where the password of a URL's user part is in its UTF-8 bytes (`passwordPart`'s rule); nil for text that
    /// is not a `scheme://` URL or has no `user:password@`. The CLI overwrites these bytes of its own arguments.
    /// In a message (`inMessage`), a URL ends at the first blank or quote, so that the message's own words are
    /// not taken for it.
    public static func passwordRange(in bytes: [UInt8], inMessage: Bool = false) -> Range<Int>? {
        let scheme: [UInt8] = Array("://".utf8)
        guard bytes.count >= scheme.count,
            let schemeEnd = (0...(bytes.count - scheme.count)).first(where: {
                bytes[$0..<$0 + scheme.count].elementsEqual(scheme)
            }).map({ $0 + scheme.count })
        else { return nil }
        let end =
            inMessage
            ? bytes[schemeEnd...].firstIndex(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x22 || $0 == 0x27 })
                ?? bytes.count : bytes.count
        guard let at = bytes[schemeEnd..<end].lastIndex(of: UInt8(ascii: "@")),
            let colon = bytes[schemeEnd..<at].firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        return (colon + 1)..<at
    }

    /// `text` with the password of a URL's user part (`passwordPart`'s rule: never shown, however the URL
    /// parses) and any `password=` parameter replaced by `***`; text that is not a URL is returned with
    /// `password=` values redacted only.
    public static func redacted(_ text: String) -> String { redacted(text, inMessage: false) }

    /// `message` (text that may hold URLs among other words) with the passwords of its URLs redacted, each URL
    /// read up to the first blank or quote.
    public static func redactedMessage(_ message: String) -> String { redacted(message, inMessage: true) }

    private static func redacted(_ text: String, inMessage: Bool) -> String {
        var bytes = Array(text.utf8)
        if let range = passwordRange(in: bytes, inMessage: inMessage) {
            bytes.replaceSubrange(range, with: Array("***".utf8))
        }
        var result = String(decoding: bytes, as: UTF8.self)
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

    /// `message` with every occurrence of `password` (when it has one) replaced by `***`: whole, percent-decoded,
    /// and each piece of it between `@`, `/`, `?`, `#`, `:`, `&` and `=` of three or more characters (libpq,
    /// splitting a password with an unencoded `@` at its first one, echoes the rest as a host name).
    static func scrub(_ message: String, password: String?) -> String {
        var message = redactedMessage(message)
        guard let password, !password.isEmpty else { return message }
        var secrets = [password]
        if let decoded = password.removingPercentEncoding, !decoded.isEmpty { secrets.append(decoded) }
        for secret in Array(secrets) {
            secrets += secret.split(whereSeparator: { "@/?#:&=".contains($0) }).map(String.init).filter {
                $0.count >= 3
            }
        }
        // Longest first, so that a piece never leaves the rest of a longer secret behind.
        for secret in secrets.sorted(by: { $0.count > $1.count }) {
            message = message.replacingOccurrences(of: secret, with: "***")
        }
        return message
    }
}
