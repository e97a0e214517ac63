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

    /// The cached `INSERT INTO "table" ("a","b") VALUES (?,?)` statement.
    func subdbInsertStatement(table: String, columns: [String], onConflict: Database.ConflictResolution?) throws
        -> Statement
    {
        var sql = "INSERT "
        if let onConflict { sql += "OR \(onConflict.rawValue) " }
        sql += "INTO \(table.quotedDatabaseIdentifier) "
        if columns.isEmpty {
            sql += "DEFAULT VALUES"
        } else {
            sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ") VALUES ("
            sql += String(repeating: "?,", count: columns.count - 1) + "?)"
        }
        return try cachedStatement(sql: sql)
    }
}
