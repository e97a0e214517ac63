// Fetching from SQL literals, as GRDB's `fetchAll(_:literal:adapter:)` family: the literal becomes an
// ``SQLRequest``, so literals fetch exactly as requests do (adapter included).
//
//     let name = "Arthur"
//     let players = try Player.fetchAll(db, literal: "SELECT * FROM player WHERE name = \(name)")
//     let scores = try Int.fetchAll(db, literal: "SELECT score FROM player WHERE name = \(name)")

extension Row {
    /// A cursor over the rows of an SQL literal (each `next()` returns the same live row, adapted copies with an
    /// adapter).
    public static func fetchCursor(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws -> RowCursor {
        try SQLRequest<Row>(literal: literal, adapter: adapter).fetchCursor(db)
    }

    /// The rows of an SQL literal.
    public static func fetchAll(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws -> [Row] {
        try SQLRequest<Row>(literal: literal, adapter: adapter).fetchAll(db)
    }

    /// The distinct rows of an SQL literal.
    public static func fetchSet(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws -> Set<Row> {
        try SQLRequest<Row>(literal: literal, adapter: adapter).fetchSet(db)
    }

    /// The first row of an SQL literal, or nil.
    public static func fetchOne(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws -> Row? {
        try SQLRequest<Row>(literal: literal, adapter: adapter).fetchOne(db)
    }
}

extension DatabaseValueConvertible {
    /// A cursor over the values of the leftmost column of an SQL literal.
    public static func fetchCursor(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws
        -> DatabaseValueCursor<Self>
    {
        try SQLRequest<Self>(literal: literal, adapter: adapter).fetchCursor(db)
    }

    /// The values of the leftmost column of an SQL literal.
    public static func fetchAll(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        try SQLRequest<Self>(literal: literal, adapter: adapter).fetchAll(db)
    }

    /// The distinct values of the leftmost column of an SQL literal.
    public static func fetchSet(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws -> Set<Self>
    where Self: Hashable {
        try SQLRequest<Self>(literal: literal, adapter: adapter).fetchSet(db)
    }

    /// The value of the leftmost column of the first row of an SQL literal; nil for no row or NULL.
    public static func fetchOne(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws -> Self? {
        try SQLRequest<Self>(literal: literal, adapter: adapter).fetchOne(db)
    }
}

extension FetchableRecord {
    /// A cursor over records decoded from an SQL literal.
    public static func fetchCursor(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws
        -> RecordCursor<Self>
    {
        try SQLRequest<Self>(literal: literal, adapter: adapter).fetchCursor(db)
    }

    /// Records decoded from an SQL literal: `Player.fetchAll(db, literal: "SELECT * FROM player WHERE id = \(id)")`.
    public static func fetchAll(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        try SQLRequest<Self>(literal: literal, adapter: adapter).fetchAll(db)
    }

    /// The distinct records decoded from an SQL literal.
    public static func fetchSet(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws -> Set<Self>
    where Self: Hashable {
        try SQLRequest<Self>(literal: literal, adapter: adapter).fetchSet(db)
    }

    /// The first record decoded from an SQL literal.
    public static func fetchOne(_ db: Database, literal: SQL, adapter: (any RowAdapter)? = nil) throws -> Self? {
        try SQLRequest<Self>(literal: literal, adapter: adapter).fetchOne(db)
    }
}
