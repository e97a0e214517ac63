import Foundation
internal import CSQLite

// Fetching requests with associations: the joined query cut into row scopes, then one query per
// `including(all:)` association (`WHERE key IN (...)`, chunked under SQLite's variable limit), never one per row.

extension QueryInterfaceRequest {
    /// Fetches rows with their scopes and prefetched rows; `keyCount` leading columns (the origin keys of a
    /// prefetch query) are returned apart.
    func fetchAssociatedRows(_ db: Database, keyCount: Int = 0) throws -> [(keys: [DatabaseValue], row: Row)] {
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
        let cursor = try Row.fetchCursor(statement, arguments: context.statementArguments)
        let cache = AssociationDecodingCache()
        let splitter = try RowSplitter(
            columnNames: statement.columnNames, scope: scope, keyCount: keyCount, cache: cache)
        var result: [(keys: [DatabaseValue], row: Row)] = []
        while let row = try cursor.next() {
            result.append(splitter.split(row))
        }
        for join in associationJoins {
            guard case .prefetch(let association) = join else { continue }
            try prefetch(association, into: result.map(\.row), originTable: tableName, db, cache: cache)
        }
        return result
    }

    /// Fills `prefetchedRows[association.key]` of every row with one query per chunk of distinct keys.
    private func prefetch(
        _ association: SQLAssociation, into rows: [Row], originTable: String, _ db: Database,
        cache: AssociationDecodingCache
    ) throws {
        let pairs = try association.steps[0].columnPairs(db, originTable: originTable)
        var rowKeys: [[DatabaseValue]?] = []
        var distinctKeys: [[DatabaseValue]] = []
        var seen: Set<[DatabaseValue]> = []
        for row in rows {
            var key: [DatabaseValue] = []
            for pair in pairs {
                guard let index = row.index(forColumn: pair.origin) else {
                    throw DatabaseError(
                        message: "including(all: \(association.key)) needs the column \(pair.origin) of "
                            + "\(originTable) in the selection")
                }
                key.append(row.databaseValue(atUncheckedIndex: index))
            }
            if key.contains(where: \.isNull) {
                rowKeys.append(nil)
                continue
            }
            rowKeys.append(key)
            if seen.insert(key).inserted { distinctKeys.append(key) }
        }
        var grouped: [[DatabaseValue]: [Row]] = [:]
        let chunkSize = max(1, db.maximumVariableCount / 2 / pairs.count)
        var start = 0
        while start < distinctKeys.count {
            let chunk = Array(distinctKeys[start..<min(start + chunkSize, distinctKeys.count)])
            start += chunkSize
            var request = association.destination
            request.associationJoins.append(.originKeys(OriginKeys(
                steps: association.steps, originTable: originTable, keyTuples: chunk, selectsKeys: true)))
            for (keys, row) in try request.fetchAssociatedRows(db, keyCount: pairs.count) {
                grouped[keys, default: []].append(row)
            }
        }
        for (row, key) in zip(rows, rowKeys) {
            let data = row.associatedData(cache: cache)
            data.prefetchedRows[association.key] = key.flatMap { grouped[$0] } ?? []
        }
    }
}

extension Database {
    /// The most `?` parameters a statement may have. The corresponding C function is `sqlite3_limit`.
    var maximumVariableCount: Int {
        Int(sqlite3_limit(sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }
}

/// The protocol extension's fetches, for requests without associations.
private func plainFetchAll<R: FetchRequest>(_ request: R, _ db: Database) throws -> [R.RowDecoder]
where R.RowDecoder: FetchableRecord {
    try request.fetchAll(db)
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
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        if associationJoins.isEmpty { return try plainFetchAll(self, db) }
        let rows = try fetchAssociatedRows(db)
        guard let first = rows.first else { return [] }
        let context = RecordDecodingContext(layout: first.row.layout)
        var records: [RowDecoder] = []
        records.reserveCapacity(rows.count)
        for (_, row) in rows { records.append(try context.decode(RowDecoder.self, row: row)) }
        return records
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
        return try fetchAssociatedRows(db).map(\.row)
    }

    /// The first fetched row.
    public func fetchOne(_ db: Database) throws -> Row? {
        if associationJoins.isEmpty { return try plainFetchOneRow(self, db) }
        var request = self
        request.limitCount = 1
        return try request.fetchAll(db).first
    }
}
