// Requests built from record types: `Player.filter(...)`, `Player.order(...)`, `Player.deleteAll(db)`.

extension TableRecord {
    /// A request for all rows of the table: `SELECT * FROM "player"`.
    public static func all() -> QueryInterfaceRequest<Self> {
        QueryInterfaceRequest(tableName: databaseTableName, selection: databaseSelection.map(\.sqlSelection))
    }

    /// A request that fetches nothing.
    public static func none() -> QueryInterfaceRequest<Self> { all().none() }

    /// Rows that match an expression: `Player.filter(Column("score") > 1000)`.
    public static func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> {
        all().filter(predicate)
    }

    /// Rows that match a predicate built from the record's columns: `Player.filter { $0.name == "Arthur" }`.
    public static func filter(_ predicate: (DatabaseComponents) throws -> some SQLExpressible) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().filter(predicate(databaseComponents))
    }

    /// Rows that match an SQL literal.
    public static func filter(literal: SQL) -> QueryInterfaceRequest<Self> { all().filter(literal: literal) }

    /// Rows that match raw SQL.
    public static func filter(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<Self>
    {
        all().filter(sql: sql, arguments: arguments)
    }

    /// The row with a primary key.
    public static func filter(key: (any DatabaseValueConvertible)?) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// The rows with the given primary keys.
    public static func filter(keys: some Sequence<some DatabaseValueConvertible>) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }

    /// The row with a unique key given as a dictionary.
    public static func filter(key: [String: (any DatabaseValueConvertible)?]) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// Rows sorted: `Player.order(Column("score").desc)`.
    public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// Rows sorted: `Player.order([Column("score").desc])`.
    public static func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// Rows sorted by a term built from the record's columns: `Player.order(\.score.desc)`.
    public static func order(_ ordering: (DatabaseComponents) throws -> some SQLOrderingTerm) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().order([ordering(databaseComponents)])
    }

    /// Rows sorted by terms built from the record's columns: `Player.order { [$0.score.desc, $0.name] }`.
    public static func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().order(orderings(databaseComponents))
    }

    /// Rows sorted by primary key: `Player.orderByPrimaryKey()`.
    public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> { all().orderByPrimaryKey() }

    /// The rows identified by unique keys given as dictionaries.
    public static func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }

    /// Rows sorted by raw SQL.
    public static func order(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<Self>
    {
        all().order(sql: sql, arguments: arguments)
    }

    /// Selected columns: `Player.select(Column("name"))`.
    public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// Selected columns: `Player.select([Column("name")])`.
    public static func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// Selected columns built from the record's columns: `Player.select { [$0.name, $0.score] }`.
    public static func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().select(selection(databaseComponents))
    }

    /// One expression built from the record's columns, fetched as `T`: `Player.select({ max($0.score) }, as: Int.self)`.
    public static func select<T>(_ selection: (DatabaseComponents) throws -> some SQLSelectable, as type: T.Type)
        rethrows -> QueryInterfaceRequest<T>
    {
        try all().select([selection(databaseComponents)]).asRequest(of: T.self)
    }

    /// Selected expressions fetched as `T`: `Player.select(max(Column("score")), as: Int.self)`.
    public static func select<T>(_ selection: any SQLSelectable..., as type: T.Type) -> QueryInterfaceRequest<T> {
        all().select(selection).asRequest(of: T.self)
    }

    /// Raw SQL selection.
    public static func select(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<Self>
    {
        all().select(sql: sql, arguments: arguments)
    }

    /// Raw SQL selection fetched as `T`.
    public static func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type)
        -> QueryInterfaceRequest<T>
    {
        all().select(sql: sql, arguments: arguments).asRequest(of: T.self)
    }

    /// All columns plus extra expressions.
    public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        var request = all()
        request.selection += selection.map(\.sqlSelection)
        return request
    }

    /// At most `limit` rows.
    public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> {
        all().limit(limit, offset: offset)
    }

    /// `GROUP BY`.
    public static func group(_ expressions: any SQLExpressible...) -> QueryInterfaceRequest<Self> {
        var request = all()
        request.groupBy = expressions.map(\.sqlExpression)
        return request
    }

    /// The number of rows in the table: `SELECT COUNT(*) FROM "player"`.
    public static func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }

    /// Deletes all rows: `DELETE FROM "player"`; returns the number of deleted rows.
    @discardableResult
    public static func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }

    /// Deletes the rows with the given primary keys; returns the number of deleted rows.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: some Sequence<some DatabaseValueConvertible>) throws -> Int {
        let request = all().filter(keys: keys)
        if request.filters.contains(where: {
            if case .keys(let keys) = $0 { return keys.isEmpty }; return false
        }) {
            return 0
        }
        return try request.deleteAll(db)
    }

    /// Deletes the row with a primary key; returns whether a row was deleted.
    @discardableResult
    public static func deleteOne(_ db: Database, key: (any DatabaseValueConvertible)?) throws -> Bool {
        guard let key, !key.databaseValue.isNull else { return false }
        return try all().filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the row with a unique key; returns whether a row was deleted.
    @discardableResult
    public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try all().filter(key: key).deleteAll(db) > 0
    }

    /// Whether a row has the primary key.
    public static func exists(_ db: Database, key: (any DatabaseValueConvertible)?) throws -> Bool {
        guard let key, !key.databaseValue.isNull else { return false }
        return try !all().filter(key: key).isEmpty(db)
    }

    /// Updates all rows: `Player.updateAll(db, Column("score").set(to: 0))`.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows with the given assignments.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignment: ColumnAssignment, _ otherAssignments: ColumnAssignment...
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, [assignment] + otherAssignments)
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// The row with an identifier.
    public static func filter(id: ID) -> QueryInterfaceRequest<Self> { all().filter(key: id) }

    /// The rows with the given identifiers.
    public static func filter(ids: some Collection<ID>) -> QueryInterfaceRequest<Self> { all().filter(keys: ids) }

    /// Deletes the row with an identifier; returns whether a row was deleted.
    @discardableResult
    public static func deleteOne(_ db: Database, id: ID) throws -> Bool { try deleteOne(db, key: id) }

    /// Deletes the rows with the given identifiers.
    @discardableResult
    public static func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int {
        try deleteAll(db, keys: ids)
    }

    /// Whether a row has the identifier.
    public static func exists(_ db: Database, id: ID) throws -> Bool { try exists(db, key: id) }
}

extension TableRecord where Self: FetchableRecord {
    /// All records of the table.
    @inlinable public static func fetchAll(_ db: Database) throws -> [Self] { try all().fetchAll(db) }

    /// A cursor over all records of the table.
    public static func fetchCursor(_ db: Database) throws -> RecordCursor<Self> { try all().fetchCursor(db) }

    /// The first record of the table.
    public static func fetchOne(_ db: Database) throws -> Self? { try all().fetchOne(db) }

    /// All records of the table, as a set.
    public static func fetchSet(_ db: Database) throws -> Set<Self> where Self: Hashable { try all().fetchSet(db) }

    /// The record with a primary key, or nil: `Player.fetchOne(db, key: 1)`.
    public static func fetchOne(_ db: Database, key: (any DatabaseValueConvertible)?) throws -> Self? {
        guard let key, !key.databaseValue.isNull else { return nil }
        return try all().filter(key: key).fetchOne(db)
    }

    /// The record with a unique key given as a dictionary, or nil.
    public static func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self? {
        try all().filter(key: key).fetchOne(db)
    }

    /// The records with the given primary keys.
    public static func fetchAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> [Self] {
        if keys.isEmpty { return [] }
        return try all().filter(keys: keys).fetchAll(db)
    }

    /// The records with the given primary keys, as a set.
    public static func fetchSet(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws
        -> Set<Self> where Self: Hashable
    {
        if keys.isEmpty { return [] }
        return try all().filter(keys: keys).fetchSet(db)
    }

    /// The record with a primary key; throws ``RecordError/recordNotFound(databaseTableName:key:)`` when missing.
    public static func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
        if let record = try fetchOne(db, key: key) { return record }
        let columns = try db.subdbPrimaryKey(databaseTableName).columns
        throw RecordError.recordNotFound(
            databaseTableName: databaseTableName,
            key: Dictionary(zip(columns, [key.databaseValue]), uniquingKeysWith: { $1 }))
    }

    /// The record with a unique key; throws ``RecordError/recordNotFound(databaseTableName:key:)`` when missing.
    public static func find(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self {
        if let record = try fetchOne(db, key: key) { return record }
        throw RecordError.recordNotFound(
            databaseTableName: databaseTableName, key: key.mapValues { $0?.databaseValue ?? .null })
    }
}

extension TableRecord where Self: FetchableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// The record with an identifier, or nil: `Player.fetchOne(db, id: 1)`.
    public static func fetchOne(_ db: Database, id: ID) throws -> Self? { try fetchOne(db, key: id) }

    /// The record with an optional identifier, nil when the identifier is nil: `User.fetchOne(db, id: user.id)`.
    public static func fetchOne<Wrapped: DatabaseValueConvertible>(_ db: Database, id: Wrapped?) throws -> Self?
    where ID == Wrapped? {
        guard let id else { return nil }
        return try fetchOne(db, key: id)
    }

    /// The records with the given identifiers.
    public static func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] {
        try fetchAll(db, keys: ids)
    }

    /// The records with the given identifiers, as a set.
    public static func fetchSet(_ db: Database, ids: some Collection<ID>) throws -> Set<Self> where Self: Hashable {
        try fetchSet(db, keys: ids)
    }

    /// The record with an identifier; throws ``RecordError/recordNotFound(databaseTableName:key:)`` when missing.
    public static func find(_ db: Database, id: ID) throws -> Self { try find(db, key: id) }
}

extension TableRecord where Self: FetchableRecord {
    /// The record with a primary key given as an `id` argument, for records that are not `Identifiable`:
    /// `User.fetchOne(db, id: user.id)`. nil when the identifier is nil.
    @_disfavoredOverload
    public static func fetchOne(_ db: Database, id: (any DatabaseValueConvertible)?) throws -> Self? {
        try fetchOne(db, key: id)
    }
}
