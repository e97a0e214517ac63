/// A request built by the query interface, that fetches `RowDecoder` values.
///
///     let request = Player.filter(Column("score") > 1000).order(Column("score").desc).limit(10)
///     let players = try request.fetchAll(db)   // [Player]
///     // SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC LIMIT 10
public struct QueryInterfaceRequest<RowDecoder>: FetchRequest {
    var tableName: String
    var selection: [SQLSelection]
    var filters: [QueryFilter] = []
    var orderings: [SQLOrdering] = []
    var isReversed = false
    /// `orderByPrimaryKey()`: the orderings are the primary key columns, known at SQL generation.
    var ordersByPrimaryKey = false
    /// `thenOrder` terms that follow the primary key of `orderByPrimaryKey()`.
    var thenOrderings: [SQLOrdering] = []
    /// `withStableOrder()`: the primary key columns follow the orderings, known at SQL generation.
    var hasStableOrder = false
    var groupBy: [SQLExpression] = []
    var havings: [SQLExpression] = []
    var limitCount: Int?
    var offsetCount: Int?
    var isDistinct = false
    /// The alias of the request's table (`aliased(_:)`), which makes its SQL qualified.
    var tableAlias: TableAlias?
    /// Joined and prefetched associations (Association/).
    var associationJoins: [AssociationJoin] = []
    /// True when the request includes associations (inlinable fetches take the plain path otherwise).
    @usableFromInline var hasAssociationJoins: Bool { !associationJoins.isEmpty }

    init(tableName: String, selection: [SQLSelection]) {
        self.tableName = tableName
        self.selection = selection
    }

    // MARK: Building

    /// The request with all of its rows; the same request, as GRDB's `all()`.
    public func all() -> Self { self }

    /// A request that fetches nothing.
    public func none() -> Self { filter(SQLExpression(.literal(sql: "0", arguments: []))) }

    /// Keeps the rows that match an expression: `filter(Column("score") > 1000)`.
    public func filter(_ predicate: some SQLExpressible) -> Self {
        var request = self
        request.filters.append(.expression(predicate.sqlExpression))
        return request
    }

    /// Keeps the rows that match an SQL literal: `filter(literal: "score > \(1000)")`.
    public func filter(literal: SQL) -> Self {
        filter(SQLExpression(literal: literal))
    }

    /// Keeps the rows that match raw SQL: `filter(sql: "score > ?", arguments: [1000])`.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQLExpression(sql: sql, arguments: arguments))
    }

    /// Keeps the row whose primary key is `key`.
    public func filter(key: (any DatabaseValueConvertible)?) -> Self {
        var request = self
        request.filters.append(.keys([[key?.databaseValue ?? .null]]))
        return request
    }

    /// Keeps the rows whose primary key is in `keys`.
    public func filter(keys: some Sequence<some DatabaseValueConvertible>) -> Self {
        var request = self
        request.filters.append(.keys(keys.map { [$0.databaseValue] }))
        return request
    }

    /// Keeps the row identified by a unique key: `filter(key: ["email": "arthur@example.com"])`.
    public func filter(key: [String: (any DatabaseValueConvertible)?]) -> Self {
        var request = self
        request.filters.append(.uniqueKeys([key.mapValues { $0?.databaseValue ?? .null }]))
        return request
    }

    /// Keeps the rows identified by unique keys: `filter(keys: [["email": "a@example.com"], ["email": "b@..."]])`.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        var request = self
        request.filters.append(.uniqueKeys(keys.map { $0.mapValues { $0?.databaseValue ?? .null } }))
        return request
    }

    /// Sorts by the primary key (the rowid for a table without one), replacing any previous ordering.
    ///
    ///     Player.orderByPrimaryKey()   // SELECT * FROM "player" ORDER BY "id"
    public func orderByPrimaryKey() -> Self {
        var request = self
        request.orderings = []
        request.isReversed = false
        request.ordersByPrimaryKey = true
        return request
    }

    /// Sorts by the given terms, replacing any previous ordering.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self { order(orderings) }

    /// Sorts by the given terms, replacing any previous ordering.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        var request = self
        request.orderings = orderings.map(\.sqlOrdering)
        request.isReversed = false
        request.ordersByPrimaryKey = false
        return request
    }

    /// Sorts by raw SQL: `order(sql: "score DESC")`.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order([SQLLiteralOrdering(sql: sql, arguments: arguments.subdbValues)])
    }

    /// Sorts by an SQL literal.
    public func order(literal: SQL) -> Self { order([SQLExpression(literal: literal)]) }

    /// Appends ordering terms after the existing ones.
    public func thenOrder(_ orderings: any SQLOrderingTerm...) -> Self {
        var request = self
        if request.ordersByPrimaryKey, !request.isReversed {
            // Keep the primary key first: it becomes explicit orderings at SQL generation, in front of these.
            request.thenOrderings += orderings.map(\.sqlOrdering)
            return request
        }
        request.orderings += orderings.map(\.sqlOrdering)
        return request
    }

    /// The request with a deterministic order, as in GRDB: its orderings followed by the primary key (or the
    /// primary key alone when it has none), so that rows that tie always come in the same order.
    ///
    ///     Player.order(Column("score").desc).withStableOrder()   // ORDER BY "score" DESC, "id"
    public func withStableOrder() -> Self {
        var request = self
        request.hasStableOrder = true
        return request
    }

    /// Removes any ordering.
    public func unordered() -> Self {
        var request = self
        request.orderings = []
        request.thenOrderings = []
        request.ordersByPrimaryKey = false
        request.isReversed = false
        return request
    }

    /// Reverses the ordering; an unordered request gets ordered by descending primary key.
    public func reversed() -> Self {
        var request = self
        request.isReversed.toggle()
        return request
    }

    /// Limits the number of fetched rows: `limit(10, offset: 20)`.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        var request = self
        request.limitCount = limit
        request.offsetCount = offset
        return request
    }

    /// Selects the given columns and expressions, replacing the previous selection.
    public func select(_ selection: any SQLSelectable...) -> Self { select(selection) }

    /// Selects the given columns and expressions, replacing the previous selection.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        var request = self
        request.selection = selection.map(\.sqlSelection)
        return request
    }

    /// Selects raw SQL: `select(sql: "max(score)")`.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select([SQLExpression(sql: sql, arguments: arguments)])
    }

    /// Selects an SQL literal.
    public func select(literal: SQL) -> Self { select([SQLExpression(literal: literal)]) }

    /// Selects the given expressions and fetches values of another type:
    /// `Player.select(max(Column("score")), as: Int.self).fetchOne(db)`.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: T.self)
    }

    /// Selects raw SQL and fetches values of another type.
    public func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type)
        -> QueryInterfaceRequest<T>
    {
        select(sql: sql, arguments: arguments).asRequest(of: T.self)
    }

    /// Appends expressions to the selection: `annotated(with: (Column("score") * 2).forKey("double"))`.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        var request = self
        request.selection += selection.map(\.sqlSelection)
        return request
    }

    /// `SELECT DISTINCT`.
    public func distinct() -> Self {
        var request = self
        request.isDistinct = true
        return request
    }

    /// `GROUP BY` the given expressions.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        var request = self
        request.groupBy = expressions.map(\.sqlExpression)
        return request
    }

    /// `GROUP BY` raw SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group(SQLExpression(sql: sql, arguments: arguments))
    }

    /// `HAVING` the given predicate, combined with previous ones by `AND`.
    public func having(_ predicate: some SQLExpressible) -> Self {
        var request = self
        request.havings.append(predicate.sqlExpression)
        return request
    }

    /// `HAVING` raw SQL.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(SQLExpression(sql: sql, arguments: arguments))
    }

    /// The same request, fetching another type: `request.asRequest(of: Row.self)`.
    public func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
        var request = QueryInterfaceRequest<T>(tableName: tableName, selection: selection)
        request.filters = filters
        request.orderings = orderings
        request.isReversed = isReversed
        request.ordersByPrimaryKey = ordersByPrimaryKey
        request.thenOrderings = thenOrderings
        request.groupBy = groupBy
        request.havings = havings
        request.limitCount = limitCount
        request.offsetCount = offsetCount
        request.isDistinct = isDistinct
        request.associationJoins = associationJoins
        request.tableAlias = tableAlias
        return request
    }
}

extension QueryInterfaceRequest: Sendable {}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Keeps the rows that match a predicate built from the record's columns:
    /// `Player.all().filter { $0.score > 1000 }`.
    public func filter(_ predicate: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> Self {
        try filter(predicate(RowDecoder.databaseComponents))
    }

    /// Sorts by a term built from the record's columns: `order(\.score.desc)`.
    public func order(_ ordering: (RowDecoder.DatabaseComponents) throws -> some SQLOrderingTerm) rethrows -> Self {
        try order([ordering(RowDecoder.databaseComponents)])
    }

    /// Sorts by terms built from the record's columns: `order { [$0.score.desc, $0.name] }`.
    public func order(_ orderings: (RowDecoder.DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        try order(orderings(RowDecoder.databaseComponents))
    }

    /// Selects expressions built from the record's columns: `select { [$0.name, $0.score] }`.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try select(selection(RowDecoder.databaseComponents))
    }

    /// Selects one expression built from the record's columns and fetches values of type `T`.
    public func select<T>(_ selection: (RowDecoder.DatabaseComponents) throws -> some SQLSelectable, as type: T.Type)
        rethrows -> QueryInterfaceRequest<T>
    {
        try select([selection(RowDecoder.databaseComponents)]).asRequest(of: T.self)
    }

    /// Keeps the record identified by `id`.
    public func filter(id: RowDecoder.ID) -> Self
    where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
        filter(key: id)
    }

    /// Keeps the records whose identifiers are in `ids`.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self
    where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
        filter(keys: ids)
    }
}

/// A WHERE term of a query interface request.
enum QueryFilter: Sendable {
    case expression(SQLExpression)
    /// Primary key values: one array per key, each with one value per primary key column.
    case keys([[DatabaseValue]])
    /// Unique keys given as column/value dictionaries.
    case uniqueKeys([[String: DatabaseValue]])
}
