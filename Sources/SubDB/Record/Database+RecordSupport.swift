import Synchronization

// What the record layer and the query interface need from a connection, on top of Core.

extension Database {
    /// The primary key columns of a table, and the column that aliases the rowid, if any (cached by Core).
    @inline(__always)
    func subdbPrimaryKey(_ table: String) throws -> PrimaryKeyInfo {
        try primaryKey(table)
    }

    func subdbPrimaryKeyColumns(_ table: String) throws -> [String] {
        try subdbPrimaryKey(table).columns
    }

    /// The cached `INSERT INTO "table" ("a", "b") VALUES (?,?)` statement. The SQL of the last insert of each
    /// table is remembered, so that inserting many records of one type builds no SQL.
    func subdbInsertStatement(table: String, columns: [String], onConflict: Database.ConflictResolution?) throws
        -> Statement
    {
        if let sql = insertSQLCache.sql(table: table, columns: columns, onConflict: onConflict) {
            return try cachedStatement(sql: sql)
        }
        var sql = "INSERT "
        if let onConflict { sql += "OR \(onConflict.rawValue) " }
        sql += "INTO \(table.quotedDatabaseIdentifier) "
        if columns.isEmpty {
            sql += "DEFAULT VALUES"
        } else {
            sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ") VALUES ("
            sql += String(repeating: "?,", count: columns.count - 1) + "?)"
        }
        insertSQLCache.store(sql, table: table, columns: columns, onConflict: onConflict)
        return try cachedStatement(sql: sql)
    }
}

/// The SQL of recent inserts, per table and column list. Shared by all connections: it holds SQL text only.
let insertSQLCache = InsertSQLCache()

/// A small, lock-protected cache from (table, columns, conflict) to INSERT SQL.
final class InsertSQLCache: Sendable {
    private struct Entry {
        let table: String
        let columns: [String]
        let onConflict: Database.ConflictResolution?
        let sql: String
    }

    private let entries = Mutex<[String: Entry]>([:])

    func sql(table: String, columns: [String], onConflict: Database.ConflictResolution?) -> String? {
        entries.withLock { entries in
            guard let entry = entries[table], entry.onConflict == onConflict, entry.columns == columns else {
                return nil
            }
            return entry.sql
        }
    }

    func store(_ sql: String, table: String, columns: [String], onConflict: Database.ConflictResolution?) {
        entries.withLock { entries in
            if entries.count > 256 { entries.removeAll() }
            entries[table] = Entry(table: table, columns: columns, onConflict: onConflict, sql: sql)
        }
    }
}
