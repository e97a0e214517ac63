internal import CSQLite

/// An SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended (`SQLITE_CONSTRAINT_UNIQUE`).
///
///     do { try player.insert(db) }
///     catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE { ... }  // extended code
///     catch DatabaseError.SQLITE_CONSTRAINT { ... }         // any constraint violation
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw SQLite code.
    public let rawValue: Int32

    /// Creates a result code from its raw SQLite value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary result code: the low 8 bits (`SQLITE_CONSTRAINT` for `SQLITE_CONSTRAINT_UNIQUE`).
    public var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// The English explanation from SQLite. The corresponding C function is `sqlite3_errstr`.
    public var description: String {
        "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
    }

    /// A primary code matches every extended code built on it; an extended code matches only itself.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        if pattern.rawValue == pattern.primaryResultCode.rawValue {
            return pattern.rawValue == code.primaryResultCode.rawValue
        }
        return pattern.rawValue == code.rawValue
    }

    /// Lets `catch DatabaseError.SQLITE_CONSTRAINT` match a thrown ``DatabaseError``.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.extendedResultCode
    }

    // Primary result codes.
    /// The SQLite result code `SQLITE_OK`.
    public static let SQLITE_OK = ResultCode(rawValue: 0)
    /// The SQLite result code `SQLITE_ERROR`.
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    /// The SQLite result code `SQLITE_INTERNAL`.
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    /// The SQLite result code `SQLITE_PERM`.
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    /// The SQLite result code `SQLITE_ABORT`.
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    /// The SQLite result code `SQLITE_BUSY`.
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    /// The SQLite result code `SQLITE_LOCKED`.
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    /// The SQLite result code `SQLITE_NOMEM`.
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    /// The SQLite result code `SQLITE_READONLY`.
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    /// The SQLite result code `SQLITE_INTERRUPT`.
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    /// The SQLite result code `SQLITE_IOERR`.
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    /// The SQLite result code `SQLITE_CORRUPT`.
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    /// The SQLite result code `SQLITE_NOTFOUND`.
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    /// The SQLite result code `SQLITE_FULL`.
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    /// The SQLite result code `SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    /// The SQLite result code `SQLITE_PROTOCOL`.
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    /// The SQLite result code `SQLITE_EMPTY`.
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    /// The SQLite result code `SQLITE_SCHEMA`.
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    /// The SQLite result code `SQLITE_TOOBIG`.
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    /// The SQLite result code `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    /// The SQLite result code `SQLITE_MISMATCH`.
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    /// The SQLite result code `SQLITE_MISUSE`.
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    /// The SQLite result code `SQLITE_NOLFS`.
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    /// The SQLite result code `SQLITE_AUTH`.
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    /// The SQLite result code `SQLITE_FORMAT`.
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    /// The SQLite result code `SQLITE_RANGE`.
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    /// The SQLite result code `SQLITE_NOTADB`.
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    /// The SQLite result code `SQLITE_NOTICE`.
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    /// The SQLite result code `SQLITE_WARNING`.
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    /// The SQLite result code `SQLITE_ROW`.
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    /// The SQLite result code `SQLITE_DONE`.
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    // Extended result codes.
    /// The SQLite result code `SQLITE_ERROR_MISSING_COLLSEQ`.
    public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode(rawValue: 1 | (1 << 8))
    /// The SQLite result code `SQLITE_ERROR_RETRY`.
    public static let SQLITE_ERROR_RETRY = ResultCode(rawValue: 1 | (2 << 8))
    /// The SQLite result code `SQLITE_IOERR_READ`.
    public static let SQLITE_IOERR_READ = ResultCode(rawValue: 10 | (1 << 8))
    /// The SQLite result code `SQLITE_IOERR_SHORT_READ`.
    public static let SQLITE_IOERR_SHORT_READ = ResultCode(rawValue: 10 | (2 << 8))
    /// The SQLite result code `SQLITE_IOERR_WRITE`.
    public static let SQLITE_IOERR_WRITE = ResultCode(rawValue: 10 | (3 << 8))
    /// The SQLite result code `SQLITE_IOERR_FSYNC`.
    public static let SQLITE_IOERR_FSYNC = ResultCode(rawValue: 10 | (4 << 8))
    /// The SQLite result code `SQLITE_LOCKED_SHAREDCACHE`.
    public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode(rawValue: 6 | (1 << 8))
    /// The SQLite result code `SQLITE_BUSY_RECOVERY`.
    public static let SQLITE_BUSY_RECOVERY = ResultCode(rawValue: 5 | (1 << 8))
    /// The SQLite result code `SQLITE_BUSY_SNAPSHOT`.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 5 | (2 << 8))
    /// The SQLite result code `SQLITE_CANTOPEN_NOTEMPDIR`.
    public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode(rawValue: 14 | (1 << 8))
    /// The SQLite result code `SQLITE_CANTOPEN_ISDIR`.
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode(rawValue: 14 | (2 << 8))
    /// The SQLite result code `SQLITE_CANTOPEN_FULLPATH`.
    public static let SQLITE_CANTOPEN_FULLPATH = ResultCode(rawValue: 14 | (3 << 8))
    /// The SQLite result code `SQLITE_CORRUPT_VTAB`.
    public static let SQLITE_CORRUPT_VTAB = ResultCode(rawValue: 11 | (1 << 8))
    /// The SQLite result code `SQLITE_READONLY_RECOVERY`.
    public static let SQLITE_READONLY_RECOVERY = ResultCode(rawValue: 8 | (1 << 8))
    /// The SQLite result code `SQLITE_READONLY_CANTLOCK`.
    public static let SQLITE_READONLY_CANTLOCK = ResultCode(rawValue: 8 | (2 << 8))
    /// The SQLite result code `SQLITE_READONLY_ROLLBACK`.
    public static let SQLITE_READONLY_ROLLBACK = ResultCode(rawValue: 8 | (3 << 8))
    /// The SQLite result code `SQLITE_READONLY_DBMOVED`.
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: 8 | (4 << 8))
    /// The SQLite result code `SQLITE_ABORT_ROLLBACK`.
    public static let SQLITE_ABORT_ROLLBACK = ResultCode(rawValue: 4 | (2 << 8))
    /// The SQLite result code `SQLITE_CONSTRAINT_CHECK`.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 19 | (1 << 8))
    /// The SQLite result code `SQLITE_CONSTRAINT_COMMITHOOK`.
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode(rawValue: 19 | (2 << 8))
    /// The SQLite result code `SQLITE_CONSTRAINT_FOREIGNKEY`.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 19 | (3 << 8))
    /// The SQLite result code `SQLITE_CONSTRAINT_FUNCTION`.
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode(rawValue: 19 | (4 << 8))
    /// The SQLite result code `SQLITE_CONSTRAINT_NOTNULL`.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 19 | (5 << 8))
    /// The SQLite result code `SQLITE_CONSTRAINT_PRIMARYKEY`.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 19 | (6 << 8))
    /// The SQLite result code `SQLITE_CONSTRAINT_TRIGGER`.
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 19 | (7 << 8))
    /// The SQLite result code `SQLITE_CONSTRAINT_UNIQUE`.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 19 | (8 << 8))
    /// The SQLite result code `SQLITE_CONSTRAINT_VTAB`.
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode(rawValue: 19 | (9 << 8))
    /// The SQLite result code `SQLITE_CONSTRAINT_ROWID`.
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode(rawValue: 19 | (10 << 8))
    /// The SQLite result code `SQLITE_NOTICE_RECOVER_WAL`.
    public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode(rawValue: 27 | (1 << 8))
    /// The SQLite result code `SQLITE_NOTICE_RECOVER_ROLLBACK`.
    public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode(rawValue: 27 | (2 << 8))
    /// The SQLite result code `SQLITE_WARNING_AUTOINDEX`.
    public static let SQLITE_WARNING_AUTOINDEX = ResultCode(rawValue: 28 | (1 << 8))
}
