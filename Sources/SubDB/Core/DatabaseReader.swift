import Foundation

/// A type that gives read access to a database: ``DatabaseQueue`` and ``DatabasePool``.
///
///     func playerCount(_ reader: some DatabaseReader) throws -> Int {
///         try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0 }
///     }
public protocol DatabaseReader: AnyObject, Sendable {
    /// The configuration of the connections.
    var configuration: Configuration { get }

    /// Runs read-only database operations isolated in a transaction: they do not see changes performed by
    /// concurrent writes, even from other processes. Writes throw `SQLITE_READONLY`. Not reentrant.
    func read<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs read-only database operations isolated in a transaction, off the calling task.
    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs database operations without isolation: no transaction, so successive statements may see the
    /// changes of concurrent writes. Not reentrant.
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs database operations without isolation, reusing the current access when called from inside one.
    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T
}

/// A type that gives read and write access to a database: ``DatabaseQueue`` and ``DatabasePool``.
///
///     try writer.write { db in
///         try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
///     }
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `updates` in one IMMEDIATE transaction; a thrown error rolls it back. Not reentrant.
    func write<T>(_ updates: (Database) throws -> T) throws -> T

    /// Runs `updates` in one transaction, off the calling task.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` outside of any transaction. Not reentrant.
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// Runs `updates` outside of any transaction once no read is running (pools wait for their readers).
    func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// Runs `updates`, reusing the current write access when called from inside one.
    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) throws -> T
}

extension DatabaseWriter {
    /// Deletes every table, view, index and trigger, leaving an empty database.
    public func erase() throws {
        try barrierWriteWithoutTransaction { db in
            try db.eraseSchema()
        }
    }
}

extension Database {
    /// Drops every schema object except SQLite's own, with foreign keys off, then vacuums.
    func eraseSchema() throws {
        let foreignKeys = try Bool.fetchOne(self, sql: "PRAGMA foreign_keys") ?? false
        if foreignKeys { try execute(sql: "PRAGMA foreign_keys = OFF") }
        defer { if foreignKeys { try? execute(sql: "PRAGMA foreign_keys = ON") } }
        try inTransaction(.immediate) {
            let objects = try Row.fetchAll(
                self,
                sql: """
                    SELECT type, name FROM sqlite_master
                    WHERE name NOT LIKE 'sqlite_%' AND type IN ('table', 'view', 'trigger')
                    ORDER BY CASE type WHEN 'trigger' THEN 0 WHEN 'view' THEN 1 ELSE 2 END
                    """)
            for object in objects {
                let type: String = object["type"]
                let name: String = object["name"]
                try execute(sql: "DROP \(type.uppercased()) IF EXISTS \(quoteIdentifier(name))")
            }
            if try tableExists("sqlite_sequence") { try execute(sql: "DELETE FROM sqlite_sequence") }
            return .commit
        }
        clearSchemaCache()
        try execute(sql: "VACUUM")
    }
}

/// An SQL identifier in double quotes.
func quoteIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
