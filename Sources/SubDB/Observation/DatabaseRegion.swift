import Foundation

/// A part of the database: whole tables, or some columns of tables. ``ValueObservation`` refreshes its value
/// when a committed transaction modifies its region.
///
///     let region = DatabaseRegion(table: "player", columns: ["score"])
///     region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["score"]))   // true
///     region.isModified(byEventsOfKind: .insert(tableName: "team"))                            // false
///
/// Table and column names compare case-insensitively, as SQLite compares identifiers.
public struct DatabaseRegion: Hashable, Sendable, CustomStringConvertible {
    /// Lower-cased table name → lower-cased columns (nil: all columns).
    private(set) var tables: [String: Set<String>?]
    /// True for the full database (every table, including tables created later).
    public private(set) var isFullDatabase: Bool

    /// The empty region.
    public init() {
        tables = [:]
        isFullDatabase = false
    }

    /// The full database: every change modifies it.
    public static let fullDatabase: DatabaseRegion = {
        var region = DatabaseRegion()
        region.isFullDatabase = true
        return region
    }()

    /// A whole table, or some of its columns.
    public init(table: String, columns: Set<String>? = nil) {
        tables = [table.lowercased(): columns.map { Set($0.map { $0.lowercased() }) }]
        isFullDatabase = false
    }

    /// True when the region contains nothing.
    public var isEmpty: Bool { !isFullDatabase && tables.isEmpty }

    /// The lower-cased names of the tables in the region.
    public var tableNames: Set<String> { Set(tables.keys) }

    /// Adds another region.
    public mutating func formUnion(_ other: DatabaseRegion) {
        if isFullDatabase { return }
        if other.isFullDatabase {
            self = .fullDatabase
            return
        }
        for (table, columns) in other.tables {
            if let existing = tables[table] {
                guard let existing, let columns else {
                    tables[table] = .some(nil)
                    continue
                }
                tables[table] = existing.union(columns)
            } else {
                tables[table] = columns
            }
        }
    }

    /// This region and another one.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        var result = self
        result.formUnion(other)
        return result
    }

    /// True when events of this kind can modify the region. An update with an empty column set (columns
    /// unknown) modifies every region that contains its table.
    public func isModified(byEventsOfKind kind: DatabaseEventKind) -> Bool {
        if isFullDatabase { return true }
        guard let entry = tables[kind.tableName.lowercased()] else { return false }
        switch kind {
        case .insert, .delete:
            return true
        case .update(_, let columnNames):
            guard let columns = entry, !columnNames.isEmpty else { return true }
            return columnNames.contains { columns.contains($0.lowercased()) }
        }
    }

    /// True when the event can modify the region.
    public func isModified(by event: DatabaseEvent) -> Bool {
        isModified(byEventsOfKind: event.eventKind)
    }

    /// `player(name,score),team(*)`, tables sorted; `full database`, `empty`.
    public var description: String {
        if isFullDatabase { return "full database" }
        if tables.isEmpty { return "empty" }
        return tables.keys.sorted().map { table in
            guard let columns = tables[table], let columns else { return "\(table)(*)" }
            return "\(table)(\(columns.sorted().joined(separator: ",")))"
        }.joined(separator: ",")
    }
}

/// A value that describes a database region: ``DatabaseRegion``, ``Table``, query interface requests.
///
///     ValueObservation.tracking(region: Player.all(), Table("team")) { db in ... }
public protocol DatabaseRegionConvertible: Sendable {
    /// The region, computed with access to the database (requests compile their SQL to find it).
    func databaseRegion(_ db: Database) throws -> DatabaseRegion
}

extension DatabaseRegion: DatabaseRegionConvertible {
    /// The region itself.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self }
}

extension QueryInterfaceRequest: DatabaseRegionConvertible {
    /// The tables and columns the request reads, from SQLite's authorizer while its SQL compiles.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        let (sql, _) = try sqlAndArguments(db)
        return try db.observationBrokerCreatingIfNeeded().authorization(sql: sql).readRegion
    }
}

extension Database {
    /// The region read by an SQL query, from SQLite's authorizer while it compiles.
    ///
    ///     let region = try db.region(readBy: "SELECT name FROM player")   // player(name)
    public func region(readBy sql: String) throws -> DatabaseRegion {
        try observationBrokerCreatingIfNeeded().authorization(sql: sql).readRegion
    }
}
