internal import CSQLite
import Foundation

/// Per-statement state shared by the records decoded from one fetch: which column each coding key reads,
/// computed on the first row and reused for the next ones, so that a Decodable record looks up no column name
/// per row.
///
/// The fetch loops make the context current (thread-local) around each `init(row:)` call; the Decodable
/// `init(row:)` picks it up when the row has the same layout, and builds a throwaway one otherwise.
@usableFromInline
final class RecordDecodingContext {
    let layout: RowLayout
    @exclusivity(unchecked) private var state: RecordDecodingState?
    @exclusivity(unchecked) private var stateOwner: ObjectIdentifier?
    @exclusivity(unchecked) private var otherStates: [ObjectIdentifier: RecordDecodingState] = [:]

    init(layout: RowLayout) { self.layout = layout }

    /// Lets the decoders of every state go of their rows (see ``Statement/recordDecodingContext()``).
    @usableFromInline
    func detachRows() {
        state?.detachRow()
        for state in otherStates.values { state.detachRow() }
    }

    /// Decodes one record with this context current.
    @inline(__always)
    func decode<Record: FetchableRecord>(_ type: Record.Type, row: Row) throws -> Record {
        let previous = pthread_getspecific(recordDecodingContextKey)
        pthread_setspecific(recordDecodingContextKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(recordDecodingContextKey, previous) }
        return try Record(row: row)
    }

    /// Runs `body` with this context current: for loops that decode many records in a row.
    @usableFromInline
    func withCurrent<T>(_ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(recordDecodingContextKey)
        pthread_setspecific(recordDecodingContextKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(recordDecodingContextKey, previous) }
        return try body()
    }

    /// The current context when it matches the row, or a new one.
    static func current(for row: Row) -> RecordDecodingContext {
        if let pointer = pthread_getspecific(recordDecodingContextKey) {
            let context = Unmanaged<RecordDecodingContext>.fromOpaque(pointer).takeUnretainedValue()
            if context.layout === row.layout { return context }
        }
        return RecordDecodingContext(layout: row.layout)
    }

    /// The decoding state of a record type for this layout. The last type used is one comparison away; other
    /// types (a record decoding several records from the same row) are kept too, so that no state in use is
    /// ever released.
    func state<Record: FetchableRecord>(for type: Record.Type) -> RecordDecodingState {
        let owner = ObjectIdentifier(type)
        if let state, stateOwner == owner { return state }
        if let state, let stateOwner { otherStates[stateOwner] = state }
        let state = otherStates[owner] ?? RecordDecodingState(type, columnNames: layout.names)
        self.state = state
        stateOwner = owner
        return state
    }
}

/// What the decoder of one record type needs, computed once per fetch: the key table and the record's
/// decoding strategies, so that the decoder itself is not generic.
final class RecordDecodingState {
    let recordType: any FetchableRecord.Type
    let keyTable: ColumnKeyTable
    @exclusivity(unchecked) private var reusableDecoder: RecordDecoder?
    /// An empty row for decoders between fetches.
    private lazy var placeholderRow = Row()

    init<Record: FetchableRecord>(_ type: Record.Type, columnNames: [String]) {
        recordType = type
        keyTable = ColumnKeyTable(columnNames: columnNames, strategy: Record.databaseColumnDecodingStrategy)
    }

    deinit {
        // The decoder and its cached container refer to each other.
        reusableDecoder?.dropCachedContainer()
    }

    /// Points the reusable decoder, when idle, at an empty row.
    func detachRow() {
        if let decoder = reusableDecoder, !decoder.isInUse { decoder.detach(placeholderRow) }
    }

    var userInfo: [CodingUserInfoKey: Any] { recordType.databaseDecodingUserInfo }
    func dateStrategy(_ column: String) -> DatabaseDateDecodingStrategy {
        recordType.databaseDateDecodingStrategy(for: column)
    }
    func dataStrategy(_ column: String) -> DatabaseDataDecodingStrategy {
        recordType.databaseDataDecodingStrategy(for: column)
    }
    func jsonDecoder(_ column: String) -> JSONDecoder { recordType.databaseJSONDecoder(for: column) }

    /// A decoder over `row`: the same instance from row to row, unless it is busy (a record decoding another
    /// record of its type from inside its initializer).
    func decoder(for row: Row) -> RecordDecoder {
        if let decoder = reusableDecoder, !decoder.isInUse {
            decoder.reset(row)
            decoder.isInUse = true
            return decoder
        }
        let decoder = RecordDecoder(row: row, state: self)
        decoder.isInUse = true
        if reusableDecoder == nil {
            reusableDecoder = decoder
            decoder.isReusable = true
        }
        return decoder
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
    @exclusivity(unchecked) private var slotKeys: [String] = []
    @exclusivity(unchecked) private var slotIndexes: [Int] = []

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
        if position < slotKeys.count && slotKeys[position] == key {
            let index = slotIndexes[position]
            return index < 0 ? nil : index
        }
        return slowIndex(forKey: key, position: position)
    }

    private func slowIndex(forKey key: String, position: Int) -> Int? {
        let index = lookup(key)
        if position == slotKeys.count {
            slotKeys.append(key)
            slotIndexes.append(index ?? -1)
        }
        return index
    }

    private func lookup(_ key: String) -> Int? {
        if let index = keyNames.firstIndex(of: key) { return index }
        return keyNames.firstIndex { $0.utf8.count == key.utf8.count && asciiCaseInsensitiveEqual($0, key) }
    }
}

extension Statement {
    /// The decoding context of the records fetched from this statement, kept from fetch to fetch (cached
    /// statements run the same query many times): no new key table, decoder or container per fetch. The fetch
    /// calls `detachRows()` when done, so that the context does not keep the statement alive through a row.
    @usableFromInline
    func recordDecodingContext() -> RecordDecodingContext {
        if let context = cachedRecordDecodingContext, context.layout === layout { return context }
        let context = RecordDecodingContext(layout: layout)
        cachedRecordDecodingContext = context
        return context
    }
}
