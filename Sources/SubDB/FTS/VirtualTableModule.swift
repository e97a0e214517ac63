/// A virtual table module such as ``FTS5``, for `db.create(virtualTable:using:)`.
///
///     try db.create(virtualTable: "book", using: FTS5()) { t in
///         t.column("title")
///     }
public protocol VirtualTableModule {
    /// The definition the creation closure fills.
    associatedtype TableDefinition

    /// The module name, such as `fts5`.
    var moduleName: String { get }

    /// A new, empty definition.
    func makeTableDefinition() -> TableDefinition

    /// The module arguments of `CREATE VIRTUAL TABLE ... USING module(arguments)`.
    func moduleArguments(for definition: TableDefinition, in db: Database) throws -> [String]

    /// Called after the table was created (FTS5 creates its synchronization triggers here).
    func database(_ db: Database, didCreate tableName: String, using definition: TableDefinition) throws
}

/// Options of `db.create(virtualTable:options:using:)`.
public struct VirtualTableOptions: OptionSet, Sendable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `CREATE VIRTUAL TABLE IF NOT EXISTS`
    public static let ifNotExists = VirtualTableOptions(rawValue: 1)
    /// `CREATE VIRTUAL TABLE temp."name"`: a table of this connection only, dropped when it closes.
    public static let temporary = VirtualTableOptions(rawValue: 2)
}

extension Database {
    /// Creates a virtual table: `CREATE VIRTUAL TABLE "book" USING fts5("title", "body")`.
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String, options: VirtualTableOptions = [], using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil
    ) throws {
        let definition = module.makeTableDefinition()
        try body?(definition)
        var sql = "CREATE VIRTUAL TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        if options.contains(.temporary) { sql += "temp." }
        sql += tableName.quotedDatabaseIdentifier + " USING " + module.moduleName
        let arguments = try module.moduleArguments(for: definition, in: self)
        if !arguments.isEmpty { sql += "(" + arguments.joined(separator: ", ") + ")" }
        if options.contains(.ifNotExists), try tableExists(tableName) { return }
        try execute(sql: sql)
        try module.database(self, didCreate: tableName, using: definition)
    }

    /// Creates a virtual table, GRDB 5 style: `create(virtualTable:ifNotExists:using:)`.
    @_disfavoredOverload
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String, ifNotExists: Bool = false, using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil
    ) throws {
        try create(virtualTable: tableName, options: ifNotExists ? .ifNotExists : [], using: module, body)
    }

    /// Creates a virtual table from a raw module declaration: `create(virtualTable: "v", using: "fts5vocab(book, row)")`.
    public func create(virtualTable tableName: String, options: VirtualTableOptions = [], using module: String) throws {
        var sql = "CREATE VIRTUAL TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        if options.contains(.temporary) { sql += "temp." }
        try execute(sql: sql + tableName.quotedDatabaseIdentifier + " USING " + module)
    }
}
