internal import CSQLite
import Foundation

/// A connection to an SQLite database. The corresponding C type is `sqlite3`.
///
/// A `Database` is not thread-safe: you never create one yourself, you receive it in the closures of
/// ``DatabaseQueue`` and ``DatabasePool``, which serialize every use of it.
///
///     try dbQueue.write { db in
///         try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 1000])
///         let playerId = db.lastInsertedRowID
///     }
public final class Database: CustomStringConvertible {
    /// The raw `sqlite3 *` handle, for the C functions SubDB does not wrap (import your own SQLite module).
    /// Closed with `sqlite3_close_v2` in `deinit`; statements still alive keep it as a zombie until finalized.
    public let sqliteConnection: OpaquePointer
    /// The configuration the connection was opened with.
    public let configuration: Configuration
    /// The path of the database file (`:memory:` for a private in-memory database).
    public let path: String
    /// The label given by the owner queue or pool, such as `SubDB.DatabasePool.reader.2`.
    public let label: String

    /// Statements reused by `cachedStatement(sql:)` and the fetch methods, keyed by SQL.
    var statementCache: [String: Statement] = [:]
    /// Schema facts (primary keys, columns), cleared whenever this connection changes the schema.
    var schemaCache = SchemaCache()
    /// The tracing closure and options, if any.
    var tracer: Tracer?
    /// The `transactionDate` of the current transaction, once asked; cleared when a transaction begins or ends.
    var currentTransactionDate: Date?
    /// The schema source of `withSchemaSource(_:execute:)`, in effect instead of the configuration's.
    var temporarySchemaSource: (any DatabaseSchemaSource)?
    /// True while ``DatabaseMigrator`` runs migrations: the configuration's schema source is not used.
    var isConfigurationSchemaSourceDisabled = false
    /// Nesting depth of read-only accesses (see `readOnly(_:)`).
    var readOnlyDepth = 0
    /// Registered functions, kept alive while registered.
    var functions: [FunctionKey: DatabaseFunction] = [:]
    /// Transaction observers, change hooks and region tracking (Observation/), created on first use.
    var observationBroker: DatabaseObservationBroker? {
        get { observationSlot.broker }
        set { observationSlot.broker = newValue }
    }
    /// Holds the broker; statements keep a strong reference to it to check for a broker at each step without
    /// going through their unowned reference to the connection.
    let observationSlot = ObservationSlot()

    /// Opens a connection. `flags` are `sqlite3_open_v2` flags.
    init(path: String, configuration: Configuration, label: String, flags: Int32) throws {
        Database.installErrorLog()  // before SQLite initializes itself, which the first open does
        var handle: OpaquePointer?
        let code: Int32
        if configuration.immutable {
            let readOnly = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) | SQLITE_OPEN_READONLY
            code = sqlite3_open_v2(
                Database.immutableURI(path), &handle, readOnly | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        } else {
            code = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        }
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError.connectionError(handle, code: code)
            if let handle { sqlite3_close_v2(handle) }
            throw DatabaseError(
                resultCode: error.extendedResultCode, message: "\(error.message ?? "cannot open"): \(path)")
        }
        self.sqliteConnection = handle
        self.configuration = configuration
        self.path = path
        self.label = label
        sqlite3_extended_result_codes(handle, 1)
        try setUp()
        for action in configuration.didOpenActions { action() }
    }

    /// `file:PATH?immutable=1`, each byte of `path` other than letters, digits and `/._-~` as `%HH` (SQLite's URI
    /// filenames: `?`, `#` and `%` would otherwise end or escape the name); an absolute path gets an empty
    /// authority (`file:///...`), so a name starting with `//` is not read as a host.
    static func immutableURI(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "-"), UInt8(ascii: "~"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true)
                encoded += String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return (path.hasPrefix("/") ? "file://" : "file:") + encoded + "?immutable=1"
    }

    deinit {
        for action in configuration.willCloseActions { action(sqliteConnection) }
        statementCache.removeAll()
        sqlite3_close_v2(sqliteConnection)
    }

    /// Busy handling, foreign keys, GRDB's default collations and functions, a first read that detects files that are not databases, then the
    /// configuration's own set-up.
    private func setUp() throws {
        let isReadOnlyConnection = sqlite3_db_readonly(sqliteConnection, "main") == 1
        switch (isReadOnlyConnection ? configuration.readonlyBusyMode : nil) ?? configuration.busyMode {
        case .immediateError: break
        case .timeout(let seconds): sqlite3_busy_timeout(sqliteConnection, Int32(max(0, seconds) * 1000))
        }
        if configuration.foreignKeysEnabled {
            try execute(sql: "PRAGMA foreign_keys = ON")
        }
        if configuration.trace != nil { installTrace() }
        // GRDB's default collations, usable in SQL on every connection.
        for collation in [
            DatabaseCollation.unicodeCompare, .caseInsensitiveCompare, .localizedCaseInsensitiveCompare,
            .localizedCompare, .localizedStandardCompare,
        ] {
            add(collation: collation)
        }
        for function in DatabaseFunction.defaultFunctions { add(function: function) }
        do {
            // SQLite opens lazily: read the schema now so that a file which is not a database fails here.
            try execute(sql: "SELECT * FROM sqlite_master LIMIT 1")
        } catch let error as DatabaseError {
            throw DatabaseError(
                resultCode: error.extendedResultCode, message: "\(error.message ?? ""): \(path)", sql: error.sql)
        }
        if configuration.journalMode == .wal && !isReadOnlyConnection && path != ":memory:" {
            let mode = try String.fetchOne(self, sql: "PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw DatabaseError(message: "could not activate WAL mode (got \(mode ?? "nil")): \(path)")
            }
        }
        for setup in configuration.setups { try setup(self) }
    }

    /// `Database(label)`.
    public var description: String { label }

    // MARK: Connection state

    /// The row ID of the last successful INSERT. The corresponding C function is `sqlite3_last_insert_rowid`.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(sqliteConnection) }

    /// Rows changed by the last INSERT, UPDATE or DELETE. The corresponding C function is `sqlite3_changes`.
    public var changesCount: Int { Int(sqlite3_changes(sqliteConnection)) }

    /// Rows changed since the connection was opened. The corresponding C function is `sqlite3_total_changes`.
    public var totalChangesCount: Int { Int(sqlite3_total_changes(sqliteConnection)) }

    /// True between BEGIN and COMMIT/ROLLBACK. The corresponding C function is `sqlite3_get_autocommit`.
    public var isInsideTransaction: Bool { sqlite3_get_autocommit(sqliteConnection) == 0 }

    /// True when the connection cannot write (opened read-only, or inside a read-only access).
    public var isReadOnly: Bool {
        readOnlyDepth > 0 || sqlite3_db_readonly(sqliteConnection, "main") == 1
    }

    // MARK: Statements

    /// Compiles a single SQL statement. Throws on syntax errors and when `sql` holds several statements.
    ///
    ///     let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
    ///     try statement.execute(arguments: ["Arthur"])
    ///     try statement.execute(arguments: ["Barbara"])
    public func makeStatement(sql: String) throws -> Statement {
        try makeStatement(sql: sql, persistent: false)
    }

    /// Compiles a single statement from an SQL literal and sets its arguments.
    public func makeStatement(literal: SQL) throws -> Statement {
        let (sql, arguments) = literal.build()
        let statement = try makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return statement
    }

    /// A compiled statement reused across calls with the same SQL (the fetch methods use it). Do not keep it:
    /// the next call with the same SQL may reset it. A statement still in use by a cursor is not reused.
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache[sql], !statement.isBusy {
            return statement
        }
        let statement = try makeStatement(sql: sql, persistent: true)
        if statementCache[sql] == nil {
            if statementCache.count >= 256 { statementCache.removeAll(keepingCapacity: true) }
            statementCache[sql] = statement
        }
        return statement
    }

    /// Compiles exactly one statement.
    func makeStatement(sql: String, persistent: Bool) throws -> Statement {
        try sql.withCString { cString in
            var statementHandle: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
            let code = sqlite3_prepare_v3(sqliteConnection, cString, -1, flags, &statementHandle, &tail)
            guard code == SQLITE_OK else {
                throw DatabaseError.connectionError(sqliteConnection, code: code, sql: sql)
            }
            guard let statementHandle else {
                throw DatabaseError.misuse("no SQL statement in `\(sql)`", sql: sql)
            }
            if let tail, !isBlankSQL(tail) {
                sqlite3_finalize(statementHandle)
                throw DatabaseError.misuse(
                    "multiple statements found: use execute(sql:) or one statement per makeStatement(sql:)", sql: sql)
            }
            return Statement(database: self, sqliteStatement: statementHandle)
        }
    }

    // MARK: Executing

    /// Executes one or several SQL statements separated by semicolons. Positional arguments are consumed from
    /// left to right by the statements, named arguments are shared.
    ///
    ///     try db.execute(sql: """
    ///         INSERT INTO player (name, score) VALUES (?, ?);
    ///         INSERT INTO player (name, score) VALUES (?, ?);
    ///         """, arguments: ["Arthur", 750, "Barbara", 1000])
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        if let statement = statementCache[sql], !statement.isBusy {
            try statement.execute(arguments: arguments)
            return
        }
        var consumed = 0
        var isFirst = true
        try sql.withCString { cString in
            var next: UnsafePointer<CChar> = cString
            while !isBlankSQL(next) {
                var statementHandle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v3(sqliteConnection, next, -1, 0, &statementHandle, &tail)
                guard code == SQLITE_OK else {
                    throw DatabaseError.connectionError(
                        sqliteConnection, code: code,
                        sql: String(cString: next).trimmingCharacters(in: .whitespacesAndNewlines))
                }
                guard let tail else { break }
                defer { next = tail }
                guard let statementHandle else { continue }  // a comment, or a lone semicolon
                let statement = Statement(database: self, sqliteStatement: statementHandle)
                if isFirst && isBlankSQL(tail) && statementCache.count < 256 {
                    // A single statement: cache it for the next call with the same SQL.
                    statementCache[sql] = statement
                }
                isFirst = false
                try statement.bind(arguments, consumed: &consumed)
                try statement.executeBound()
            }
        }
        if consumed != arguments.values.count {
            throw DatabaseError.misuse(
                "wrong number of statement arguments: \(arguments.values.count) (expected \(consumed))", sql: sql)
        }
    }

    /// A cursor over the statements of an SQL string, compiled one at a time, each with its share of the
    /// positional arguments (and the named ones it uses).
    ///
    ///     let statements = try db.allStatements(sql: "SELECT 1; SELECT 2")
    ///     while let statement = try statements.next() { print(try Int.fetchOne(statement)!) }
    public func allStatements(sql: String, arguments: StatementArguments? = nil) throws -> SQLStatementCursor {
        SQLStatementCursor(database: self, sql: sql, arguments: arguments)
    }

    /// Executes SQL built with interpolation: interpolated values become statement arguments, never SQL text.
    ///
    ///     let name = "O'Brien"
    ///     try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(550))")
    public func execute(literal: SQL) throws {
        let (sql, arguments) = literal.build()
        try execute(sql: sql, arguments: arguments)
    }

    /// Runs `body` with writes forbidden: a statement that would write (`sqlite3_stmt_readonly` false) throws
    /// `SQLITE_READONLY` before it runs. GRDB sets `PRAGMA query_only` instead, but changing that pragma makes
    /// SQLite expire every compiled statement, twice per read; this guard costs one check per execution. Raw C
    /// calls on ``sqliteConnection`` are not guarded.
    func readOnly<T>(_ body: () throws -> T) throws -> T {
        if readOnlyDepth > 0 || configuration.readonly {
            return try body()
        }
        readOnlyDepth += 1
        observationSlot.forbidsWrites = true
        defer {
            readOnlyDepth -= 1
            observationSlot.forbidsWrites = false
        }
        return try body()
    }

    /// Clears cached schema facts after this connection changed the schema.
    func clearSchemaCache() {
        schemaCache = SchemaCache()
    }
}

/// True when the rest of a C string is only whitespace, semicolons and SQL comments.
func isBlankSQL(_ pointer: UnsafePointer<CChar>) -> Bool {
    var p = pointer
    while true {
        switch UInt8(bitPattern: p.pointee) {
        case 0: return true
        case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x3B: p += 1
        case 0x2D where UInt8(bitPattern: p[1]) == 0x2D:  // -- comment
            while p.pointee != 0 && p.pointee != 0x0A { p += 1 }
        case 0x2F where UInt8(bitPattern: p[1]) == 0x2A:  // /* comment */
            p += 2
            while p.pointee != 0 && !(p.pointee == 0x2A && p[1] == 0x2F) { p += 1 }
            if p.pointee == 0 { return true }
            p += 2
        default: return false
        }
    }
}

/// The observation broker and the read-only guard of one connection, shared by the connection and its
/// statements (which check them at each execution without going through their unowned connection).
final class ObservationSlot {
    /// Nil until the connection needs observation.
    var broker: DatabaseObservationBroker?
    /// True inside a read-only access: statements that write throw `SQLITE_READONLY`.
    var forbidsWrites = false
}
