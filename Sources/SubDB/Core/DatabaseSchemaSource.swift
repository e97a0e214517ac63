/// Schema facts SQLite cannot tell, as in GRDB: the primary key of a view, so that records backed by a view can
/// use `fetchOne(db, key:)`, `filter(id:)`, `update` and `delete`. Set it with ``Configuration/schemaSource``.
///
///     struct MySchemaSource: DatabaseSchemaSource {
///         func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
///             view.name == "playerView" ? ["id"] : nil
///         }
///     }
public protocol DatabaseSchemaSource: Sendable {
    /// The primary key columns of a view; nil for no customization, an empty array for no primary key.
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]?
}

extension DatabaseSchemaSource {
    /// No customization.
    public func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? { nil }

    /// A schema source that asks `other` when this one has no customization.
    public func then(_ other: some DatabaseSchemaSource) -> some DatabaseSchemaSource {
        ChainedSchemaSource(first: self, second: other)
    }
}

/// Two schema sources, the first one winning.
struct ChainedSchemaSource<First: DatabaseSchemaSource, Second: DatabaseSchemaSource>: DatabaseSchemaSource {
    let first: First
    let second: Second

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        try first.columnsForPrimaryKey(db, inView: view) ?? second.columnsForPrimaryKey(db, inView: view)
    }
}

/// Identifies a schema object (a table or a view) of a connection, as GRDB's: its name and the schema that
/// holds it (``DatabaseSchemaID/main``, ``DatabaseSchemaID/temp``, or an attached database).
///
///     DatabaseObjectID(name: "playerView", schemaID: .main)
public struct DatabaseObjectID: Hashable, Sendable {
    /// The object name.
    public var name: String
    /// The SQLite schema that holds the object.
    public var schemaID: DatabaseSchemaID

    /// The identifier of `name` in the schema `schemaID`.
    public init(name: String, schemaID: DatabaseSchemaID) {
        self.name = name
        self.schemaID = schemaID
    }
}

/// One of the schemas of a connection, as GRDB's: `main`, `temp`, or an attached database.
public struct DatabaseSchemaID: Hashable, Sendable {
    private enum Kind: Hashable, Sendable {
        case main
        case temp
        case attached(String)
    }

    private let kind: Kind

    private init(kind: Kind) { self.kind = kind }

    /// The identifier of the "main" database schema.
    public static let main = DatabaseSchemaID(kind: .main)

    /// The identifier of the "temp" database schema (temporary tables and views).
    public static let temp = DatabaseSchemaID(kind: .temp)

    /// The identifier of the schema of a database attached as `name` (`ATTACH DATABASE ... AS name`).
    public static func attached(_ name: String) -> DatabaseSchemaID { DatabaseSchemaID(kind: .attached(name)) }

    /// The name of the schema, as SQL names it: `main`, `temp`, or the name of the attached database.
    public var name: String {
        switch kind {
        case .main: "main"
        case .temp: "temp"
        case .attached(let name): name
        }
    }

    /// The table that lists the objects of the schema: `sqlite_master`, `sqlite_temp_master`, or
    /// `"name".sqlite_master` for an attached database.
    public var schemaTableName: String {
        switch kind {
        case .main: "sqlite_master"
        case .temp: "sqlite_temp_master"
        case .attached(let name): "\(name.quotedDatabaseIdentifier).sqlite_master"
        }
    }

    /// The identifier of the schema SQL names `name` (`main`, `temp`, or an attached database).
    init(name: String) {
        switch name.lowercased() {
        case "main": kind = .main
        case "temp": kind = .temp
        default: kind = .attached(name)
        }
    }
}

extension Database {
    /// Runs `body` with `schemaSource` in effect (instead of the configuration's), as GRDB's
    /// `withSchemaSource(_:execute:)`.
    public func withSchemaSource<T>(_ schemaSource: some DatabaseSchemaSource, execute body: () throws -> T) rethrows
        -> T
    {
        let previous = temporarySchemaSource
        temporarySchemaSource = schemaSource
        clearSchemaCache()
        defer {
            temporarySchemaSource = previous
            clearSchemaCache()
        }
        return try body()
    }

    /// The current schema source: the one of ``withSchemaSource(_:execute:)``, else the configuration's, which
    /// is off while ``DatabaseMigrator`` runs migrations (as in GRDB).
    public var schemaSource: (any DatabaseSchemaSource)? {
        temporarySchemaSource ?? (isConfigurationSchemaSourceDisabled ? nil : configuration.schemaSource)
    }

    /// Runs `body` without the configuration's schema source (``DatabaseMigrator`` runs migrations so: a
    /// migration must not depend on schema facts a later version of the app may change).
    /// ``withSchemaSource(_:execute:)`` still works inside.
    func withoutConfigurationSchemaSource<T>(_ body: () throws -> T) rethrows -> T {
        guard configuration.schemaSource != nil, !isConfigurationSchemaSourceDisabled else { return try body() }
        isConfigurationSchemaSourceDisabled = true
        clearSchemaCache()
        defer {
            isConfigurationSchemaSourceDisabled = false
            clearSchemaCache()
        }
        return try body()
    }

    /// The primary key the schema source gives `view` (in `schemaName`, else in `temp`, `main` or an attached schema), when `view`
    /// is a view and the source customizes it.
    func customPrimaryKey(ofView view: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo? {
        guard let schemaSource else { return nil }
        let schemaIDs = schemaName.map { [DatabaseSchemaID(name: $0)] } ?? schemaIDsInLookupOrder()
        for schemaID in schemaIDs {
            let isView = try Bool.fetchOne(
                self,
                sql: "SELECT EXISTS (SELECT 1 FROM \(schemaID.schemaTableName) WHERE type = 'view' AND name = ? "
                    + "COLLATE NOCASE)",
                arguments: [view])
            guard isView == true else { continue }
            let objectID = DatabaseObjectID(name: view, schemaID: schemaID)
            guard let columns = try schemaSource.columnsForPrimaryKey(self, inView: objectID) else { return nil }
            return PrimaryKeyInfo(columns: columns, rowIDColumn: nil)
        }
        return nil
    }
}
