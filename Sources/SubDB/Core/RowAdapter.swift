import Foundation

// Row adapters, as in GRDB: they present the columns of fetched rows under other names, or in slices, with
// nested scopes, so that one query can feed several records.
//
//     let sql = "SELECT player.*, team.* FROM player JOIN team ON team.id = player.teamId"
//     let adapter = ScopeAdapter(["team": SuffixRowAdapter(fromIndex: playerColumnCount)])
//     let rows = try Row.fetchAll(db, sql: sql, adapter: adapter)
//     rows[0].scopes["team"]   // the team columns

/// Presents the columns of a row differently: ``ColumnMapping``, ``SuffixRowAdapter``, ``RangeRowAdapter``,
/// ``EmptyRowAdapter``, ``ScopeAdapter``. Adapted rows are fetched with the `adapter:` argument of the fetch
/// methods.
public protocol RowAdapter: Sendable {
    /// The plan of the adapted rows for rows with `columnNames`; throws when a column is missing.
    func rowAdapterLayout(columnNames: [String]) throws -> RowAdapterLayout
}

/// What an adapter makes of rows with given columns: the base columns it shows (by index) under which names,
/// and its scopes.
public struct RowAdapterLayout: Sendable {
    /// (index in the base row, name in the adapted row), in adapted order.
    let columns: [(index: Int, name: String)]
    /// Named scopes, in key order.
    let scopes: [(key: String, layout: RowAdapterLayout)]

    init(columns: [(index: Int, name: String)], scopes: [(key: String, layout: RowAdapterLayout)] = []) {
        self.columns = columns
        self.scopes = scopes
    }
}

/// Shows the base columns under other names: `ColumnMapping(["id": "playerId", "name": "playerName"])` shows
/// the base row's `playerId` as `id` and `playerName` as `name` (names are looked up without regard to case).
public struct ColumnMapping: RowAdapter {
    /// Adapted name → base column name.
    public let mapping: [String: String]

    /// An adapter that maps adapted names (keys) to base columns (values).
    public init(_ mapping: [String: String]) { self.mapping = mapping }

    /// The mapped columns, in the order of the base row.
    public func rowAdapterLayout(columnNames: [String]) throws -> RowAdapterLayout {
        let lowercased = columnNames.map { $0.lowercased() }
        let columns = try mapping.map { name, baseName in
            guard let index = lowercased.firstIndex(of: baseName.lowercased()) else {
                throw DatabaseError.misuse(
                    "ColumnMapping references missing column \(baseName). Valid column names are: "
                        + columnNames.joined(separator: ", "))
            }
            return (index: index, name: name)
        }
        return RowAdapterLayout(columns: columns.sorted { $0.index < $1.index })
    }
}

/// Shows the base columns from an index to the end: `SuffixRowAdapter(fromIndex: 3)`.
public struct SuffixRowAdapter: RowAdapter {
    /// The index of the first shown column.
    public let index: Int

    /// An adapter that shows the columns from `index`.
    public init(fromIndex index: Int) {
        precondition(index >= 0, "SuffixRowAdapter: negative index")
        self.index = index
    }

    /// The columns from `index` on (none when the row is shorter).
    public func rowAdapterLayout(columnNames: [String]) throws -> RowAdapterLayout {
        RowAdapterLayout(
            columns: (min(index, columnNames.count)..<columnNames.count).map { ($0, columnNames[$0]) })
    }
}

/// Shows a range of the base columns: `RangeRowAdapter(0..<3)`.
public struct RangeRowAdapter: RowAdapter {
    /// The shown column indexes.
    public let range: Range<Int>

    /// An adapter that shows the columns in `range`.
    public init(_ range: Range<Int>) { self.range = range }

    /// An adapter that shows the columns in `range`.
    public init(_ range: ClosedRange<Int>) { self.range = range.lowerBound..<(range.upperBound + 1) }

    /// The columns in the range that exist.
    public func rowAdapterLayout(columnNames: [String]) throws -> RowAdapterLayout {
        let clamped = range.clamped(to: 0..<columnNames.count)
        return RowAdapterLayout(columns: clamped.map { ($0, columnNames[$0]) })
    }
}

/// Shows no column.
public struct EmptyRowAdapter: RowAdapter {
    /// The empty adapter.
    public init() {}

    /// No column.
    public func rowAdapterLayout(columnNames: [String]) throws -> RowAdapterLayout {
        RowAdapterLayout(columns: [])
    }
}

/// Adds named scopes (`row.scopes["team"]`) to a base adapter (by default the whole row).
///
///     let adapter = ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 3)])
public struct ScopeAdapter: RowAdapter {
    /// The adapter of the row itself; nil for all its columns.
    public let base: (any RowAdapter)?
    /// The scopes, by key.
    public let scopes: [String: any RowAdapter]

    /// The whole row, with scopes.
    public init(_ scopes: [String: any RowAdapter]) {
        self.base = nil
        self.scopes = scopes
    }

    /// The row as `base` shows it, with scopes (themselves adapted from the whole base row).
    public init(base: any RowAdapter, scopes: [String: any RowAdapter]) {
        self.base = base
        self.scopes = scopes
    }

    /// The base layout with the scopes' layouts.
    public func rowAdapterLayout(columnNames: [String]) throws -> RowAdapterLayout {
        let baseLayout =
            try base?.rowAdapterLayout(columnNames: columnNames)
            ?? RowAdapterLayout(columns: columnNames.indices.map { ($0, columnNames[$0]) })
        var scopeLayouts = baseLayout.scopes
        for key in scopes.keys.sorted() {
            guard let adapter = scopes[key] else { continue }
            scopeLayouts.removeAll { $0.key == key }
            scopeLayouts.append((key, try adapter.rowAdapterLayout(columnNames: columnNames)))
        }
        return RowAdapterLayout(columns: baseLayout.columns, scopes: scopeLayouts)
    }
}

extension RowAdapter {
    /// This adapter with more scopes: `SuffixRowAdapter(fromIndex: 2).addingScopes(["a": RangeRowAdapter(0..<2)])`.
    public func addingScopes(_ scopes: [String: any RowAdapter]) -> any RowAdapter {
        ScopeAdapter(base: self, scopes: scopes)
    }
}

/// Makes the adapted rows of one fetch, sharing one ``RowLayout`` per scope.
@usableFromInline
final class AdaptedRowMaker {
    /// The columns of the adapted rows.
    let layout: RowLayout
    private let indexes: [Int]
    private let scopes: [(key: String, maker: AdaptedRowMaker)]
    private let cache: AssociationDecodingCache

    init(_ adapterLayout: RowAdapterLayout, cache: AssociationDecodingCache = AssociationDecodingCache()) {
        layout = RowLayout(names: adapterLayout.columns.map(\.name))
        indexes = adapterLayout.columns.map(\.index)
        self.cache = cache
        scopes = adapterLayout.scopes.map { ($0.key, AdaptedRowMaker($0.layout, cache: cache)) }
    }

    /// The adapted copy of `row`.
    @usableFromInline
    func adapt(_ row: Row) -> Row {
        var values = ContiguousArray<DatabaseValue>()
        values.reserveCapacity(indexes.count)
        for index in indexes { values.append(row.databaseValue(atUncheckedIndex: index)) }
        let adapted = Row(layout: layout, values: values)
        if !scopes.isEmpty {
            adapted.associatedData(cache: cache).scopes = scopes.map { ($0.key, $0.maker.adapt(row)) }
        }
        return adapted
    }
}

extension Row {
    /// The rows of a query, adapted: `Row.fetchAll(db, sql: sql, adapter: ScopeAdapter([...]))`.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?
    ) throws -> [Row] {
        let rows = try fetchAll(db, sql: sql, arguments: arguments)
        guard let adapter else { return rows }
        let statement = try db.cachedStatement(sql: sql)
        let maker = AdaptedRowMaker(try adapter.rowAdapterLayout(columnNames: statement.columnNames))
        return rows.map(maker.adapt)
    }

    /// The first row of a query, adapted.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?
    ) throws -> Row? {
        guard let row = try fetchOne(db, sql: sql, arguments: arguments) else { return nil }
        guard let adapter else { return row }
        return AdaptedRowMaker(try adapter.rowAdapterLayout(columnNames: row.columnNames)).adapt(row)
    }

    /// A cursor over the adapted rows of a query (each row is an adapted copy).
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?
    ) throws -> RowCursor {
        try RowCursor(statement: db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension FetchableRecord {
    /// Records decoded from the adapted rows of a query.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?
    ) throws -> [Self] {
        guard adapter != nil else { return try fetchAll(db, sql: sql, arguments: arguments) }
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments, adapter: adapter)
        guard let first = rows.first else { return [] }
        let context = RecordDecodingContext(layout: first.layout)
        return try context.withCurrent { try decodeEach(rows, as: Self.self) }
    }

    /// A cursor over records decoded from the adapted rows of a query.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?
    ) throws -> RecordCursor<Self> {
        try RecordCursor(statement: db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The distinct records decoded from the adapted rows of a query.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?
    ) throws -> Set<Self> where Self: Hashable {
        Set(try fetchAll(db, sql: sql, arguments: arguments, adapter: adapter))
    }

    /// The record decoded from the first adapted row of a query.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?
    ) throws -> Self? {
        guard adapter != nil else { return try fetchOne(db, sql: sql, arguments: arguments) }
        guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments, adapter: adapter) else { return nil }
        return try Self(row: row)
    }
}

extension Row {
    /// The distinct adapted rows of a query.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?
    ) throws -> Set<Row> {
        Set(try fetchAll(db, sql: sql, arguments: arguments, adapter: adapter))
    }
}

extension DatabaseValueConvertible {
    /// The values of the leftmost column of the adapted rows of a query (`RangeRowAdapter(1..<2)` picks the
    /// second column of the query).
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?
    ) throws -> [Self] {
        guard adapter != nil else { return try fetchAll(db, sql: sql, arguments: arguments) }
        return try Row.fetchAll(db, sql: sql, arguments: arguments, adapter: adapter).map(leftmostValue)
    }

    /// The value of the leftmost column of the first adapted row of a query; nil when there is no row or the
    /// value is NULL.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)?
    ) throws -> Self? {
        guard adapter != nil else { return try fetchOne(db, sql: sql, arguments: arguments) }
        guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments, adapter: adapter) else { return nil }
        try requireColumn(row, sql: sql)
        return Self.fromDatabaseValue(row.databaseValue(atIndex: 0))
    }

    /// The leftmost value of an adapted row, or a decoding error (NULL included, as for non-optional fetches).
    private static func leftmostValue(_ row: Row) throws -> Self {
        try requireColumn(row, sql: nil)
        return try row.decode(Self.self, atIndex: 0)
    }

    /// Throws when the adapter left no column to read.
    private static func requireColumn(_ row: Row, sql: String?) throws {
        if row.count == 0 {
            throw DatabaseError.misuse("the row adapter selects no column", sql: sql)
        }
    }
}

/// Two adapters applied one after the other, as the request of `adapted(_:)` on a request that has an adapter
/// already: `second` sees the rows `first` makes.
struct ChainedRowAdapter: RowAdapter {
    let first: any RowAdapter
    let second: any RowAdapter

    func rowAdapterLayout(columnNames: [String]) throws -> RowAdapterLayout {
        let firstLayout = try first.rowAdapterLayout(columnNames: columnNames)
        let secondLayout = try second.rowAdapterLayout(columnNames: firstLayout.columns.map(\.name))
        let mapped = secondLayout.mapped(through: firstLayout)
        var scopes = firstLayout.scopes.filter { scope in !mapped.scopes.contains { $0.key == scope.key } }
        scopes += mapped.scopes
        return RowAdapterLayout(columns: mapped.columns, scopes: scopes)
    }
}

extension RowAdapterLayout {
    /// This layout, made for the rows of `base`, expressed on the rows `base` was made from.
    fileprivate func mapped(through base: RowAdapterLayout) -> RowAdapterLayout {
        RowAdapterLayout(
            columns: columns.map { (index: base.columns[$0.index].index, name: $0.name) },
            scopes: scopes.map { (key: $0.key, layout: $0.layout.mapped(through: base)) })
    }
}

// MARK: Adapted fetches from prepared statements

extension Row {
    /// A cursor over the adapted rows of a prepared statement (each row an adapted copy).
    public static func fetchCursor(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?
    )
        throws -> RowCursor
    {
        try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// The adapted rows of a prepared statement.
    public static func fetchAll(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?
    )
        throws -> [Row]
    {
        let rows = try fetchAll(statement, arguments: arguments)
        guard let adapter else { return rows }
        let maker = AdaptedRowMaker(try adapter.rowAdapterLayout(columnNames: statement.columnNames))
        return rows.map(maker.adapt)
    }

    /// The first adapted row of a prepared statement.
    public static func fetchOne(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?
    )
        throws -> Row?
    {
        guard let row = try fetchOne(statement, arguments: arguments) else { return nil }
        guard let adapter else { return row }
        return AdaptedRowMaker(try adapter.rowAdapterLayout(columnNames: row.columnNames)).adapt(row)
    }
}

extension FetchableRecord {
    /// A cursor over records decoded from the adapted rows of a prepared statement.
    public static func fetchCursor(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?
    )
        throws -> RecordCursor<Self>
    {
        try RecordCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// Records decoded from the adapted rows of a prepared statement.
    public static func fetchAll(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?
    )
        throws -> [Self]
    {
        guard adapter != nil else { return try fetchAll(statement, arguments: arguments) }
        return try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The record decoded from the first adapted row of a prepared statement.
    public static func fetchOne(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)?
    )
        throws -> Self?
    {
        guard let row = try Row.fetchOne(statement, arguments: arguments, adapter: adapter) else { return nil }
        return try Self(row: row)
    }
}
