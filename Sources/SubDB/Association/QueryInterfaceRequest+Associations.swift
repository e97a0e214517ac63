internal import CSQLite
import Foundation

// Fetching requests with associations: the joined query cut into row scopes, then one query per
// `including(all:)` association (`WHERE key IN (...)`, chunked under SQLite's variable limit), never one per row.

extension QueryInterfaceRequest {
    /// Fetches rows with their scopes and prefetched rows; `keyCount` leading columns (the origin keys of a
    /// prefetch query) are returned apart, flat, `keyCount` values per row.
    func fetchAssociatedRows(_ db: Database, keyCount: Int = 0) throws -> (rows: [Row], keys: [DatabaseValue]) {
        var context = SQLGenerationContext()
        let sql: String
        let scope: ScopeLayout?
        if hasSQLJoins {
            let plan = try JoinPlan(db, parts(db))
            sql = plan.sql(&context, forCount: false)
            scope = plan.scope
        } else {
            sql = try selectSQL(db, &context)
            scope = nil
        }
        let statement = try db.cachedStatement(sql: sql)
        let cache = AssociationDecodingCache()
        let splitter = try RowSplitter(
            columnNames: statement.columnNames, scope: scope, keyCount: keyCount, cache: cache)
        var rows: [Row] = []
        var keys: [DatabaseValue] = []
        if splitter.root.children.isEmpty {
            // No scopes: every value goes to one block shared by the rows, as `Row.fetchAll` does.
            try prepareForFetch(statement, arguments: context.statementArguments)
            let sqliteStatement = statement.sqliteStatement
            let range = splitter.root.range
            let layout = splitter.root.layout
            // Values go to blocks of up to `rowsPerBlock` rows, as in `Row.fetchAll`: no buffer regrown (and
            // copied) to the size of the whole result.
            let rowsPerBlock = 1024
            var values = ContiguousArray<DatabaseValue>()
            values.reserveCapacity(range.count * 16)
            var rowCount = 0
            var done = false
            while try stepStatement(statement, done: &done) {
                for index in 0..<Int32(keyCount) {
                    keys.append(DatabaseValue(sqliteStatement: sqliteStatement, index: index))
                }
                for index in range {
                    values.append(DatabaseValue(sqliteStatement: sqliteStatement, index: Int32(index)))
                }
                rowCount += 1
                if !range.isEmpty && values.count == rowsPerBlock * range.count {
                    Row.appendRows(of: &values, layout: layout, count: range.count, to: &rows)
                    values.reserveCapacity(rowsPerBlock * range.count)
                }
            }
            if range.isEmpty {
                rows = (0..<rowCount).map { _ in Row(layout: layout, values: []) }
            } else if !values.isEmpty {
                Row.appendRows(of: &values, layout: layout, count: range.count, to: &rows)
            }
        } else {
            let cursor = try Row.fetchCursor(statement, arguments: context.statementArguments)
            while let row = try cursor.next() {
                let (rowKeys, scoped) = splitter.split(row)
                keys += rowKeys
                rows.append(scoped)
            }
        }
        for join in associationJoins {
            guard case .prefetch(let association) = join else { continue }
            try prefetch(association, into: rows, originTable: tableName, db, cache: cache)
        }
        return (rows, keys)
    }

    /// Fills `prefetchedRows[association.key]` of every row with one query per chunk of distinct keys.
    private func prefetch(
        _ association: SQLAssociation, into rows: [Row], originTable: String, _ db: Database,
        cache: AssociationDecodingCache
    ) throws {
        guard let first = rows.first else { return }
        let pairs = try association.steps[0].columnPairs(db, originTable: originTable)
        let width = pairs.count
        // The rows of one fetch share their layout: find the key columns once.
        let columnIndexes = try pairs.map { pair in
            guard let index = first.index(forColumn: pair.origin) else {
                throw DatabaseError(
                    message: "including(all: \(association.key)) needs the column \(pair.origin) of "
                        + "\(originTable) in the selection")
            }
            return index
        }
        var keyIndex = OriginKeyIndex()
        var rowGroups = [Int](repeating: -1, count: rows.count)
        var key: [DatabaseValue] = []
        for (position, row) in rows.enumerated() {
            key.removeAll(keepingCapacity: true)
            for index in columnIndexes { key.append(row.databaseValue(atUncheckedIndex: index)) }
            if key.contains(where: \.isNull) { continue }
            rowGroups[position] = keyIndex.insert(key)
        }
        var buckets = [[Row]](repeating: [], count: keyIndex.keys.count)
        let chunkSize = max(1, db.maximumVariableCount / 2 / width)
        var start = 0
        while start < keyIndex.keys.count {
            let chunk = Array(keyIndex.keys[start..<min(start + chunkSize, keyIndex.keys.count)])
            start += chunkSize
            var request = association.destination
            request.associationJoins.append(
                .originKeys(
                    OriginKeys(
                        steps: association.steps, originTable: originTable, keyTuples: chunk, selectsKeys: true,
                        firstStepPairs: pairs)))
            let fetched = try request.fetchAssociatedRows(db, keyCount: width)
            for (position, row) in fetched.rows.enumerated() {
                let offset = position * width
                if let group = keyIndex.index(of: fetched.keys[offset..<(offset + width)]) {
                    buckets[group].append(row)
                }
            }
        }
        for (row, group) in zip(rows, rowGroups) {
            row.associatedData(cache: cache).setPrefetchedRows(group < 0 ? [] : buckets[group], forKey: association.key)
        }
    }
}

/// Distinct origin keys of a prefetch, numbered in order of appearance. Integer keys (the common case) hash
/// one `Int64`, not an array of values.
struct OriginKeyIndex {
    private var integers: [Int64: Int] = [:]
    private var others: [[DatabaseValue]: Int] = [:]
    private(set) var keys: [[DatabaseValue]] = []

    /// The number of `key`, inserted if new.
    mutating func insert(_ key: [DatabaseValue]) -> Int {
        if key.count == 1, case .int64(let integer) = key[0].storage {
            if let index = integers[integer] { return index }
            integers[integer] = keys.count
        } else {
            if let index = others[key] { return index }
            others[key] = keys.count
        }
        keys.append(key)
        return keys.count - 1
    }

    /// The number of `key`, or nil.
    func index(of key: ArraySlice<DatabaseValue>) -> Int? {
        if key.count == 1, case .int64(let integer) = key[key.startIndex].storage { return integers[integer] }
        return others[Array(key)]
    }
}

extension Database {
    /// The most `?` parameters a statement may have. The corresponding C function is `sqlite3_limit`.
    var maximumVariableCount: Int {
        Int(sqlite3_limit(sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }
}

/// The protocol extension's fetches, for requests without associations.
@inlinable
func plainFetchAll<R: FetchRequest>(_ request: R, _ db: Database) throws -> [R.RowDecoder]
where R.RowDecoder: FetchableRecord {
    try request.fetchAll(db)
}

private func plainFetchCursor<R: FetchRequest>(_ request: R, _ db: Database) throws -> RecordCursor<R.RowDecoder>
where R.RowDecoder: FetchableRecord {
    try request.fetchCursor(db)
}

private func plainFetchRowCursor<R: FetchRequest>(_ request: R, _ db: Database) throws -> RowCursor
where R.RowDecoder == Row {
    try request.fetchCursor(db)
}

/// The error of cursors on requests with associations, whose rows need scopes and extra queries.
private func cursorWithAssociationsError() -> DatabaseError {
    DatabaseError(message: "fetchCursor does not support requests with associations: use fetchAll or fetchOne")
}

private func plainFetchOne<R: FetchRequest>(_ request: R, _ db: Database) throws -> R.RowDecoder?
where R.RowDecoder: FetchableRecord {
    try request.fetchOne(db)
}

private func plainFetchAllRows<R: FetchRequest>(_ request: R, _ db: Database) throws -> [Row]
where R.RowDecoder == Row {
    try request.fetchAll(db)
}

private func plainFetchOneRow<R: FetchRequest>(_ request: R, _ db: Database) throws -> Row?
where R.RowDecoder == Row {
    try request.fetchOne(db)
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord {
    /// An array of fetched records; records decode their associations from the row scopes
    /// (`struct BookInfo: Decodable, FetchableRecord { var book: Book; var author: Author }`).
    @inlinable
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        // Inlinable: specialized for the record type in the caller's module (no generic metadata lookups per
        // row in the fetch loop).
        if !hasAssociationJoins { return try plainFetchAll(self, db) }
        return try fetchAllWithAssociations(db)
    }

    /// `fetchAll` for requests with associations.
    @usableFromInline
    func fetchAllWithAssociations(_ db: Database) throws -> [RowDecoder] {
        let rows = try fetchAssociatedRows(db).rows
        guard let first = rows.first else { return [] }
        let context = RecordDecodingContext(layout: first.layout)
        return try context.withCurrent { try decodeEach(rows, as: RowDecoder.self) }
    }

    /// A cursor over the fetched records; requests with associations throw (use `fetchAll`).
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        guard associationJoins.isEmpty else { throw cursorWithAssociationsError() }
        return try plainFetchCursor(self, db)
    }

    /// The first fetched record.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        if associationJoins.isEmpty { return try plainFetchOne(self, db) }
        var request = self
        request.limitCount = 1
        return try request.fetchAll(db).first
    }

    /// A set of fetched records.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> where RowDecoder: Hashable {
        Set(try fetchAll(db))
    }
}

extension QueryInterfaceRequest where RowDecoder == Row {
    /// An array of fetched rows, with `scopes` and `prefetchedRows` for associations.
    public func fetchAll(_ db: Database) throws -> [Row] {
        if associationJoins.isEmpty { return try plainFetchAllRows(self, db) }
        return try fetchAssociatedRows(db).rows
    }

    /// A cursor over the fetched rows; requests with associations throw (use `fetchAll`).
    public func fetchCursor(_ db: Database) throws -> RowCursor {
        guard associationJoins.isEmpty else { throw cursorWithAssociationsError() }
        return try plainFetchRowCursor(self, db)
    }

    /// The first fetched row.
    public func fetchOne(_ db: Database) throws -> Row? {
        if associationJoins.isEmpty { return try plainFetchOneRow(self, db) }
        var request = self
        request.limitCount = 1
        return try request.fetchAll(db).first
    }
}
