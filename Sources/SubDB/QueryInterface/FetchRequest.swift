/// A request that generates SQL and fetches values of type `RowDecoder`: records, rows or plain values.
///
///     let request: some FetchRequest<Player> = Player.filter(Column("score") > 1000)
///     let players = try request.fetchAll(db)
public protocol FetchRequest<RowDecoder> {
    /// The type of fetched values.
    associatedtype RowDecoder

    /// The SQL and arguments of the request.
    func sqlAndArguments(_ db: Database) throws -> (sql: String, arguments: StatementArguments)

    /// The SQL and arguments that count the results of the request.
    func countSQLAndArguments(_ db: Database) throws -> (sql: String, arguments: StatementArguments)

    /// The SQL and arguments of the request; with `singleResult` (`fetchOne`) the request may fetch one row only
    /// (query interface requests add `LIMIT 1`).
    func sqlAndArguments(_ db: Database, forSingleResult singleResult: Bool) throws
        -> (sql: String, arguments: StatementArguments)

    /// The ``RowAdapter`` of the fetched rows: the `adapter:` of an ``SQLRequest``, or the one of
    /// ``FetchRequest/adapted(_:)``. Nil (the default) for rows as the SQL selects them.
    func rowAdapter(_ db: Database) throws -> (any RowAdapter)?
}

extension FetchRequest {
    /// The number of results of the request: `SELECT COUNT(*) FROM (...)`.
    public func fetchCount(_ db: Database) throws -> Int {
        let (sql, arguments) = try countSQLAndArguments(db)
        return try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
    }

    /// Whether the request has at least one result.
    public func isEmpty(_ db: Database) throws -> Bool {
        let (sql, arguments) = try sqlAndArguments(db)
        return try !Bool.fetchOne(db, sql: "SELECT EXISTS (\(sql))", arguments: arguments).isTrue
    }

    /// The default: the request's SQL as is, whether one or all results are fetched.
    public func sqlAndArguments(_ db: Database, forSingleResult singleResult: Bool) throws
        -> (sql: String, arguments: StatementArguments)
    {
        try sqlAndArguments(db)
    }

    /// The default: no adapter.
    public func rowAdapter(_ db: Database) throws -> (any RowAdapter)? { nil }

    /// The default count: wraps the request in `SELECT COUNT(*) FROM (...)`.
    public func countSQLAndArguments(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        let (sql, arguments) = try sqlAndArguments(db)
        return ("SELECT COUNT(*) FROM (\(sql))", arguments)
    }
}

/// A request compiled for a database connection: its statement and the adapter of its rows (GRDB's
/// `PreparedRequest`).
public struct PreparedRequest {
    /// The compiled statement, arguments bound.
    public var statement: Statement
    /// The adapter of the fetched rows, if any.
    public var adapter: (any RowAdapter)?

    /// A prepared request from a statement.
    public init(statement: Statement, adapter: (any RowAdapter)? = nil) {
        self.statement = statement
        self.adapter = adapter
    }
}

extension FetchRequest {
    /// Compiles the request: `LIMIT 1` is added for `singleResult` as `fetchOne` does.
    ///
    ///     let prepared = try request.makePreparedRequest(db, forSingleResult: false)
    ///     let rows = try Row.fetchAll(prepared.statement)
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
        -> PreparedRequest
    {
        let (sql, arguments) = try sqlAndArguments(db, forSingleResult: singleResult)
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return PreparedRequest(statement: statement, adapter: try rowAdapter(db))
    }

    /// The request with its rows adapted, as GRDB's: `adapter` is applied to the rows the request fetches
    /// (after the request's own adapter, if any).
    ///
    ///     let request = SQLRequest<Row>(sql: "SELECT player.*, team.* FROM ...")
    ///         .adapted { db in ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 3)]) }
    public func adapted(_ adapter: @escaping @Sendable (Database) throws -> any RowAdapter) -> AdaptedFetchRequest<Self>
    {
        AdaptedFetchRequest(base: self, adapter: adapter)
    }
}

/// A request whose rows are adapted (``FetchRequest/adapted(_:)``).
public struct AdaptedFetchRequest<Base: FetchRequest>: FetchRequest {
    /// The fetched type, the base request's.
    public typealias RowDecoder = Base.RowDecoder

    let base: Base
    let adapter: @Sendable (Database) throws -> any RowAdapter

    /// The base request's SQL.
    public func sqlAndArguments(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        try base.sqlAndArguments(db)
    }

    /// The base request's SQL for one result.
    public func sqlAndArguments(_ db: Database, forSingleResult singleResult: Bool) throws
        -> (sql: String, arguments: StatementArguments)
    {
        try base.sqlAndArguments(db, forSingleResult: singleResult)
    }

    /// The base request's count.
    public func countSQLAndArguments(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        try base.countSQLAndArguments(db)
    }

    /// The adapter, after the base request's.
    public func rowAdapter(_ db: Database) throws -> (any RowAdapter)? {
        let adapter = try self.adapter(db)
        guard let baseAdapter = try base.rowAdapter(db) else { return adapter }
        return ChainedRowAdapter(first: baseAdapter, second: adapter)
    }
}

extension AdaptedFetchRequest: Sendable where Base: Sendable {}

extension Optional where Wrapped == Bool {
    fileprivate var isTrue: Bool { self ?? false }
}

// MARK: - Fetching rows
//
// Each fetch reads the request's adapter (`rowAdapter(_:)`): nil for almost every request, which then takes the
// fast path of its SQL.

extension FetchRequest where RowDecoder == Row {
    /// A cursor over the fetched rows.
    public func fetchCursor(_ db: Database) throws -> RowCursor {
        let (sql, arguments) = try sqlAndArguments(db)
        return try Row.fetchCursor(db, sql: sql, arguments: arguments, adapter: rowAdapter(db))
    }
    /// An array of fetched rows.
    public func fetchAll(_ db: Database) throws -> [Row] {
        let (sql, arguments) = try sqlAndArguments(db)
        return try Row.fetchAll(db, sql: sql, arguments: arguments, adapter: rowAdapter(db))
    }
    /// A set of fetched rows.
    public func fetchSet(_ db: Database) throws -> Set<Row> {
        let (sql, arguments) = try sqlAndArguments(db)
        return try Row.fetchSet(db, sql: sql, arguments: arguments, adapter: rowAdapter(db))
    }
    /// The first fetched row.
    public func fetchOne(_ db: Database) throws -> Row? {
        let (sql, arguments) = try sqlAndArguments(db, forSingleResult: true)
        return try Row.fetchOne(db, sql: sql, arguments: arguments, adapter: rowAdapter(db))
    }
}

// MARK: - Fetching values

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    /// A cursor over the values of the leftmost column (of the adapted rows, with an adapter).
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
        let (sql, arguments) = try sqlAndArguments(db)
        return try DatabaseValueCursor(
            statement: db.cachedStatement(sql: sql), arguments: arguments, adapter: rowAdapter(db))
    }
    /// The values of the leftmost column.
    @inlinable
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        let (sql, arguments) = try sqlAndArguments(db)
        if let adapter = try rowAdapter(db) {
            return try RowDecoder.fetchAll(db, sql: sql, arguments: arguments, adapter: adapter)
        }
        return try RowDecoder.fetchAll(db, sql: sql, arguments: arguments)
    }
    /// The distinct values of the leftmost column.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> where RowDecoder: Hashable {
        let (sql, arguments) = try sqlAndArguments(db)
        if let adapter = try rowAdapter(db) {
            return Set(try RowDecoder.fetchAll(db, sql: sql, arguments: arguments, adapter: adapter))
        }
        return try RowDecoder.fetchSet(db, sql: sql, arguments: arguments)
    }
    /// The value of the first row, nil when there is no row or the value is NULL.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        let (sql, arguments) = try sqlAndArguments(db, forSingleResult: true)
        return try RowDecoder.fetchOne(db, sql: sql, arguments: arguments, adapter: rowAdapter(db))
    }
}

extension FetchRequest {
    /// The values of the leftmost column, NULL as nil.
    public func fetchAll<Wrapped: DatabaseValueConvertible>(_ db: Database) throws -> [Wrapped?]
    where RowDecoder == Wrapped? {
        let (sql, arguments) = try sqlAndArguments(db)
        if let adapter = try rowAdapter(db) {
            return try Row.fetchAll(db, sql: sql, arguments: arguments, adapter: adapter).map {
                try $0.decode(Wrapped?.self, atIndex: 0)
            }
        }
        return try Optional<Wrapped>.fetchAll(db, sql: sql, arguments: arguments)
    }
    /// The value of the first row: `.none` when there is no row, `.some(nil)` for NULL.
    public func fetchOne<Wrapped: DatabaseValueConvertible>(_ db: Database) throws -> Wrapped??
    where RowDecoder == Wrapped? {
        let (sql, arguments) = try sqlAndArguments(db, forSingleResult: true)
        if let adapter = try rowAdapter(db) {
            guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments, adapter: adapter) else {
                return .none
            }
            return .some(try row.decode(Wrapped?.self, atIndex: 0))
        }
        return try Optional<Wrapped>.fetchOne(db, sql: sql, arguments: arguments)
    }
}

// MARK: - Fetching records

extension FetchRequest where RowDecoder: FetchableRecord {
    /// A cursor over the fetched records.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        let (sql, arguments) = try sqlAndArguments(db)
        if let adapter = try rowAdapter(db) {
            return try RowDecoder.fetchCursor(db, sql: sql, arguments: arguments, adapter: adapter)
        }
        return try RowDecoder.fetchCursor(db, sql: sql, arguments: arguments)
    }
    /// An array of fetched records.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        let (sql, arguments) = try sqlAndArguments(db)
        return try RowDecoder.fetchAll(db, sql: sql, arguments: arguments, adapter: rowAdapter(db))
    }
    /// A set of fetched records.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> where RowDecoder: Hashable {
        let (sql, arguments) = try sqlAndArguments(db)
        if let adapter = try rowAdapter(db) {
            return try RowDecoder.fetchSet(db, sql: sql, arguments: arguments, adapter: adapter)
        }
        return try RowDecoder.fetchSet(db, sql: sql, arguments: arguments)
    }
    /// The first fetched record.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        let (sql, arguments) = try sqlAndArguments(db, forSingleResult: true)
        return try RowDecoder.fetchOne(db, sql: sql, arguments: arguments, adapter: rowAdapter(db))
    }
}

// MARK: - Fetching from requests

extension FetchableRecord {
    /// The records of a request: `Player.fetchAll(db, Player.filter(...))`.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let (sql, arguments) = try request.sqlAndArguments(db)
        return try fetchAll(db, sql: sql, arguments: arguments, adapter: request.rowAdapter(db))
    }
    /// The first record of a request.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let (sql, arguments) = try request.sqlAndArguments(db, forSingleResult: true)
        return try fetchOne(db, sql: sql, arguments: arguments, adapter: request.rowAdapter(db))
    }
    /// A cursor over the records of a request.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
        let (sql, arguments) = try request.sqlAndArguments(db)
        return try fetchCursor(db, sql: sql, arguments: arguments, adapter: request.rowAdapter(db))
    }
}

extension DatabaseValueConvertible {
    /// The values of a request: `Int.fetchOne(db, Player.select(max(Column("score"))))`.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let (sql, arguments) = try request.sqlAndArguments(db)
        return try fetchAll(db, sql: sql, arguments: arguments, adapter: request.rowAdapter(db))
    }
    /// The first value of a request.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let (sql, arguments) = try request.sqlAndArguments(db, forSingleResult: true)
        return try fetchOne(db, sql: sql, arguments: arguments, adapter: request.rowAdapter(db))
    }
}

extension Row {
    /// The rows of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        let (sql, arguments) = try request.sqlAndArguments(db)
        return try fetchAll(db, sql: sql, arguments: arguments, adapter: request.rowAdapter(db))
    }
    /// The first row of a request.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        let (sql, arguments) = try request.sqlAndArguments(db, forSingleResult: true)
        return try fetchOne(db, sql: sql, arguments: arguments, adapter: request.rowAdapter(db))
    }
}
