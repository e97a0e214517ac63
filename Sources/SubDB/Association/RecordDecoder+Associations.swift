// Decoding associated records into the properties of a Decodable record named after association keys:
//
//     struct BookInfo: Decodable, FetchableRecord {
//         var book: Book          // no column or scope named "book": the base row
//         var author: Author      // the "author" scope of including(required:)
//         var translator: Author? // including(optional:): nil when the scope has only NULLs
//         var awards: [Award]     // including(all:): prefetched rows
//     }

/// Arrays of records, decoded from prefetched rows.
protocol FetchableRecordArray {
    static func decodeRecords(_ rows: [Row], key: String, cache: AssociationDecodingCache) throws -> Self
}

extension Array: FetchableRecordArray where Element: FetchableRecord {
    static func decodeRecords(_ rows: [Row], key: String, cache: AssociationDecodingCache) throws -> [Element] {
        guard let first = rows.first else { return [] }
        let context = cache.context(key: key, type: Element.self, layout: first.layout)
        return try context.withCurrent { try decodeEach(rows, as: Element.self) }
    }
}

extension RecordDecoder {
    /// What a key decodes from in a row with associations.
    private enum AssociatedSource {
        case scope(Row)
        case prefetched([Row])
        case base
    }

    private func associatedSource(_ type: Any.Type, forKey key: some CodingKey) -> AssociatedSource? {
        guard let data = row.associated else { return nil }
        let name = key.stringValue
        if let scope = data.scopes.first(where: { $0.key == name }) { return .scope(scope.row) }
        if let rows = data.prefetchedRows(name) { return .prefetched(rows) }
        // An association included inside a joined one sits in that one's empty scope (GRDB's `scopesTree`).
        if type is any FetchableRecord.Type || type == Row.self, let row = data.scopeRow(deepKey: name) {
            return .scope(row)
        }
        if type is any FetchableRecord.Type, keyTable.index(forKey: name, position: Int.max) == nil { return .base }
        return nil
    }

    private func decodeRecord<R: FetchableRecord>(_ type: R.Type, from row: Row, key: String) throws -> R {
        guard let data = row.associated ?? self.row.associated else { return try R(row: row) }
        return try data.decodingCache.context(key: key, type: R.self, layout: row.layout).decode(R.self, row: row)
    }

    /// The value of a non-optional property decoded from an association, or nil when the key is a column.
    func associatedValue<T>(_ type: T.Type, forKey key: some CodingKey) throws -> T? {
        guard let source = associatedSource(T.self, forKey: key) else { return nil }
        return try decode(T.self, from: source, key: key.stringValue)
    }

    /// The value of an optional property decoded from an association: `.some(nil)` for an optional scope
    /// without a match, nil when the key is a column.
    func associatedOptionalValue<T>(_ type: T.Type, forKey key: some CodingKey) throws -> T?? {
        guard let source = associatedSource(T.self, forKey: key) else { return nil }
        if case .scope(let scope) = source, !scope.containsNonNullValue { return .some(nil) }
        return .some(try decode(T.self, from: source, key: key.stringValue))
    }

    private func decode<T>(_ type: T.Type, from source: AssociatedSource, key: String) throws -> T {
        let decoded: Any
        switch source {
        case .scope(let scope):
            if T.self == Row.self, let scope = scope as? T { return scope }
            guard let recordType = T.self as? any FetchableRecord.Type else { throw mismatch(T.self, key) }
            decoded = try decodeRecord(recordType, from: scope, key: key)
        case .prefetched(let rows):
            if T.self == [Row].self, let rows = rows as? T { return rows }
            guard let arrayType = T.self as? any FetchableRecordArray.Type else { throw mismatch(T.self, key) }
            let cache = row.associated?.decodingCache ?? AssociationDecodingCache()
            decoded = try arrayType.decodeRecords(rows, key: key, cache: cache)
        case .base:
            guard let recordType = T.self as? any FetchableRecord.Type else { throw mismatch(T.self, key) }
            decoded = try decodeRecord(recordType, from: row, key: "")
        }
        guard let value = decoded as? T else { throw mismatch(T.self, key) }
        return value
    }

    private func mismatch<T>(_ type: T.Type, _ key: String) -> RowDecodingError {
        RowDecodingError(
            "association \(key.debugDescription) cannot be decoded as \(T.self): use a FetchableRecord type "
                + "(an array for including(all:))", row: row, statement: nil)
    }
}

/// One record per row, written in place into an array of the known size. This code is generic and not
/// specialized: growing an array (`map`, `append`) would look up the array's metadata for each record.
func decodeEach<Record: FetchableRecord>(_ rows: [Row], as type: Record.Type) throws -> [Record] {
    try [Record](unsafeUninitializedCapacity: rows.count) { buffer, initializedCount in
        guard let base = buffer.baseAddress else { return }
        for row in rows {
            // On a throw, the array destroys the `initializedCount` records already written.
            (base + initializedCount).initialize(to: try Record(row: row))
            initializedCount += 1
        }
    }
}
