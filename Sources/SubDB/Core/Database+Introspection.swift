internal import CSQLite
import Foundation

/// Schema facts cached per connection, cleared when the connection runs CREATE/DROP/ALTER or rolls back.
struct SchemaCache {
    var primaryKeys: [String: PrimaryKeyInfo] = [:]
    var columns: [String: [ColumnInfo]] = [:]
}

/// A column of a table, from `PRAGMA table_info`.
public struct ColumnInfo: Hashable, Sendable {
    /// The column name.
    public let name: String
    /// The declared type, such as `TEXT` (empty when none).
    public let type: String
    /// True for NOT NULL columns.
    public let isNotNull: Bool
    /// The SQL of the default value, such as `'unknown'`, or nil.
    public let defaultValueSQL: String?
    /// The 1-based position in the primary key, 0 when not part of it.
    public let primaryKeyIndex: Int
    /// The column position, from 0.
    public let cid: Int

    /// Same as ``isNotNull``.
    public var notNull: Bool { isNotNull }
}

/// An index, from `PRAGMA index_list` and `PRAGMA index_info`.
public struct IndexInfo: Hashable, Sendable {
    /// The index name (`sqlite_autoindex_...` for UNIQUE and PRIMARY KEY constraints).
    public let name: String
    /// The indexed columns, in order.
    public let columns: [String]
    /// True for unique indexes.
    public let isUnique: Bool
    /// How the index was created: `c` (CREATE INDEX), `u` (UNIQUE constraint), `pk` (PRIMARY KEY).
    public let origin: String
}

/// The primary key of a table.
public struct PrimaryKeyInfo: Hashable, Sendable {
    /// The primary key columns; `["rowid"]` for tables without an explicit primary key.
    public let columns: [String]
    /// The column that aliases the rowid (an INTEGER PRIMARY KEY, or the hidden `rowid`), nil otherwise.
    public let rowIDColumn: String?

    /// True when the primary key is the rowid (hidden, or aliased by an INTEGER PRIMARY KEY).
    public var isRowID: Bool { rowIDColumn != nil }
}

/// A foreign key of a table, from `PRAGMA foreign_key_list`.
public struct ForeignKeyInfo: Hashable, Sendable {
    /// The SQLite id of the foreign key.
    public let id: Int
    /// The referenced table.
    public let destinationTable: String
    /// (origin column, destination column) pairs.
    public let mapping: [Mapping]

    /// A column pair of a foreign key.
    public struct Mapping: Hashable, Sendable {
        /// The column in the table that holds the foreign key.
        public let origin: String
        /// The referenced column.
        public let destination: String
    }

    /// The columns of the table that holds the foreign key.
    public var originColumns: [String] { mapping.map(\.origin) }
    /// The referenced columns.
    public var destinationColumns: [String] { mapping.map(\.destination) }
}

/// A row that violates a foreign key, from `PRAGMA foreign_key_check`.
public struct ForeignKeyViolation: Hashable, Sendable, CustomStringConvertible {
    /// The table of the violating row.
    public let originTable: String
    /// The rowid of the violating row, nil for WITHOUT ROWID tables.
    public let originRowID: Int64?
    /// The referenced table.
    public let destinationTable: String
    /// The foreign key id in `PRAGMA foreign_key_list`.
    public let foreignKeyId: Int

    /// `FOREIGN KEY constraint violation - from player to team, in rowid 1`
    public var description: String {
        var text = "FOREIGN KEY constraint violation - from \(originTable) to \(destinationTable)"
        if let originRowID { text += ", in rowid \(originRowID)" }
        return text
    }
}

extension Database {
    /// True when the table exists: in `schemaName` (`main`, `temp` or an attached database) if given, else in
    /// any schema (`temp`, `main`, then attached databases), as SQLite resolves names.
    public func tableExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try schemaObjectExists(type: "table", name: name, in: schemaName)
    }

    /// True when the view exists (in `schemaName` if given, else in any schema).
    public func viewExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try schemaObjectExists(type: "view", name: name, in: schemaName)
    }

    /// True when the trigger exists (in `schemaName` if given, else in any schema).
    public func triggerExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try schemaObjectExists(type: "trigger", name: name, in: schemaName)
    }

    /// True when the index exists.
    public func indexExists(_ name: String) throws -> Bool {
        try schemaObjectExists(type: "index", name: name, in: nil)
    }

    private func schemaObjectExists(type: String, name: String, in schemaName: String?) throws -> Bool {
        if type == "table" && ["sqlite_master", "sqlite_temp_master"].contains(name.lowercased()) { return true }
        if let schemaName {
            let masterTable = DatabaseSchemaID(name: schemaName).schemaTableName
            return try Bool.fetchOne(
                self,
                sql: "SELECT EXISTS (SELECT 1 FROM \(masterTable) WHERE type = ? AND name = ? COLLATE NOCASE)",
                arguments: [type, name]) ?? false
        }
        let schemaIDs = schemaIDsInLookupOrder()
        return try Bool.fetchOne(
            self,
            sql: "SELECT EXISTS ("
                + schemaIDs.map { "SELECT 1 FROM \($0.schemaTableName) WHERE type = ? AND name = ? COLLATE NOCASE" }
                .joined(separator: " UNION ALL ") + ")",
            arguments: StatementArguments(Array(repeating: [type, name], count: schemaIDs.count).flatMap { $0 }))
            ?? false
    }

    /// The schemas where SQLite looks for a table named without its schema, in SQLite's order: `temp`, `main`,
    /// then the attached databases in the order they were attached (as GRDB does, so that records and
    /// associations work on the tables of attached databases).
    func schemaIDsInLookupOrder() -> [DatabaseSchemaID] {
        // sqlite3_db_name: 0 is main, 1 is temp, then the attached databases; no statement, so nothing traced.
        var schemaIDs: [DatabaseSchemaID] = [.temp, .main]
        var index: Int32 = 2
        while let name = sqlite3_db_name(sqliteConnection, index) {
            schemaIDs.append(DatabaseSchemaID(name: String(cString: name)))
            index += 1
        }
        return schemaIDs
    }

    /// The schema version, incremented by SQLite on every schema change (`PRAGMA schema_version`).
    public func schemaVersion() throws -> Int32 {
        try Int32.fetchOne(self, sql: "PRAGMA schema_version") ?? 0
    }

    /// The columns of a table or view, in order, in `schemaName` if given (`main`, `temp` or an attached
    /// database). Throws `no such table: name` for a missing table.
    public func columns(in table: String, in schemaName: String? = nil) throws -> [ColumnInfo] {
        let key = schemaCacheKey(table, schemaName)
        if let cached = schemaCache.columns[key] { return cached }
        let rows = try Row.fetchAll(
            self, sql: "PRAGMA \(pragmaPrefix(schemaName))table_info(\(quoteIdentifier(table)))")
        guard !rows.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        let columns = rows.map { row in
            ColumnInfo(
                name: row["name"], type: row["type"] ?? "", isNotNull: row["notnull"],
                defaultValueSQL: row["dflt_value"],
                primaryKeyIndex: row["pk"], cid: row["cid"])
        }
        schemaCache.columns[key] = columns
        return columns
    }

    /// The key of a table in the schema cache: its name, qualified when a schema is given.
    private func schemaCacheKey(_ table: String, _ schemaName: String?) -> String {
        schemaName.map { "\($0.lowercased())\u{1}\(table)" } ?? table
    }

    /// `"schema".` before a pragma name when a schema is given, else nothing.
    private func pragmaPrefix(_ schemaName: String?) -> String {
        schemaName.map { quoteIdentifier($0) + "." } ?? ""
    }

    /// The indexes of a table, in `schemaName` if given. Throws for a missing table.
    public func indexes(on table: String, in schemaName: String? = nil) throws -> [IndexInfo] {
        guard try tableExists(table, in: schemaName) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        let prefix = pragmaPrefix(schemaName)
        let list = try Row.fetchAll(self, sql: "PRAGMA \(prefix)index_list(\(quoteIdentifier(table)))")
        return try list.map { row in
            let name: String = row["name"]
            let columns =
                try Row.fetchAll(self, sql: "PRAGMA \(prefix)index_info(\(quoteIdentifier(name)))")
                .sorted { ($0["seqno"] as Int) < ($1["seqno"] as Int) }
                .map { $0["name"] ?? "" } as [String]
            return IndexInfo(name: name, columns: columns, isUnique: row["unique"], origin: row["origin"] ?? "c")
        }
    }

    /// The primary key of a table: explicit columns, an INTEGER PRIMARY KEY, or the hidden rowid.
    ///
    ///     try db.primaryKey("player").columns      // ["id"]
    ///     try db.primaryKey("player").rowIDColumn  // "id" for an INTEGER PRIMARY KEY
    public func primaryKey(_ table: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo {
        let key = schemaCacheKey(table, schemaName)
        if let cached = schemaCache.primaryKeys[key] { return cached }
        if let custom = try customPrimaryKey(ofView: table, in: schemaName) {
            schemaCache.primaryKeys[key] = custom
            return custom
        }
        let columns = try self.columns(in: table, in: schemaName)
        // A view has no primary key unless the schema source gives one: GRDB throws rather than answer rowid.
        if columns.allSatisfy({ $0.primaryKeyIndex == 0 }), try viewExists(table, in: schemaName) {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        let pkColumns = columns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        let info: PrimaryKeyInfo
        if pkColumns.isEmpty {
            info = PrimaryKeyInfo(columns: ["rowid"], rowIDColumn: "rowid")
        } else if pkColumns.count == 1, pkColumns[0].type.uppercased() == "INTEGER",
            try !isWithoutRowID(table, in: schemaName)
        {
            info = PrimaryKeyInfo(columns: [pkColumns[0].name], rowIDColumn: pkColumns[0].name)
        } else {
            info = PrimaryKeyInfo(columns: pkColumns.map(\.name), rowIDColumn: nil)
        }
        schemaCache.primaryKeys[key] = info
        return info
    }

    private func isWithoutRowID(_ table: String, in schemaName: String?) throws -> Bool {
        let masterTables = (schemaName.map { [DatabaseSchemaID(name: $0)] } ?? schemaIDsInLookupOrder())
            .map(\.schemaTableName)
        let sql =
            try String.fetchOne(
                self,
                sql: masterTables.map { "SELECT sql FROM \($0) WHERE type = 'table' AND name = ? COLLATE NOCASE" }
                    .joined(separator: " UNION ALL "),
                arguments: StatementArguments(Array(repeating: table, count: masterTables.count))) ?? ""
        return sql.uppercased().replacingOccurrences(of: " ", with: "").hasSuffix("WITHOUTROWID")
    }

    /// The foreign keys of a table, in `schemaName` if given.
    public func foreignKeys(on table: String, in schemaName: String? = nil) throws -> [ForeignKeyInfo] {
        guard try tableExists(table, in: schemaName) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        let rows = try Row.fetchAll(
            self, sql: "PRAGMA \(pragmaPrefix(schemaName))foreign_key_list(\(quoteIdentifier(table)))")
        var result: [ForeignKeyInfo] = []
        var byId: [Int: (table: String, pairs: [(seq: Int, from: String, to: String?)])] = [:]
        var order: [Int] = []
        for row in rows {
            let id: Int = row["id"]
            if byId[id] == nil {
                order.append(id)
                byId[id] = (row["table"], [])
            }
            byId[id]?.pairs.append((row["seq"], row["from"], row["to"]))
        }
        for id in order {
            guard let entry = byId[id] else { continue }
            let pairs = entry.pairs.sorted { $0.seq < $1.seq }
            var destinations = pairs.map(\.to)
            if destinations.contains(where: { $0 == nil }) {
                // `REFERENCES team` without columns: the destination's primary key.
                let pk = try primaryKey(entry.table, in: schemaName).columns
                destinations = pk.map { Optional($0) }
            }
            let mapping = zip(pairs, destinations).map {
                ForeignKeyInfo.Mapping(origin: $0.0.from, destination: $0.1 ?? "rowid")
            }
            result.append(ForeignKeyInfo(id: id, destinationTable: entry.table, mapping: mapping))
        }
        return result
    }

    /// The rows that violate foreign keys, in all tables or in one (`PRAGMA foreign_key_check`).
    public func foreignKeyViolations(in table: String? = nil) throws -> [ForeignKeyViolation] {
        let sql = table.map { "PRAGMA foreign_key_check(\(quoteIdentifier($0)))" } ?? "PRAGMA foreign_key_check"
        return try Row.fetchAll(self, sql: sql).map { row in
            ForeignKeyViolation(
                originTable: row[0], originRowID: row[1], destinationTable: row[2], foreignKeyId: row[3])
        }
    }

    /// Throws `SQLITE_CONSTRAINT_FOREIGNKEY` describing the first violation, if any.
    public func checkForeignKeys(in table: String? = nil) throws {
        if let violation = try foreignKeyViolations(in: table).first {
            throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY, message: violation.description)
        }
    }
}
