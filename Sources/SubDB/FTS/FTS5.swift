/// The FTS5 full-text module: `db.create(virtualTable: "book", using: FTS5()) { t in ... }`.
///
///     try db.create(virtualTable: "book", using: FTS5()) { t in
///         t.tokenizer = .unicode61()
///         t.column("title")
///         t.column("body")
///     }
///     let books = try Book.matching(FTS5Pattern(matchingAllTokensIn: "sqlite database")).fetchAll(db)
public struct FTS5: VirtualTableModule, Sendable {
    /// How the `unicode61` tokenizer treats diacritics (`remove_diacritics`).
    public enum Diacritics: Sendable {
        /// Keep diacritics: `remove_diacritics 0`.
        case keep
        /// Remove diacritics from Latin characters as SQLite did before 3.27: `remove_diacritics 1` (default).
        case removeLegacy
        /// Remove diacritics, also from characters with several: `remove_diacritics 2`.
        case remove
    }

    /// Creates the module.
    public init() {}

    /// `fts5`
    public var moduleName: String { "fts5" }

    /// A new, empty table definition.
    public func makeTableDefinition() -> FTS5TableDefinition { FTS5TableDefinition() }

    /// The arguments of `USING fts5(...)`: columns, then `tokenize`, `content`, `content_rowid`, `prefix`,
    /// `columnsize` and `detail`.
    public func moduleArguments(for definition: FTS5TableDefinition, in db: Database) throws -> [String] {
        guard !definition.columns.isEmpty else {
            throw DatabaseError(message: "FTS5 virtual table requires at least one column")
        }
        var arguments = definition.columns.map { column in
            column.isIndexed
                ? column.name.quotedDatabaseIdentifier : "\(column.name.quotedDatabaseIdentifier) UNINDEXED"
        }
        if let tokenizer = definition.tokenizer {
            arguments.append("tokenize=" + SQLLiteral.sql(tokenizer.components.joined(separator: " ").databaseValue))
        }
        switch definition.contentMode {
        case .raw(let content, let contentRowID):
            if let content { arguments.append("content=" + SQLLiteral.sql(content.databaseValue)) }
            if let contentRowID { arguments.append("content_rowid=" + SQLLiteral.sql(contentRowID.databaseValue)) }
        case .synchronized(let contentTable):
            arguments.append("content=" + SQLLiteral.sql(contentTable.databaseValue))
            if let rowIDColumn = try db.primaryKey(contentTable).rowIDColumn, rowIDColumn.lowercased() != "rowid" {
                arguments.append("content_rowid=" + SQLLiteral.sql(rowIDColumn.databaseValue))
            }
        }
        if let prefixes = definition.prefixes, !prefixes.isEmpty {
            arguments.append(
                "prefix=" + SQLLiteral.sql(prefixes.sorted().map(String.init).joined(separator: " ").databaseValue))
        }
        if let columnSize = definition.columnSize { arguments.append("columnsize=\(columnSize)") }
        if let detail = definition.detail { arguments.append("detail=\(detail)") }
        return arguments
    }

    /// Creates the synchronization triggers of `synchronize(withTable:)` and fills the index.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS5TableDefinition) throws {
        guard case .synchronized(let contentTable) = definition.contentMode else { return }
        let primaryKey = try db.primaryKey(contentTable)
        let rowIDColumn = primaryKey.rowIDColumn ?? "rowid"
        let ftsTable = tableName.quotedDatabaseIdentifier
        let content = contentTable.quotedDatabaseIdentifier
        let indexedColumns = definition.columns.map(\.name)
        let ftsColumns = (["rowid"] + indexedColumns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowIDColumn] + indexedColumns).map { "new.\($0.quotedDatabaseIdentifier)" }
            .joined(separator: ", ")
        let oldValues = ([rowIDColumn] + indexedColumns).map { "old.\($0.quotedDatabaseIdentifier)" }
            .joined(separator: ", ")
        try db.execute(
            sql: """
                CREATE TRIGGER \("__\(tableName)_ai".quotedDatabaseIdentifier) AFTER INSERT ON \(content) BEGIN
                    INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES (\(newValues));
                END;
                CREATE TRIGGER \("__\(tableName)_ad".quotedDatabaseIdentifier) AFTER DELETE ON \(content) BEGIN
                    INSERT INTO \(ftsTable)(\(ftsTable), \(ftsColumns)) VALUES('delete', \(oldValues));
                END;
                CREATE TRIGGER \("__\(tableName)_au".quotedDatabaseIdentifier) AFTER UPDATE ON \(content) BEGIN
                    INSERT INTO \(ftsTable)(\(ftsTable), \(ftsColumns)) VALUES('delete', \(oldValues));
                    INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES (\(newValues));
                END;
                """)
        try db.execute(sql: "INSERT INTO \(ftsTable)(\(ftsTable)) VALUES('rebuild')")
    }
}

/// The columns and options of an FTS5 table being created.
///
///     try db.create(virtualTable: "book", using: FTS5()) { t in   // t is an FTS5TableDefinition
///         t.tokenizer = .porter()
///         t.column("title")
///         t.column("isbn").notIndexed()
///     }
public final class FTS5TableDefinition {
    enum ContentMode {
        case raw(content: String?, contentRowID: String?)
        case synchronized(contentTable: String)
    }

    var columns: [FTS5ColumnDefinition] = []
    var contentMode: ContentMode = .raw(content: nil, contentRowID: nil)

    /// The tokenizer: `t.tokenizer = .unicode61()`, `.porter()`, `.trigram()`.
    public var tokenizer: FTS5TokenizerDescriptor?

    /// The `content` option: `""` for a contentless table, a table name for external content.
    public var content: String? {
        get {
            switch contentMode {
            case .raw(let content, _): return content
            case .synchronized(let contentTable): return contentTable
            }
        }
        set {
            switch contentMode {
            case .raw(_, let contentRowID): contentMode = .raw(content: newValue, contentRowID: contentRowID)
            case .synchronized: contentMode = .raw(content: newValue, contentRowID: nil)
            }
        }
    }

    /// The `content_rowid` option.
    public var contentRowID: String? {
        get {
            if case .raw(_, let contentRowID) = contentMode { return contentRowID }
            return nil
        }
        set {
            switch contentMode {
            case .raw(let content, _): contentMode = .raw(content: content, contentRowID: newValue)
            case .synchronized: contentMode = .raw(content: nil, contentRowID: newValue)
            }
        }
    }

    /// The `prefix` option: prefix lengths to index, such as `[2, 3]`.
    public var prefixes: Set<Int>?

    /// The `columnsize` option.
    public var columnSize: Int?

    /// The `detail` option: `full`, `column` or `none`.
    public var detail: String?

    init() {}

    /// Appends a column.
    @discardableResult
    public func column(_ name: String) -> FTS5ColumnDefinition {
        let column = FTS5ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Indexes the content of another table, kept up to date by triggers; existing rows are indexed now.
    public func synchronize(withTable tableName: String) {
        contentMode = .synchronized(contentTable: tableName)
    }
}

/// A column of an FTS5 table.
public final class FTS5ColumnDefinition {
    let name: String
    var isIndexed = true

    init(name: String) { self.name = name }

    /// Excludes the column from the full-text index (`UNINDEXED`).
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }
}

extension Column {
    /// The FTS5 `rank` column, for `order(Column.rank)`: best matches first.
    public static let rank = Column("rank")
}

/// `bm25(table, weights...)`: the FTS5 relevance of a match, lower is better.
///
///     Book.matching(pattern).order(bm25("book", 10.0, 1.0))
public func bm25(_ tableName: String, _ weights: Double...) -> SQLExpression {
    let arguments = [tableName.quotedDatabaseIdentifier] + weights.map { String($0) }
    return SQLExpression(.literal(sql: "bm25(\(arguments.joined(separator: ", ")))", arguments: []))
}

extension Database {
    /// Drops the triggers created by `synchronize(withTable:)`.
    public func dropFTS5SynchronizationTriggers(forTable tableName: String) throws {
        try execute(
            sql: """
                DROP TRIGGER IF EXISTS \("__\(tableName)_ai".quotedDatabaseIdentifier);
                DROP TRIGGER IF EXISTS \("__\(tableName)_ad".quotedDatabaseIdentifier);
                DROP TRIGGER IF EXISTS \("__\(tableName)_au".quotedDatabaseIdentifier);
                """)
    }
}
