import Synchronization

/// A name for a table of a request, to refer to its columns from another table's filter or ordering, as in
/// GRDB:
///
///     let authorAlias = TableAlias()
///     let request = Book
///         .joining(required: Book.author.aliased(authorAlias))
///         .filter(Column("publishDate") >= authorAlias[Column("deathDate")])
///     // SELECT "book".* FROM "book" JOIN "author" ON ... WHERE "book"."publishDate" >= "author"."deathDate"
///
/// A named alias (`TableAlias(name: "a")`) is the alias used in the SQL; an unnamed one takes the name SubDB gives
/// the table. `Sendable`: the name an unnamed alias receives is kept under a `Mutex`.
public final class TableAlias: Sendable {
    /// The name given at creation, if any.
    public let name: String?
    /// The name given while the SQL of a request that uses the alias is built.
    private let resolvedName = Mutex<String?>(nil)

    /// An alias, unnamed (SubDB names it after its table) or with the name to use in the SQL.
    public init(name: String? = nil) { self.name = name }

    /// A column of the aliased table: `alias[Column("name")]` is `"author"."name"`.
    public subscript(_ column: some ColumnExpression) -> SQLExpression {
        SQLExpression(.aliasedColumn(name: column.name, alias: self))
    }

    /// A column of the aliased table, by name.
    public subscript(_ column: String) -> SQLExpression {
        SQLExpression(.aliasedColumn(name: column, alias: self))
    }

    /// The alias of the SQL: the given name, or the one received when the request was built.
    var sqlName: String? { name ?? resolvedName.withLock { $0 } }

    /// Records the name SubDB gave the aliased table.
    func resolve(_ alias: String) {
        if name == nil { resolvedName.withLock { $0 = alias } }
    }
}

extension QueryInterfaceRequest {
    /// The request with its table aliased: `Book.aliased(bookAlias)`.
    public func aliased(_ alias: TableAlias) -> Self {
        var request = self
        request.tableAlias = alias
        return request
    }
}

extension TableRecord {
    /// All records, with their table aliased: `Book.aliased(bookAlias).filter(...)`.
    public static func aliased(_ alias: TableAlias) -> QueryInterfaceRequest<Self> { all().aliased(alias) }
}

extension DatabaseAssociation {
    /// The association with its destination table aliased: `Book.author.aliased(authorAlias)`.
    public func aliased(_ alias: TableAlias) -> Self {
        var association = self
        association.sqlAssociation.destination = association.sqlAssociation.destination.aliased(alias)
        return association
    }
}
