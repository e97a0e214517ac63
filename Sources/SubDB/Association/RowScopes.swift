/// The associated rows of a ``Row`` fetched by a request with associations.
final class RowAssociatedData {
    /// Rows of included to-one associations, by key, in selection order.
    var scopes: [(key: String, row: Row)] = []
    /// Rows of `including(all:)` associations, by key (a few keys: an array is cheaper than a dictionary).
    var prefetched: [(key: String, rows: [Row])] = []

    /// The prefetched rows of an association.
    func prefetchedRows(_ key: String) -> [Row]? {
        prefetched.first { $0.key == key }?.rows
    }

    /// Sets the prefetched rows of an association.
    func setPrefetchedRows(_ rows: [Row], forKey key: String) {
        if let index = prefetched.firstIndex(where: { $0.key == key }) {
            prefetched[index].rows = rows
        } else {
            prefetched.append((key, rows))
        }
    }
    /// The row of the scope named `key` here or in nested scopes, breadth-first.
    func scopeRow(deepKey key: String) -> Row? {
        var level = [self]
        while !level.isEmpty {
            for data in level {
                if let scope = data.scopes.first(where: { $0.key == key }) { return scope.row }
            }
            level = level.flatMap { $0.scopes.compactMap(\.row.associated) }
        }
        return nil
    }

    /// Decoding contexts shared by the rows of one fetch.
    let decodingCache: AssociationDecodingCache

    init(decodingCache: AssociationDecodingCache) { self.decodingCache = decodingCache }
}

/// Record decoding contexts keyed by association key and record type, shared by the rows of one fetch so that
/// each associated record type computes its column lookup once.
final class AssociationDecodingCache {
    private struct CacheKey: Hashable {
        let key: String
        let type: ObjectIdentifier
    }

    private var contexts: [CacheKey: RecordDecodingContext] = [:]

    func context(key: String, type: Any.Type, layout: RowLayout) -> RecordDecodingContext {
        let cacheKey = CacheKey(key: key, type: ObjectIdentifier(type))
        if let context = contexts[cacheKey], context.layout === layout { return context }
        let context = RecordDecodingContext(layout: layout)
        contexts[cacheKey] = context
        return context
    }
}

extension Row {
    /// The rows of included to-one associations, by association key: `row.scopes["author"]`.
    ///
    ///     let row = try Book.including(required: Book.author).asRequest(of: Row.self).fetchOne(db)!
    ///     let authorRow = row.scopes["author"]     // [id:1 name:"Jules Verne"]
    public var scopes: ScopesView { ScopesView(data: associated) }

    /// The rows of included associations at any depth, found breadth-first by key, as GRDB's `scopesTree`:
    /// `row.scopesTree["country"]` for `Book.including(required: Book.author.including(required: Author.country))`.
    public var scopesTree: ScopesTreeView { ScopesTreeView(data: associated) }

    /// The rows of `including(all:)` associations, by association key: `row.prefetchedRows["books"]`.
    public var prefetchedRows: PrefetchedRowsView { PrefetchedRowsView(data: associated) }

    /// The associated rows of a fetched row, by key.
    public struct ScopesView {
        let data: RowAssociatedData?

        /// The keys, in selection order.
        public var names: [String] { data?.scopes.map(\.key) ?? [] }

        /// The row of the association with this key, or nil.
        public subscript(_ key: String) -> Row? {
            data?.scopes.first { $0.key == key }?.row
        }
    }

    /// The associated rows of a fetched row at any depth, by key.
    public struct ScopesTreeView {
        let data: RowAssociatedData?

        /// The keys of every scope, breadth-first.
        public var names: [String] {
            var names: [String] = []
            var level = data.map { [$0] } ?? []
            while !level.isEmpty {
                names += level.flatMap { $0.scopes.map(\.key) }
                level = level.flatMap { $0.scopes.compactMap(\.row.associated) }
            }
            return names
        }

        /// The nearest row of the association with this key, or nil.
        public subscript(_ key: String) -> Row? { data?.scopeRow(deepKey: key) }
    }

    /// The prefetched rows of a fetched row, by key.
    public struct PrefetchedRowsView {
        let data: RowAssociatedData?

        /// The keys, sorted.
        public var keys: [String] { data?.prefetched.map(\.key).sorted() ?? [] }

        /// The rows of the association with this key, or nil when it was not prefetched.
        public subscript(_ key: String) -> [Row]? { data?.prefetchedRows(key) }
    }

    /// The associated data, created on first use.
    func associatedData(cache: AssociationDecodingCache) -> RowAssociatedData {
        if let associated { return associated }
        let data = RowAssociatedData(decodingCache: cache)
        associated = data
        return data
    }
}

/// Cuts the flat rows of a joined statement into a base row with nested scopes, sharing one layout per scope.
final class RowSplitter {
    final class Node {
        let key: String
        let layout: RowLayout
        let range: Range<Int>
        let children: [Node]

        init(key: String, layout: RowLayout, range: Range<Int>, children: [Node]) {
            self.key = key
            self.layout = layout
            self.range = range
            self.children = children
        }
    }

    let keyCount: Int
    let root: Node
    let cache: AssociationDecodingCache

    init(columnNames: [String], scope: ScopeLayout?, keyCount: Int, cache: AssociationDecodingCache) throws {
        self.keyCount = keyCount
        self.cache = cache
        guard let scope else {
            root = Node(
                key: "", layout: RowLayout(names: Array(columnNames[keyCount...])),
                range: keyCount..<columnNames.count, children: [])
            return
        }
        var offset = keyCount
        func build(_ scope: ScopeLayout) -> Node {
            let range = offset..<(offset + scope.columnCount)
            offset += scope.columnCount
            let names = range.upperBound <= columnNames.count ? Array(columnNames[range]) : []
            return Node(
                key: scope.key, layout: RowLayout(names: names), range: range, children: scope.children.map(build))
        }
        root = build(scope)
        guard offset == columnNames.count else {
            throw DatabaseError(
                message: "association columns do not match the statement: expected \(offset), got \(columnNames.count)")
        }
    }

    /// The key values and the scoped row of the statement's current row.
    func split(_ row: Row) -> (keys: [DatabaseValue], row: Row) {
        var keys: [DatabaseValue] = []
        if keyCount > 0 {
            keys.reserveCapacity(keyCount)
            for index in 0..<keyCount { keys.append(row.databaseValue(atUncheckedIndex: index)) }
        }
        if root.children.isEmpty {
            // No scopes: copy the base columns only.
            var values = ContiguousArray<DatabaseValue>()
            values.reserveCapacity(root.range.count)
            for index in root.range { values.append(row.databaseValue(atUncheckedIndex: index)) }
            return (keys, Row(layout: root.layout, values: values))
        }
        var values = ContiguousArray<DatabaseValue>()
        values.reserveCapacity(row.count)
        for index in 0..<row.count { values.append(row.databaseValue(atUncheckedIndex: index)) }
        return (keys, makeRow(root, values))
    }

    private func makeRow(_ node: Node, _ values: ContiguousArray<DatabaseValue>) -> Row {
        let row = Row(layout: node.layout, values: ContiguousArray(values[node.range]))
        if !node.children.isEmpty {
            let data = row.associatedData(cache: cache)
            data.scopes = node.children.map { ($0.key, makeRow($0, values)) }
        }
        return row
    }
}
