import Foundation

/// The `Encoder` of Encodable records: writes each key straight into a ``PersistenceContainer``, no
/// intermediate dictionary. Nested values that need a keyed or unkeyed container are stored as JSON text.
final class RecordEncoder<Record: EncodableRecord>: Encoder {
    /// Only touched by the encoding thread: no dynamic exclusivity checks.
    @exclusivity(unchecked) var container = PersistenceContainer()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }
    let columnStrategy = Record.databaseColumnEncodingStrategy

    init() {}

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        // A record must encode keyed values; an unkeyed top level cannot map to columns.
        ThrowingUnkeyedContainer(codingPath: [], message: "\(Record.self) must encode its values in a keyed container")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        RecordSingleValueContainer(encoder: self)
    }

    @inline(__always)
    func column(for key: some CodingKey) -> String {
        if case .useDefaultKeys = columnStrategy { return key.stringValue }
        return columnStrategy.column(for: key)
    }

    @inline(__always)
    func set(_ value: DatabaseValue, _ key: some CodingKey) {
        container.setValue(value, forColumn: column(for: key))
    }

    /// Encodes any Encodable value in a column.
    func encode<T: Encodable>(_ value: T, forKey key: some CodingKey) throws {
        let column = column(for: key)
        if let date = value as? Date {
            try encodeDate(date, column: column)
        } else if let data = value as? Data {
            try encodeData(data, column: column)
        } else if let uuid = value as? UUID {
            switch Record.databaseUUIDEncodingStrategy(for: column) {
            case .deferredToUUID: container.setValue(uuid.databaseValue, forColumn: column)
            case .uppercaseString: container.setValue(uuid.uuidString.databaseValue, forColumn: column)
            case .lowercaseString: container.setValue(uuid.uuidString.lowercased().databaseValue, forColumn: column)
            }
        } else if let convertible = value as? any DatabaseValueConvertible {
            container.setValue(convertible.databaseValue, forColumn: column)
        } else {
            let encoder = ColumnEncoder(codingPath: [key])
            try value.encode(to: encoder)
            if encoder.needsJSON {
                let jsonEncoder = Record.databaseJSONEncoder(for: column)
                let json = try jsonEncoder.encode(value)
                guard let text = String(data: json, encoding: .utf8) else {
                    throw EncodingError.invalidValue(
                        value, .init(codingPath: [key], debugDescription: "JSON encoding did not produce UTF-8"))
                }
                container.setValue(text.databaseValue, forColumn: column)
            } else if let single = encoder.value {
                // A single value (a Codable enum's raw value, a wrapper): encode it again through the strategies.
                try encodeSingle(single, column: column, key: key)
            } else {
                container.setValue(.null, forColumn: column)
            }
        }
    }

    private func encodeSingle(_ value: ColumnEncoder.Single, column: String, key: some CodingKey) throws {
        switch value {
        case .value(let dbValue): container.setValue(dbValue, forColumn: column)
        case .date(let date): try encodeDate(date, column: column)
        case .data(let data): try encodeData(data, column: column)
        }
    }

    func encodeDate(_ date: Date, column: String) throws {
        switch Record.databaseDateEncodingStrategy(for: column).impl {
        case .deferredToDate: container.setValue(date.databaseValue, forColumn: column)
        case .timeIntervalSinceReferenceDate:
            container.setValue(date.timeIntervalSinceReferenceDate.databaseValue, forColumn: column)
        case .timeIntervalSince1970: container.setValue(date.timeIntervalSince1970.databaseValue, forColumn: column)
        case .millisecondsSince1970:
            container.setValue(
                Int64((date.timeIntervalSince1970 * 1000).rounded(.down)).databaseValue, forColumn: column)
        case .secondsSince1970:
            container.setValue(Int64(date.timeIntervalSince1970.rounded(.down)).databaseValue, forColumn: column)
        case .iso8601:
            container.setValue(ISO8601DateFormatter().string(from: date).databaseValue, forColumn: column)
        case .formatted(let formatter):
            container.setValue(formatter.string(from: date).databaseValue, forColumn: column)
        case .custom(let transform): container.setValue(transform(date)?.databaseValue ?? .null, forColumn: column)
        case .customContainer(let transform): try transform(date, &container)
        }
    }

    func encodeData(_ data: Data, column: String) throws {
        switch Record.databaseDataEncodingStrategy(for: column).impl {
        case .deferredToData: container.setValue(data.databaseValue, forColumn: column)
        case .text:
            guard let string = String(data: data, encoding: .utf8) else {
                throw EncodingError.invalidValue(
                    data, .init(codingPath: [], debugDescription: "column \(column): data is not valid UTF-8"))
            }
            container.setValue(string.databaseValue, forColumn: column)
        case .custom(let transform): container.setValue(transform(data)?.databaseValue ?? .null, forColumn: column)
        case .customContainer(let transform): try transform(data, &container)
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: RecordEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { encoder.set(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.set(value.databaseValue, key) }
        mutating func encode(_ value: String, forKey key: Key) throws {
            encoder.set(DatabaseValue(storage: .string(value)), key)
        }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            encoder.set(DatabaseValue(storage: .double(value)), key)
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            encoder.set(DatabaseValue(storage: .double(Double(value))), key)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            encoder.set(DatabaseValue(storage: .int64(Int64(value))), key)
        }
        mutating func encode(_ value: Int8, forKey key: Key) throws {
            encoder.set(DatabaseValue(storage: .int64(Int64(value))), key)
        }
        mutating func encode(_ value: Int16, forKey key: Key) throws {
            encoder.set(DatabaseValue(storage: .int64(Int64(value))), key)
        }
        mutating func encode(_ value: Int32, forKey key: Key) throws {
            encoder.set(DatabaseValue(storage: .int64(Int64(value))), key)
        }
        mutating func encode(_ value: Int64, forKey key: Key) throws {
            encoder.set(DatabaseValue(storage: .int64(value)), key)
        }
        mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.set(value.databaseValue, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.set(value.databaseValue, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.set(value.databaseValue, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.set(value.databaseValue, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.set(value.databaseValue, key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try encoder.encode(value, forKey: key)
        }

        // nil optionals are stored as NULL, not skipped, so that inserts and updates write every column.
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            // Flattened: nested keys become columns of their own.
            KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            ThrowingUnkeyedContainer(codingPath: [key], message: "nested unkeyed containers are not supported")
        }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }
}

/// A top-level single value: a record that encodes itself as one value has no column to go to.
struct RecordSingleValueContainer<Record: EncodableRecord>: SingleValueEncodingContainer {
    let encoder: RecordEncoder<Record>
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws { try fail() }
    mutating func encode(_ value: some Encodable) throws { try fail() }
    private func fail() throws -> Never {
        throw EncodingError.invalidValue(
            Record.self,
            .init(codingPath: [], debugDescription: "\(Record.self) must encode its values in a keyed container"))
    }
}

/// An unkeyed container that cannot hold values: every write throws.
struct ThrowingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey]
    let message: String
    var count: Int { 0 }
    private func fail() -> EncodingError {
        EncodingError.invalidValue((), .init(codingPath: codingPath, debugDescription: message))
    }
    mutating func encodeNil() throws { throw fail() }
    mutating func encode(_ value: some Encodable) throws { throw fail() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { ColumnEncoder(codingPath: codingPath) }
}

/// Probes how a column value encodes itself: as one value (stored as is) or as a container (stored as JSON).
final class ColumnEncoder: Encoder {
    enum Single {
        case value(DatabaseValue)
        case date(Date)
        case data(Data)
    }
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var needsJSON = false
    var value: Single?

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        needsJSON = true
        return KeyedEncodingContainer(DiscardingKeyedContainer<Key>(codingPath: codingPath))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        needsJSON = true
        return DiscardingUnkeyedContainer(codingPath: codingPath)
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueProbe(encoder: self) }

    struct SingleValueProbe: SingleValueEncodingContainer {
        let encoder: ColumnEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        mutating func encodeNil() throws { encoder.value = .value(.null) }
        mutating func encode(_ value: some Encodable) throws {
            switch value {
            case let date as Date: encoder.value = .date(date)
            case let data as Data: encoder.value = .data(data)
            case let convertible as any DatabaseValueConvertible: encoder.value = .value(convertible.databaseValue)
            default:
                let nested = ColumnEncoder(codingPath: codingPath)
                try value.encode(to: nested)
                if nested.needsJSON { encoder.needsJSON = true } else { encoder.value = nested.value }
            }
        }
    }
}

/// A keyed container that drops its values: used while probing a value that will be stored as JSON.
struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey]
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: some Encodable, forKey key: Key) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        DiscardingUnkeyedContainer(codingPath: codingPath)
    }
    mutating func superEncoder() -> any Encoder { ColumnEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ColumnEncoder(codingPath: codingPath) }
}

/// An unkeyed container that drops its values.
struct DiscardingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey]
    var count: Int = 0
    mutating func encodeNil() throws { count += 1 }
    mutating func encode(_ value: some Encodable) throws { count += 1 }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { ColumnEncoder(codingPath: codingPath) }
}
