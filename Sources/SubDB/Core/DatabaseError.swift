internal import CSQLite

/// An error thrown by SQLite or by SubDB, carrying the result code, the message, and the SQL being executed.
///
///     do {
///         try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
///     } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
///         // duplicate name
///     } catch let error as DatabaseError {
///         print(error)  // SQLite error 19: UNIQUE constraint failed: player.name - while executing `INSERT ...`
///     }
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    /// The extended result code, such as `SQLITE_CONSTRAINT_UNIQUE`.
    public let extendedResultCode: ResultCode
    /// The error message (from `sqlite3_errmsg` for SQLite errors).
    public let message: String?
    /// The SQL of the failing statement, if any.
    public let sql: String?
    /// The arguments of the failing statement, if any.
    public let arguments: StatementArguments?

    /// The primary result code, such as `SQLITE_CONSTRAINT`.
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// Creates an error. The default code is `SQLITE_ERROR`, as for errors thrown by custom SQL functions.
    ///
    ///     throw DatabaseError(message: "invalid negative number")
    public init(
        resultCode: ResultCode = .SQLITE_ERROR, message: String? = nil, sql: String? = nil,
        arguments: StatementArguments? = nil
    ) {
        self.extendedResultCode = resultCode
        self.message = message
        self.sql = sql
        self.arguments = arguments
    }

    /// `SQLite error 19: UNIQUE constraint failed: t.name - while executing \`INSERT ...\``
    public var description: String {
        var text = "SQLite error \(resultCode.rawValue)"
        if let message { text += ": \(message)" }
        if let sql { text += " - while executing `\(sql)`" }
        if let arguments, !arguments.isEmpty { text += " with arguments \(arguments)" }
        return text
    }

    /// The error described by the connection's last error (`sqlite3_extended_errcode`, `sqlite3_errmsg`).
    package static func connectionError(
        _ connection: OpaquePointer?, code: Int32, sql: String? = nil, arguments: StatementArguments? = nil
    ) -> DatabaseError {
        var message: String
        // The connection's message only when it is about this code (a code SubDB returns without calling
        // SQLite, such as SQLITE_TOOBIG for an oversized value, would otherwise show an earlier message).
        if let connection, sqlite3_extended_errcode(connection) & 0xFF == code & 0xFF,
            let cMessage = sqlite3_errmsg(connection)
        {
            message = String(cString: cMessage)
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
        // sqlite3_errmsg may describe a later, unrelated call; fall back to the code's own text.
        if message == "not an error" { message = String(cString: sqlite3_errstr(code)) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql, arguments: arguments)
    }

    /// A programmer error reported as `SQLITE_MISUSE`.
    static func misuse(_ message: String, sql: String? = nil) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: message, sql: sql)
    }
}

extension DatabaseError {
    /// Matches `ResultCode.SQLITE_OK`.
    public static let SQLITE_OK = ResultCode.SQLITE_OK
    /// Matches `ResultCode.SQLITE_ERROR`.
    public static let SQLITE_ERROR = ResultCode.SQLITE_ERROR
    /// Matches `ResultCode.SQLITE_INTERNAL`.
    public static let SQLITE_INTERNAL = ResultCode.SQLITE_INTERNAL
    /// Matches `ResultCode.SQLITE_PERM`.
    public static let SQLITE_PERM = ResultCode.SQLITE_PERM
    /// Matches `ResultCode.SQLITE_ABORT`.
    public static let SQLITE_ABORT = ResultCode.SQLITE_ABORT
    /// Matches `ResultCode.SQLITE_BUSY`.
    public static let SQLITE_BUSY = ResultCode.SQLITE_BUSY
    /// Matches `ResultCode.SQLITE_LOCKED`.
    public static let SQLITE_LOCKED = ResultCode.SQLITE_LOCKED
    /// Matches `ResultCode.SQLITE_NOMEM`.
    public static let SQLITE_NOMEM = ResultCode.SQLITE_NOMEM
    /// Matches `ResultCode.SQLITE_READONLY`.
    public static let SQLITE_READONLY = ResultCode.SQLITE_READONLY
    /// Matches `ResultCode.SQLITE_INTERRUPT`.
    public static let SQLITE_INTERRUPT = ResultCode.SQLITE_INTERRUPT
    /// Matches `ResultCode.SQLITE_IOERR`.
    public static let SQLITE_IOERR = ResultCode.SQLITE_IOERR
    /// Matches `ResultCode.SQLITE_CORRUPT`.
    public static let SQLITE_CORRUPT = ResultCode.SQLITE_CORRUPT
    /// Matches `ResultCode.SQLITE_NOTFOUND`.
    public static let SQLITE_NOTFOUND = ResultCode.SQLITE_NOTFOUND
    /// Matches `ResultCode.SQLITE_FULL`.
    public static let SQLITE_FULL = ResultCode.SQLITE_FULL
    /// Matches `ResultCode.SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN = ResultCode.SQLITE_CANTOPEN
    /// Matches `ResultCode.SQLITE_PROTOCOL`.
    public static let SQLITE_PROTOCOL = ResultCode.SQLITE_PROTOCOL
    /// Matches `ResultCode.SQLITE_EMPTY`.
    public static let SQLITE_EMPTY = ResultCode.SQLITE_EMPTY
    /// Matches `ResultCode.SQLITE_SCHEMA`.
    public static let SQLITE_SCHEMA = ResultCode.SQLITE_SCHEMA
    /// Matches `ResultCode.SQLITE_TOOBIG`.
    public static let SQLITE_TOOBIG = ResultCode.SQLITE_TOOBIG
    /// Matches `ResultCode.SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT = ResultCode.SQLITE_CONSTRAINT
    /// Matches `ResultCode.SQLITE_MISMATCH`.
    public static let SQLITE_MISMATCH = ResultCode.SQLITE_MISMATCH
    /// Matches `ResultCode.SQLITE_MISUSE`.
    public static let SQLITE_MISUSE = ResultCode.SQLITE_MISUSE
    /// Matches `ResultCode.SQLITE_NOLFS`.
    public static let SQLITE_NOLFS = ResultCode.SQLITE_NOLFS
    /// Matches `ResultCode.SQLITE_AUTH`.
    public static let SQLITE_AUTH = ResultCode.SQLITE_AUTH
    /// Matches `ResultCode.SQLITE_FORMAT`.
    public static let SQLITE_FORMAT = ResultCode.SQLITE_FORMAT
    /// Matches `ResultCode.SQLITE_RANGE`.
    public static let SQLITE_RANGE = ResultCode.SQLITE_RANGE
    /// Matches `ResultCode.SQLITE_NOTADB`.
    public static let SQLITE_NOTADB = ResultCode.SQLITE_NOTADB
    /// Matches `ResultCode.SQLITE_NOTICE`.
    public static let SQLITE_NOTICE = ResultCode.SQLITE_NOTICE
    /// Matches `ResultCode.SQLITE_WARNING`.
    public static let SQLITE_WARNING = ResultCode.SQLITE_WARNING
    /// Matches `ResultCode.SQLITE_ROW`.
    public static let SQLITE_ROW = ResultCode.SQLITE_ROW
    /// Matches `ResultCode.SQLITE_DONE`.
    public static let SQLITE_DONE = ResultCode.SQLITE_DONE
    /// Matches `ResultCode.SQLITE_ERROR_MISSING_COLLSEQ`.
    public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode.SQLITE_ERROR_MISSING_COLLSEQ
    /// Matches `ResultCode.SQLITE_ERROR_RETRY`.
    public static let SQLITE_ERROR_RETRY = ResultCode.SQLITE_ERROR_RETRY
    /// Matches `ResultCode.SQLITE_IOERR_READ`.
    public static let SQLITE_IOERR_READ = ResultCode.SQLITE_IOERR_READ
    /// Matches `ResultCode.SQLITE_IOERR_SHORT_READ`.
    public static let SQLITE_IOERR_SHORT_READ = ResultCode.SQLITE_IOERR_SHORT_READ
    /// Matches `ResultCode.SQLITE_IOERR_WRITE`.
    public static let SQLITE_IOERR_WRITE = ResultCode.SQLITE_IOERR_WRITE
    /// Matches `ResultCode.SQLITE_IOERR_FSYNC`.
    public static let SQLITE_IOERR_FSYNC = ResultCode.SQLITE_IOERR_FSYNC
    /// Matches `ResultCode.SQLITE_LOCKED_SHAREDCACHE`.
    public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode.SQLITE_LOCKED_SHAREDCACHE
    /// Matches `ResultCode.SQLITE_BUSY_RECOVERY`.
    public static let SQLITE_BUSY_RECOVERY = ResultCode.SQLITE_BUSY_RECOVERY
    /// Matches `ResultCode.SQLITE_BUSY_SNAPSHOT`.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode.SQLITE_BUSY_SNAPSHOT
    /// Matches `ResultCode.SQLITE_CANTOPEN_NOTEMPDIR`.
    public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode.SQLITE_CANTOPEN_NOTEMPDIR
    /// Matches `ResultCode.SQLITE_CANTOPEN_ISDIR`.
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode.SQLITE_CANTOPEN_ISDIR
    /// Matches `ResultCode.SQLITE_CANTOPEN_FULLPATH`.
    public static let SQLITE_CANTOPEN_FULLPATH = ResultCode.SQLITE_CANTOPEN_FULLPATH
    /// Matches `ResultCode.SQLITE_CORRUPT_VTAB`.
    public static let SQLITE_CORRUPT_VTAB = ResultCode.SQLITE_CORRUPT_VTAB
    /// Matches `ResultCode.SQLITE_READONLY_RECOVERY`.
    public static let SQLITE_READONLY_RECOVERY = ResultCode.SQLITE_READONLY_RECOVERY
    /// Matches `ResultCode.SQLITE_READONLY_CANTLOCK`.
    public static let SQLITE_READONLY_CANTLOCK = ResultCode.SQLITE_READONLY_CANTLOCK
    /// Matches `ResultCode.SQLITE_READONLY_ROLLBACK`.
    public static let SQLITE_READONLY_ROLLBACK = ResultCode.SQLITE_READONLY_ROLLBACK
    /// Matches `ResultCode.SQLITE_READONLY_DBMOVED`.
    public static let SQLITE_READONLY_DBMOVED = ResultCode.SQLITE_READONLY_DBMOVED
    /// Matches `ResultCode.SQLITE_ABORT_ROLLBACK`.
    public static let SQLITE_ABORT_ROLLBACK = ResultCode.SQLITE_ABORT_ROLLBACK
    /// Matches `ResultCode.SQLITE_CONSTRAINT_CHECK`.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode.SQLITE_CONSTRAINT_CHECK
    /// Matches `ResultCode.SQLITE_CONSTRAINT_COMMITHOOK`.
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode.SQLITE_CONSTRAINT_COMMITHOOK
    /// Matches `ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY`.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY
    /// Matches `ResultCode.SQLITE_CONSTRAINT_FUNCTION`.
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode.SQLITE_CONSTRAINT_FUNCTION
    /// Matches `ResultCode.SQLITE_CONSTRAINT_NOTNULL`.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode.SQLITE_CONSTRAINT_NOTNULL
    /// Matches `ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY`.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY
    /// Matches `ResultCode.SQLITE_CONSTRAINT_TRIGGER`.
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode.SQLITE_CONSTRAINT_TRIGGER
    /// Matches `ResultCode.SQLITE_CONSTRAINT_UNIQUE`.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode.SQLITE_CONSTRAINT_UNIQUE
    /// Matches `ResultCode.SQLITE_CONSTRAINT_VTAB`.
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode.SQLITE_CONSTRAINT_VTAB
    /// Matches `ResultCode.SQLITE_CONSTRAINT_ROWID`.
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode.SQLITE_CONSTRAINT_ROWID
    /// Matches `ResultCode.SQLITE_NOTICE_RECOVER_WAL`.
    public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode.SQLITE_NOTICE_RECOVER_WAL
    /// Matches `ResultCode.SQLITE_NOTICE_RECOVER_ROLLBACK`.
    public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode.SQLITE_NOTICE_RECOVER_ROLLBACK
    /// Matches `ResultCode.SQLITE_WARNING_AUTOINDEX`.
    public static let SQLITE_WARNING_AUTOINDEX = ResultCode.SQLITE_WARNING_AUTOINDEX
}
