/// Marks associations that reach at most one row: `belongsTo`, `hasOne`, `hasOne(_:through:using:)`.
public enum ToOneCardinality {}
/// Marks associations that reach any number of rows: `hasMany`, `hasMany(_:through:using:)`.
public enum ToManyCardinality {}

/// A link from `Origin` records to `Destination` records, declared as a static property of the origin, as in
/// GRDB:
///
///     struct Book: TableRecord { static let author = belongsTo(Author.self) }
///     struct Author: TableRecord { static let books = hasMany(Book.self) }
///
///     let request = Book.including(required: Book.author)               // JOIN
///     let authors = Author.including(all: Author.books.order(Column("title")))   // one extra query
///
/// The foreign key comes from the schema (`FOREIGN KEY`), or from a ``ForeignKey``. The key of the association
/// names the row scope and the property it decodes into: by default the destination table name, singular for
/// to-one associations (`author`), plural for to-many ones (`books`).
public struct DatabaseAssociation<Origin, Destination, Cardinality>: Sendable {
    var sqlAssociation: SQLAssociation

    init(_ sqlAssociation: SQLAssociation) { self.sqlAssociation = sqlAssociation }

    /// The key of the association: the name of its row scope, and of the decoded property.
    public var key: String { sqlAssociation.key }

    private func mapDestination(_ transform: (QueryInterfaceRequest<Row>) -> QueryInterfaceRequest<Row>) -> Self {
        var association = self
        association.sqlAssociation.destination = transform(association.sqlAssociation.destination)
        return association
    }

    /// The same association under another key: `Book.belongsTo(Author.self).forKey("writer")`.
    public func forKey(_ key: String) -> Self {
        var association = self
        association.sqlAssociation.key = key
        return association
    }

    /// The same association under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> Self { forKey(key.stringValue) }

    /// Keeps the destination rows that match: `Author.books.filter(Column("year") > 2000)`.
    public func filter(_ predicate: some SQLExpressible) -> Self { mapDestination { $0.filter(predicate) } }

    /// Keeps the destination rows that match raw SQL.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        mapDestination { $0.filter(sql: sql, arguments: arguments) }
    }

    /// Keeps the destination rows that match an SQL literal.
    public func filter(literal: SQL) -> Self { mapDestination { $0.filter(literal: literal) } }

    /// Keeps the destination row whose primary key is `key`.
    public func filter(key: (any DatabaseValueConvertible)?) -> Self { mapDestination { $0.filter(key: key) } }

    /// Sorts the destination rows (the prefetched arrays of `including(all:)`, the joined rows after the
    /// request's own ordering).
    public func order(_ orderings: any SQLOrderingTerm...) -> Self { mapDestination { $0.order(orderings) } }

    /// Sorts the destination rows.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self { mapDestination { $0.order(orderings) } }

    /// Sorts the destination rows by their primary key, replacing any previous ordering:
    /// `Author.books.orderByPrimaryKey()`.
    public func orderByPrimaryKey() -> Self { mapDestination { $0.orderByPrimaryKey() } }

    /// Reverses the ordering of the destination rows (by descending primary key when they have none).
    public func reversed() -> Self { mapDestination { $0.reversed() } }

    /// Removes any ordering of the destination rows.
    public func unordered() -> Self { mapDestination { $0.unordered() } }

    /// Selects destination columns: `Book.author.select(Column("name"))`.
    public func select(_ selection: any SQLSelectable...) -> Self { mapDestination { $0.select(selection) } }

    /// Selects destination columns.
    public func select(_ selection: [any SQLSelectable]) -> Self { mapDestination { $0.select(selection) } }

    /// Includes an association of the destination, in a nested scope: `Author.books.including(required: Book.publisher)`.
    public func including<D>(required association: DatabaseAssociation<Destination, D, ToOneCardinality>) -> Self {
        mapDestination {
            $0.appending(.join(isRequired: true, isIncluded: true, association: association.sqlAssociation))
        }
    }

    /// Includes an association of the destination when it exists, in a nested scope.
    public func including<D>(optional association: DatabaseAssociation<Destination, D, ToOneCardinality>) -> Self {
        mapDestination {
            $0.appending(.join(isRequired: false, isIncluded: true, association: association.sqlAssociation))
        }
    }

    /// Prefetches a to-many association of the destination, with one more query.
    public func including<D>(all association: DatabaseAssociation<Destination, D, ToManyCardinality>) -> Self {
        mapDestination { $0.appending(.prefetch(association.sqlAssociation)) }
    }

    /// Requires an association of the destination, without selecting it.
    public func joining<D, C>(required association: DatabaseAssociation<Destination, D, C>) -> Self {
        mapDestination {
            $0.appending(.join(isRequired: true, isIncluded: false, association: association.sqlAssociation))
        }
    }

    /// Joins an association of the destination when it exists, without selecting it.
    public func joining<D, C>(optional association: DatabaseAssociation<Destination, D, C>) -> Self {
        mapDestination {
            $0.appending(.join(isRequired: false, isIncluded: false, association: association.sqlAssociation))
        }
    }
}

extension DatabaseAssociation where Destination: TableRecord {
    /// Keeps the destination rows that match a predicate built from the destination's columns.
    public func filter(_ predicate: (Destination.DatabaseComponents) throws -> some SQLExpressible) rethrows -> Self {
        filter(try predicate(Destination.databaseComponents))
    }

    /// Sorts by a term built from the destination's columns.
    public func order(_ ordering: (Destination.DatabaseComponents) throws -> some SQLOrderingTerm) rethrows -> Self {
        order([try ordering(Destination.databaseComponents)])
    }
}

/// `belongsTo`: the origin holds a foreign key to the destination (a book belongs to its author).
public typealias BelongsToAssociation<Origin, Destination> = DatabaseAssociation<Origin, Destination, ToOneCardinality>
/// `hasOne`: the destination holds a foreign key to the origin, one destination row per origin row.
public typealias HasOneAssociation<Origin, Destination> = DatabaseAssociation<Origin, Destination, ToOneCardinality>
/// `hasMany`: the destination holds a foreign key to the origin (an author has many books).
public typealias HasManyAssociation<Origin, Destination> = DatabaseAssociation<Origin, Destination, ToManyCardinality>
/// `hasMany(_:through:using:)`: many destination rows reached through a pivot (a post has many tags).
public typealias HasManyThroughAssociation<Origin, Destination> =
    DatabaseAssociation<Origin, Destination, ToManyCardinality>
/// `hasOne(_:through:using:)`: one destination row reached through to-one associations.
public typealias HasOneThroughAssociation<Origin, Destination> =
    DatabaseAssociation<Origin, Destination, ToOneCardinality>

extension TableRecord {
    private static func step<Destination: TableRecord>(
        _ destination: Destination.Type, _ direction: AssociationStep.Direction, _ foreignKey: ForeignKey?
    ) -> AssociationStep {
        AssociationStep(
            direction: direction, foreignKey: foreignKey, request: Destination.all().asRequest(of: Row.self))
    }

    /// The origin holds a foreign key to `destination`: `static let author = belongsTo(Author.self)`.
    public static func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> BelongsToAssociation<Self, Destination> {
        DatabaseAssociation(
            SQLAssociation(
                key: key ?? Inflections.singularize(Destination.databaseTableName), isToMany: false,
                steps: [step(destination, .belongsTo, foreignKey)]))
    }

    /// `destination` holds a foreign key to the origin, at most one row per origin row.
    public static func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasOneAssociation<Self, Destination> {
        DatabaseAssociation(
            SQLAssociation(
                key: key ?? Inflections.singularize(Destination.databaseTableName), isToMany: false,
                steps: [step(destination, .has, foreignKey)]))
    }

    /// `destination` holds a foreign key to the origin: `static let books = hasMany(Book.self)`.
    public static func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasManyAssociation<Self, Destination> {
        DatabaseAssociation(
            SQLAssociation(
                key: key ?? Inflections.pluralize(Destination.databaseTableName), isToMany: true,
                steps: [step(destination, .has, foreignKey)]))
    }

    /// Many `destination` rows reached through a pivot association:
    /// `static let tags = hasMany(Tag.self, through: postTags, using: PostTag.tag)`.
    public static func hasMany<Pivot, Destination, C1, C2>(
        _ destination: Destination.Type, through pivot: DatabaseAssociation<Self, Pivot, C1>,
        using target: DatabaseAssociation<Pivot, Destination, C2>, key: String? = nil
    ) -> HasManyThroughAssociation<Self, Destination> {
        DatabaseAssociation(
            SQLAssociation(
                key: key ?? Inflections.pluralize(target.sqlAssociation.key), isToMany: true,
                steps: pivot.sqlAssociation.steps + target.sqlAssociation.steps))
    }

    /// One `destination` row reached through two to-one associations:
    /// `static let country = hasOne(Country.self, through: address, using: Address.country)`.
    public static func hasOne<Pivot, Destination>(
        _ destination: Destination.Type, through pivot: DatabaseAssociation<Self, Pivot, ToOneCardinality>,
        using target: DatabaseAssociation<Pivot, Destination, ToOneCardinality>, key: String? = nil
    ) -> HasOneThroughAssociation<Self, Destination> {
        DatabaseAssociation(
            SQLAssociation(
                key: key ?? target.sqlAssociation.key, isToMany: false,
                steps: pivot.sqlAssociation.steps + target.sqlAssociation.steps))
    }
}

// MARK: - Requests

extension QueryInterfaceRequest {
    /// The request with one more association use. A join with the key and tables of an existing one is merged
    /// into it, as GRDB does: one JOIN, required when either is, selected when either is, with both filters.
    func appending(_ join: AssociationJoin) -> Self {
        var request = self
        guard case .join(let isRequired, let isIncluded, let association) = join,
            let index = request.associationJoins.firstIndex(where: { $0.joinsSamePath(as: association) }),
            case .join(let wasRequired, let wasIncluded, let existing) = request.associationJoins[index]
        else {
            request.associationJoins.append(join)
            return request
        }
        request.associationJoins[index] = .join(
            isRequired: wasRequired || isRequired, isIncluded: wasIncluded || isIncluded,
            association: existing.merged(with: association, preferringSelectionOfOther: isIncluded && !wasIncluded))
        return request
    }

    /// Joins a to-one association and selects its columns, in the row scope named after its key. Rows
    /// without a match are left out.
    ///
    ///     let request = Book.including(required: Book.author)
    ///     // SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId"
    public func including<D>(required association: DatabaseAssociation<RowDecoder, D, ToOneCardinality>) -> Self {
        appending(.join(isRequired: true, isIncluded: true, association: association.sqlAssociation))
    }

    /// Left-joins a to-one association and selects its columns (NULL when there is no match).
    public func including<D>(optional association: DatabaseAssociation<RowDecoder, D, ToOneCardinality>) -> Self {
        appending(.join(isRequired: false, isIncluded: true, association: association.sqlAssociation))
    }

    /// Prefetches a to-many association: one more query (`WHERE fk IN (...)`) fills `row.prefetchedRows`
    /// and the array property named after the key.
    public func including<D>(all association: DatabaseAssociation<RowDecoder, D, ToManyCardinality>) -> Self {
        appending(.prefetch(association.sqlAssociation))
    }

    /// Keeps the rows that have a match in the association, without selecting its columns.
    ///
    ///     let posts = try Post.joining(required: Post.tags.filter(Column("name") == "swift")).fetchAll(db)
    public func joining<D, C>(required association: DatabaseAssociation<RowDecoder, D, C>) -> Self {
        appending(.join(isRequired: true, isIncluded: false, association: association.sqlAssociation))
    }

    /// Left-joins the association without selecting its columns (for filters on it, or ordering).
    public func joining<D, C>(optional association: DatabaseAssociation<RowDecoder, D, C>) -> Self {
        appending(.join(isRequired: false, isIncluded: false, association: association.sqlAssociation))
    }
}

extension TableRecord {
    /// All records, with a required to-one association: `Book.including(required: Book.author)`.
    public static func including<D>(required association: DatabaseAssociation<Self, D, ToOneCardinality>)
        -> QueryInterfaceRequest<Self>
    {
        all().including(required: association)
    }

    /// All records, with an optional to-one association.
    public static func including<D>(optional association: DatabaseAssociation<Self, D, ToOneCardinality>)
        -> QueryInterfaceRequest<Self>
    {
        all().including(optional: association)
    }

    /// All records, with a prefetched to-many association: `Author.including(all: Author.books)`.
    public static func including<D>(all association: DatabaseAssociation<Self, D, ToManyCardinality>)
        -> QueryInterfaceRequest<Self>
    {
        all().including(all: association)
    }

    /// The records that have a match in the association.
    public static func joining<D, C>(required association: DatabaseAssociation<Self, D, C>)
        -> QueryInterfaceRequest<Self>
    {
        all().joining(required: association)
    }

    /// All records, left-joined with the association.
    public static func joining<D, C>(optional association: DatabaseAssociation<Self, D, C>)
        -> QueryInterfaceRequest<Self>
    {
        all().joining(optional: association)
    }
}

extension EncodableRecord where Self: TableRecord {
    /// The destination records of this record: `try author.request(for: Author.books).fetchAll(db)`.
    public func request<D, C>(for association: DatabaseAssociation<Self, D, C>) -> QueryInterfaceRequest<D> {
        var values: [String: DatabaseValue] = [:]
        // A record that fails to encode has no key values: the request then fetches nothing.
        for (column, value) in (try? databaseDictionary) ?? [:] { values[column.lowercased()] = value }
        let sqlAssociation = association.sqlAssociation
        let origin = OriginKeys(
            steps: sqlAssociation.steps, originTable: Self.databaseTableName, originValues: values)
        return sqlAssociation.destination.asRequest(of: D.self).appending(.originKeys(origin))
    }
}
