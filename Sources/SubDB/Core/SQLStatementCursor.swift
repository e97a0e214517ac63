internal import CSQLite
import Foundation

/// The statements of an SQL string, compiled one at a time (``Database/allStatements(sql:arguments:)``).
/// Positional arguments are shared out from left to right; when the cursor ends, a wrong count throws.
public final class SQLStatementCursor: Cursor {
    private let database: Database
    private let sql: String
    private let arguments: StatementArguments?
    /// The UTF-8 SQL, NUL-terminated, and the offset of the next statement.
    private let utf8: [CChar]
    private var offset = 0
    private var consumed = 0
    private var done = false

    init(database: Database, sql: String, arguments: StatementArguments?) {
        self.database = database
        self.sql = sql
        self.arguments = arguments
        self.utf8 = Array(sql.utf8CString)
    }

    /// The next compiled statement, with its arguments bound, or nil at the end.
    public func next() throws -> Statement? {
        guard !done else { return nil }
        while true {
            let (handle, nextOffset, code) = utf8.withUnsafeBufferPointer { buffer -> (OpaquePointer?, Int, Int32) in
                guard let base = buffer.baseAddress else { return (nil, 0, SQLITE_OK) }
                let start = base + offset
                if isBlankSQL(start) { return (nil, -1, SQLITE_OK) }
                var handle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v3(database.sqliteConnection, start, -1, 0, &handle, &tail)
                let next = tail.map { $0 - base } ?? buffer.count - 1
                return (handle, next, code)
            }
            guard code == SQLITE_OK else {
                done = true
                let remaining = String(
                    decoding: utf8[offset...].prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw DatabaseError.connectionError(
                    database.sqliteConnection, code: code,
                    sql: remaining.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if nextOffset < 0 {
                done = true
                if let arguments, consumed != arguments.values.count {
                    throw DatabaseError.misuse(
                        "wrong number of statement arguments: \(arguments.values.count) (expected \(consumed))",
                        sql: sql)
                }
                return nil
            }
            offset = nextOffset
            guard let handle else { continue }  // a comment or a lone semicolon
            let statement = Statement(database: database, sqliteStatement: handle)
            if let arguments { try statement.bind(arguments, consumed: &consumed) }
            return statement
        }
    }
}
