import CLibPQ
import CLibPQLoader
import Foundation

/// One libpq connection (`PGconn`), closed in deinit. Statements always bind their values as parameters
/// (`PQexecParams`); SQL text never holds a value. Not thread-safe: use one connection per thread.
public final class PostgresConnection {
    private let handle: OpaquePointer
    /// The URL the connection was opened with (its `description` hides the password).
    public let url: PostgresURL

    /// Connects; throws `PostgresError.connection` with libpq's message (password removed) on failure.
    public init(url: PostgresURL, connectTimeoutSeconds: Int = 10) throws(PostgresError) {
        self.url = url
        try Self.loadLibrary()
        let keywords = ["dbname", "connect_timeout", "application_name"]
        let values = [url.raw, String(connectTimeoutSeconds), "subfix"]
        let connection = Self.withCStrings(keywords) { keywordPointers in
            Self.withCStrings(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw .connection(url: url.description, message: "out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.message(PQerrorMessage(connection), password: url.password)
            PQfinish(connection)
            throw .connection(url: url.description, message: message)
        }
        // Server notices ("relation already exists, skipping") are not subfix's output: libpq would print them.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// Runs one statement with `parameters` bound as text ($1, $2, …; nil is NULL) and returns its rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresResult {
        let result = Self.withOptionalCStrings(parameters) { pointers in
            PQexecParams(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        guard let result else {
            throw .query(message: Self.message(PQerrorMessage(handle), password: url.password), sqlState: nil)
        }
        let owned = PostgresResult(result)
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            throw .query(message: Self.message(PQresultErrorMessage(result), password: url.password), sqlState: state)
        }
        return owned
    }

    /// Runs `body` between BEGIN and COMMIT; rolls back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether the connection is still usable.
    var isOpen: Bool { PQstatus(handle) == CONNECTION_OK }

    /// libpq's reason why `conninfo` (a URL or `key=value` string) cannot be parsed, or nil when it can.
    static func parseError(conninfo: String) -> String? {
        // Without libpq the URL is left to the connection, which reports the missing library.
        guard (try? loadLibrary()) != nil else { return nil }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &error) else {
            defer { if let error { PQfreemem(error) } }
            return error.map { String(cString: $0) }?.trimmingTrailingNewlines() ?? "cannot parse the URL"
        }
        PQconninfoFree(options)
        return nil
    }

    /// nil once libpq is loaded, else the dynamic loader's message. Computed once per process: libpq is opened
    /// on first use, not at start-up.
    private static let loadFailure: String? = {
        var buffer = [CChar](repeating: 0, count: 512)
        let status = buffer.withUnsafeMutableBufferPointer { clibpq_load($0.baseAddress, $0.count) }
        return status == 0
            ? nil : String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    }()

    /// Loads libpq, or throws ``PostgresError/libraryMissing(message:)`` with the loader's reason.
    static func loadLibrary() throws(PostgresError) {
        if let loadFailure { throw .libraryMissing(message: loadFailure) }
    }

    /// libpq's message on one line, without its trailing newline and with the password removed.
    static func message(_ text: UnsafePointer<CChar>?, password: String?) -> String {
        let raw = text.map { String(cString: $0) } ?? "unknown error"
        let oneLine = raw.trimmingTrailingNewlines().split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.joined(separator: "; ")
        return PostgresURL.scrub(oneLine, password: password)
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        withOptionalCStrings(strings) { pointers in body(pointers + [nil]) }
    }

    private static func withOptionalCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}

/// A statement's result (`PGresult`), cleared in deinit; values are read as text.
public final class PostgresResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    /// The number of rows.
    public var count: Int { Int(PQntuples(handle)) }

    /// The number of rows an UPDATE, INSERT or DELETE touched.
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The text of row `row`, column `column`; nil for NULL.
    public func text(_ row: Int, _ column: Int) -> String? {
        guard row < count, column < Int(PQnfields(handle)),
            PQgetisnull(handle, Int32(row), Int32(column)) == 0,
            let value = PQgetvalue(handle, Int32(row), Int32(column))
        else { return nil }
        return String(cString: value)
    }

    /// The integer at row `row`, column `column`; throws when it is NULL or not an integer.
    public func int(_ row: Int, _ column: Int) throws(PostgresError) -> Int64 {
        guard let text = text(row, column), let value = Int64(text) else {
            throw .unexpectedResult("row \(row) column \(column) is not an integer")
        }
        return value
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
