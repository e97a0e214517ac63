import Foundation
internal import CSQLite

/// Per-statement state shared by the records decoded from one fetch: which column each coding key reads,
/// computed on the first row and reused for the next ones, so that a Decodable record looks up no column name
/// per row.
///
/// The fetch loops make the context current (thread-local) around each `init(row:)` call; the Decodable
/// `init(row:)` picks it up when the row has the same layout, and builds a throwaway one otherwise.
final class RecordDecodingContext {
    let layout: RowLayout
    private var keyTable: ColumnKeyTable?
    private var keyTableOwner: ObjectIdentifier?

    init(layout: RowLayout) { self.layout = layout }

    /// Decodes one record with this context current.
    @inline(__always)
    func decode<Record: FetchableRecord>(_ type: Record.Type, row: Row) throws -> Record {
        let previous = pthread_getspecific(recordDecodingContextKey)
        pthread_setspecific(recordDecodingContextKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(recordDecodingContextKey, previous) }
        return try Record(row: row)
    }

    /// The current context when it matches the row, or a new one.
    static func current(for row: Row) -> RecordDecodingContext {
        if let pointer = pthread_getspecific(recordDecodingContextKey) {
            let context = Unmanaged<RecordDecodingContext>.fromOpaque(pointer).takeUnretainedValue()
            if context.layout === row.layout { return context }
        }
        return RecordDecodingContext(layout: row.layout)
    }

    /// The key table of a record type for this layout.
    func keyTable<Record: FetchableRecord>(for type: Record.Type) -> ColumnKeyTable {
        let owner = ObjectIdentifier(type)
        if let keyTable, keyTableOwner == owner { return keyTable }
        let table = ColumnKeyTable(columnNames: layout.names, strategy: Record.databaseColumnDecodingStrategy)
        keyTable = table
        keyTableOwner = owner
        return table
    }
}

/// The thread-local slot of the current ``RecordDecodingContext``.
let recordDecodingContextKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

/// Maps coding keys to column indexes. Synthesized `init(from:)` decodes keys in the same order for every row:
/// the table remembers that order, so each lookup is one string comparison (by identity for literal keys).
final class ColumnKeyTable {
    /// The coding key name of each column, after the decoding strategy.
    let keyNames: [String]
    /// Keys in the order they were asked on the first row, with their column index (-1: missing).
    private var slots: [(key: String, index: Int)] = []

    init(columnNames: [String], strategy: DatabaseColumnDecodingStrategy) {
        if case .useDefaultKeys = strategy {
            keyNames = columnNames
        } else {
            keyNames = columnNames.map { strategy.key(forColumn: $0) }
        }
    }

    /// The column index for `key`, asked as the `position`-th lookup of the current row; nil when missing.
    @inline(__always)
    func index(forKey key: String, position: Int) -> Int? {
        if position < slots.count {
            let slot = slots[position]
            if slot.key == key { return slot.index < 0 ? nil : slot.index }
        }
        let index = lookup(key)
        if position == slots.count { slots.append((key, index ?? -1)) }
        return index
    }

    private func lookup(_ key: String) -> Int? {
        if let index = keyNames.firstIndex(of: key) { return index }
        return keyNames.firstIndex { $0.utf8.count == key.utf8.count && asciiCaseInsensitiveEqual($0, key) }
    }
}
