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

/// Identifies a schema object (a table or a view) of a connection: its schema (`main`, `temp`, or an attached
/// database) and its name.
public struct DatabaseObjectID: Hashable, Sendable {
    /// The schema: `main`, `temp`, or the name of an attached database.
    public var schemaName: String
    /// The name of the table or view.
    public var name: String

    /// The identifier of `name` in `schemaName`.
    public init(schemaName: String = "main", name: String) {
        self.schemaName = schemaName
        self.name = name
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

    /// The schema source in effect.
    var schemaSource: (any DatabaseSchemaSource)? { temporarySchemaSource ?? configuration.schemaSource }

    /// The primary key the schema source gives `view`, when `view` is a view and the source customizes it.
    func customPrimaryKey(ofView view: String) throws -> PrimaryKeyInfo? {
        guard let schemaSource,
            let schema = try String.fetchOne(
                self,
                sql: "SELECT 'main' FROM sqlite_master WHERE type = 'view' AND name = ? COLLATE NOCASE "
                    + "UNION ALL SELECT 'temp' FROM sqlite_temp_master WHERE type = 'view' AND name = ? COLLATE NOCASE",
                arguments: [view, view]),
            let columns = try schemaSource.columnsForPrimaryKey(
                self, inView: DatabaseObjectID(schemaName: schema, name: view))
        else { return nil }
        return PrimaryKeyInfo(columns: columns, rowIDColumn: nil)
    }
}
