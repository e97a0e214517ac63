internal import CSQLite
import Foundation

extension FetchableRecord where Self: Decodable {
    /// Decodes the record through its `Decodable` conformance: coding keys are read from the columns of the
    /// same name (case-insensitive), nested values and collections from JSON text.
    public init(row: Row) throws {
        let context = RecordDecodingContext.current(for: row)
        // The decoder holds its state unowned: the context that owns it lives until the record is decoded.
        defer { withExtendedLifetime(context) {} }
        let decoder = context.state(for: Self.self).decoder(for: row)
        defer { decoder.finishDecoding() }
        try self.init(from: decoder)
    }
}

/// The `Decoder` of Decodable records: reads straight from the row (from SQLite itself on cursor rows).
final class RecordDecoder: Decoder {
    // Mutable state is only touched by the thread decoding the current row: no dynamic exclusivity checks.
    @exclusivity(unchecked) private(set) var row: Row
    /// Unowned: the state owns its reusable decoder, and outlives every decoding.
    unowned let state: RecordDecodingState
    let keyTable: ColumnKeyTable
    /// The raw statement when the row is a live view over a cursor, for `sqlite3_column_*` reads.
    @exclusivity(unchecked) private(set) var sqliteStatement: OpaquePointer?
    @exclusivity(unchecked) var position = 0
    /// True while a record decodes from this decoder (decoders are reused from row to row).
    @exclusivity(unchecked) var isInUse = false
    /// True for the decoder its state reuses from row to row.
    @exclusivity(unchecked) var isReusable = false
    /// The keyed container of the last `container(keyedBy:)` call (a ``CachedContainer``), reused for the next
    /// rows.
    @exclusivity(unchecked) private var cachedContainer: AnyObject?
    /// The `Key` type of `cachedContainer`.
    @exclusivity(unchecked) private var cachedKeyType: ObjectIdentifier?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    init(row: Row, state: RecordDecodingState) {
        self.row = row
        self.state = state
        self.keyTable = state.keyTable
        self.sqliteStatement = nil
        reset(row)
    }

    /// Points the decoder at the next row.
    func reset(_ row: Row) {
        position = 0
        // Cursor rows are one live instance per statement: nothing to change from one step to the next.
        if row === self.row && sqliteStatement != nil { return }
        self.row = row
        if case .statement(let statement) = row.impl {
            sqliteStatement = statement.sqliteStatement
        } else {
            sqliteStatement = nil
        }
    }

    /// Ends the decoding of one record. A decoder that its state does not keep for the next rows drops its
    /// cached container, which refers back to it.
    @inline(__always)
    func finishDecoding() {
        isInUse = false
        if !isReusable { cachedContainer = nil }
    }

    /// Lets go of the current row, so that a decoding context kept with its statement does not keep the
    /// statement alive through the row.
    func detach(_ placeholder: Row) {
        row = placeholder
        sqliteStatement = nil
        position = 0
    }

    /// Drops the cached container, which refers back to this decoder (called when the state goes away).
    func dropCachedContainer() {
        cachedContainer = nil
        cachedKeyType = nil
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if let cachedContainer, cachedKeyType == ObjectIdentifier(Key.self) {
            // Stored below for this very Key type (`unsafeDowncast` checks it in debug builds).
            return unsafeDowncast(cachedContainer, to: CachedContainer<Key>.self).container
        }
        let container = KeyedDecodingContainer(KeyedContainer<Key>(decoder: self))
        cachedContainer = CachedContainer(container)
        cachedKeyType = ObjectIdentifier(Key.self)
        return container
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            state.recordType,
            .init(codingPath: [], debugDescription: "\(state.recordType) must decode its values from a keyed container")
        )
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            state.recordType,
            .init(codingPath: [], debugDescription: "\(state.recordType) must decode its values from a keyed container")
        )
    }

    // MARK: Column access

    @inline(__always)
    func index(of key: String) -> Int? {
        let current = position
        position = current + 1
        return keyTable.index(forKey: key, position: current)
    }

    @inline(__always)
    func requireIndex(of key: String) throws -> Int {
        if let index = index(of: key) { return index }
        throw RowDecodingError("column not found: \(key.debugDescription)", row: row, statement: nil)
    }

    @inline(__always)
    func isNull(at index: Int) -> Bool {
        if let sqliteStatement { return sqlite3_column_type(sqliteStatement, Int32(index)) == SQLITE_NULL }
        return row.databaseValue(atUncheckedIndex: index).isNull
    }

    /// A value that reads itself from SQLite on cursor rows.
    @inline(__always)
    func fastValue<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type, at index: Int) throws
        -> T
    {
        if let sqliteStatement {
            // Nil for NULL and failed conversions.
            if let value = T(sqliteStatement: sqliteStatement, index: Int32(index)) { return value }
        } else if let value = T.fromDatabaseValue(row.databaseValue(atUncheckedIndex: index)) {
            return value
        }
        throw conversionError(T.self, at: index)
    }

    /// An integer column, read with one SQLite call when the row is a cursor row (NULL reads as 0: checked then).
    @inline(__always)
    func int64<T>(forKey key: String, as type: T.Type) throws -> Int64 {
        let index = try requireIndex(of: key)
        if let sqliteStatement {
            let value = sqlite3_column_int64(sqliteStatement, Int32(index))
            if value != 0 || sqlite3_column_type(sqliteStatement, Int32(index)) != SQLITE_NULL { return value }
            throw conversionError(T.self, at: index)
        }
        return try fastValue(Int64.self, at: index)
    }

    /// A double column, read with one SQLite call when the row is a cursor row.
    @inline(__always)
    func double(forKey key: String) throws -> Double {
        let index = try requireIndex(of: key)
        if let sqliteStatement {
            let value = sqlite3_column_double(sqliteStatement, Int32(index))
            if value != 0 || sqlite3_column_type(sqliteStatement, Int32(index)) != SQLITE_NULL { return value }
            throw conversionError(Double.self, at: index)
        }
        return try fastValue(Double.self, at: index)
    }

    /// A text column, read with two SQLite calls when the row is a cursor row (`sqlite3_column_text` is nil for
    /// NULL).
    @inline(__always)
    func string(forKey key: String) throws -> String {
        let index = try requireIndex(of: key)
        if let sqliteStatement {
            if let text = sqlite3_column_text(sqliteStatement, Int32(index)) {
                let count = Int(sqlite3_column_bytes(sqliteStatement, Int32(index)))
                return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
            }
            throw conversionError(String.self, at: index)
        }
        return try fastValue(String.self, at: index)
    }

    @inline(__always)
    func fastOptional<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: T.Type, forKey key: some CodingKey
    )
        throws -> T?
    {
        guard let index = index(of: key.stringValue), !isNull(at: index) else { return nil }
        return try fastValue(T.self, at: index)
    }

    func conversionError<T>(_ type: T.Type, at index: Int) -> RowDecodingError {
        RowDecodingError.conversion(
            row.databaseValue(atUncheckedIndex: index), to: T.self, index: index, column: row.columnNames[index],
            row: row)
    }

    /// Decodes any Decodable value from a column.
    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int, key: some CodingKey) throws -> T {
        let column = row.columnNames[index]
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        if T.self == Date.self {
            guard let date = try decodeDate(dbValue, column: column) as? T else {
                throw conversionError(T.self, at: index)
            }
            return date
        }
        if T.self == Data.self {
            guard let data = decodeData(dbValue, column: column) as? T else { throw conversionError(T.self, at: index) }
            return data
        }
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            guard let value = convertible.fromDatabaseValue(dbValue) as? T else {
                throw conversionError(T.self, at: index)
            }
            return value
        }
        do {
            return try T(from: ColumnDecoder(dbValue: dbValue, column: column, codingPath: [key], decoder: self))
        } catch is JSONRequired {
            let data: Data
            switch dbValue.storage {
            case .string(let string): data = Data(string.utf8)
            case .blob(let blob): data = blob
            default: throw conversionError(T.self, at: index)
            }
            return try state.jsonDecoder(column).decode(T.self, from: data)
        }
    }

    func decodeDate(_ dbValue: DatabaseValue, column: String) throws -> Date? {
        switch state.dateStrategy(column) {
        case .deferredToDate: return Date.fromDatabaseValue(dbValue)
        case .timeIntervalSinceReferenceDate:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .timeIntervalSince1970: return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0) }
        case .millisecondsSince1970:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            return String.fromDatabaseValue(dbValue).flatMap { ISO8601DateFormatter().date(from: $0) }
        case .formatted(let formatter): return String.fromDatabaseValue(dbValue).flatMap { formatter.date(from: $0) }
        case .custom(let transform): return transform(dbValue)
        }
    }

    func decodeData(_ dbValue: DatabaseValue, column: String) -> Data? {
        switch state.dataStrategy(column) {
        case .deferredToData: return Data.fromDatabaseValue(dbValue)
        case .custom(let transform): return transform(dbValue)
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: RecordDecoder
        var codingPath: [any CodingKey] { [] }

        var allKeys: [Key] {
            decoder.keyTable.keyNames.compactMap { Key(stringValue: $0) }
        }

        func contains(_ key: Key) -> Bool {
            decoder.keyTable.index(forKey: key.stringValue, position: Int.max) != nil
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let index = decoder.keyTable.index(forKey: key.stringValue, position: Int.max) else { return true }
            return decoder.isNull(at: index)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try decoder.fastValue(Bool.self, at: decoder.requireIndex(of: key.stringValue))
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try decoder.string(forKey: key.stringValue)
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try decoder.double(forKey: key.stringValue)
        }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            try decoder.fastValue(Float.self, at: decoder.requireIndex(of: key.stringValue))
        }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            // Int is 64-bit on the platforms SubDB supports.
            Int(try decoder.int64(forKey: key.stringValue, as: Int.self))
        }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
            try decoder.fastValue(Int8.self, at: decoder.requireIndex(of: key.stringValue))
        }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
            try decoder.fastValue(Int16.self, at: decoder.requireIndex(of: key.stringValue))
        }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
            try decoder.fastValue(Int32.self, at: decoder.requireIndex(of: key.stringValue))
        }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            try decoder.int64(forKey: key.stringValue, as: Int64.self)
        }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
            try decoder.fastValue(UInt.self, at: decoder.requireIndex(of: key.stringValue))
        }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
            try decoder.fastValue(UInt8.self, at: decoder.requireIndex(of: key.stringValue))
        }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
            try decoder.fastValue(UInt16.self, at: decoder.requireIndex(of: key.stringValue))
        }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
            try decoder.fastValue(UInt32.self, at: decoder.requireIndex(of: key.stringValue))
        }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
            try decoder.fastValue(UInt64.self, at: decoder.requireIndex(of: key.stringValue))
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if decoder.row.associated != nil, let value = try decoder.associatedValue(T.self, forKey: key) {
                return value
            }
            let index = try decoder.requireIndex(of: key.stringValue)
            if decoder.isNull(at: index), !(T.self is any OptionalValue.Type) {
                throw decoder.conversionError(T.self, at: index)
            }
            return try decoder.decodeValue(T.self, at: index, key: key)
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            try decoder.fastOptional(Bool.self, forKey: key)
        }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            try decoder.fastOptional(String.self, forKey: key)
        }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            try decoder.fastOptional(Double.self, forKey: key)
        }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
            try decoder.fastOptional(Float.self, forKey: key)
        }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            try decoder.fastOptional(Int.self, forKey: key)
        }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
            try decoder.fastOptional(Int8.self, forKey: key)
        }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
            try decoder.fastOptional(Int16.self, forKey: key)
        }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
            try decoder.fastOptional(Int32.self, forKey: key)
        }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
            try decoder.fastOptional(Int64.self, forKey: key)
        }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
            try decoder.fastOptional(UInt.self, forKey: key)
        }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
            try decoder.fastOptional(UInt8.self, forKey: key)
        }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
            try decoder.fastOptional(UInt16.self, forKey: key)
        }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
            try decoder.fastOptional(UInt32.self, forKey: key)
        }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
            try decoder.fastOptional(UInt64.self, forKey: key)
        }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            if decoder.row.associated != nil, let value = try decoder.associatedOptionalValue(T.self, forKey: key) {
                return value
            }
            guard let index = decoder.index(of: key.stringValue), !decoder.isNull(at: index) else { return nil }
            return try decoder.decodeValue(T.self, at: index, key: key)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            // Flattened, as the encoder writes nested keyed values into columns of their own.
            KeyedDecodingContainer(KeyedContainer<NestedKey>(decoder: decoder))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                [Any].self, .init(codingPath: [key], debugDescription: "nested unkeyed containers are not supported"))
        }
        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }
}

/// Thrown by ``ColumnDecoder`` when a value asks for a keyed or unkeyed container: decode it from JSON instead.
struct JSONRequired: Error {}

/// Decodes a value that decodes itself from a single value (a Codable enum, a wrapper) from one column.
struct ColumnDecoder: Decoder, SingleValueDecodingContainer {
    let dbValue: DatabaseValue
    let column: String
    let codingPath: [any CodingKey]
    let decoder: RecordDecoder
    var userInfo: [CodingUserInfoKey: Any] { decoder.state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw JSONRequired()
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw JSONRequired() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { dbValue.isNull }

    private func convert<T: DatabaseValueConvertible>(_ type: T.Type) throws -> T {
        if let value = T.fromDatabaseValue(dbValue) { return value }
        throw DecodingError.typeMismatch(
            T.self,
            .init(
                codingPath: codingPath,
                debugDescription:
                    "could not decode \(T.self) from database value \(dbValue) - column: \(column.debugDescription)"))
    }

    func decode(_ type: Bool.Type) throws -> Bool { try convert(Bool.self) }
    func decode(_ type: String.Type) throws -> String { try convert(String.self) }
    func decode(_ type: Double.Type) throws -> Double { try convert(Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try convert(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try convert(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try convert(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try convert(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try convert(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try convert(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try convert(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try convert(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try convert(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try convert(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try convert(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self, let date = try decoder.decodeDate(dbValue, column: column) as? T { return date }
        if T.self == Data.self, let data = decoder.decodeData(dbValue, column: column) as? T { return data }
        if let convertible = T.self as? any DatabaseValueConvertible.Type,
            let value = convertible.fromDatabaseValue(dbValue) as? T
        {
            return value
        }
        return try T(from: self)
    }
}

/// A keyed container kept by a ``RecordDecoder`` for the next rows; a class, so that the decoder finds it again
/// with a checked class cast.
private final class CachedContainer<Key: CodingKey> {
    let container: KeyedDecodingContainer<Key>
    init(_ container: KeyedDecodingContainer<Key>) { self.container = container }
}
