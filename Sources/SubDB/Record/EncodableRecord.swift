import Foundation

/// A type that can write its values into a ``PersistenceContainer``. Encodable types get it for free.
///
///     struct Player: Encodable, EncodableRecord { var id: Int64?; var name: String }
///     let container = try Player(id: nil, name: "Arthur").databaseDictionary
public protocol EncodableRecord {
    /// Writes the record's column values.
    func encode(to container: inout PersistenceContainer) throws

    /// User info for the `Encoder` of Encodable records.
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The JSON encoder for nested values and collections stored as JSON text.
    static func databaseJSONEncoder(for column: String) -> JSONEncoder

    /// How coding keys map to column names.
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { get }

    /// How `Date` properties are stored, for all columns.
    static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { get }

    /// How `Date` properties are stored, per column; by default `databaseDateEncodingStrategy`.
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy

    /// How `Data` properties are stored, for all columns.
    static var databaseDataEncodingStrategy: DatabaseDataEncodingStrategy { get }

    /// How `Data` properties are stored, per column; by default `databaseDataEncodingStrategy`.
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy

    /// How `UUID` properties are stored, for all columns.
    static var databaseUUIDEncodingStrategy: DatabaseUUIDEncodingStrategy { get }

    /// How `UUID` properties are stored, per column; by default `databaseUUIDEncodingStrategy`.
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy
}

extension EncodableRecord {
    /// No user info.
    public static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    /// A `JSONEncoder` with sorted keys, `.millisecondsSince1970` dates and `.base64` data, as GRDB uses.
    public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        encoder.outputFormatting = .sortedKeys
        for (key, value) in databaseEncodingUserInfo { encoder.userInfo[key] = sendableUserInfoValue(value) }
        return encoder
    }

    /// Column names are coding keys.
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .useDefaultKeys }
    /// `.deferredToDate`.
    public static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { .deferredToDate }
    /// `databaseDateEncodingStrategy`.
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        databaseDateEncodingStrategy
    }
    /// `.deferredToData`.
    public static var databaseDataEncodingStrategy: DatabaseDataEncodingStrategy { .deferredToData }
    /// `databaseDataEncodingStrategy`.
    public static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        databaseDataEncodingStrategy
    }
    /// `.deferredToUUID`.
    public static var databaseUUIDEncodingStrategy: DatabaseUUIDEncodingStrategy { .deferredToUUID }
    /// `databaseUUIDEncodingStrategy`.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        databaseUUIDEncodingStrategy
    }

    /// The encoded values as a dictionary.
    public var databaseDictionary: [String: DatabaseValue] {
        get throws {
            let container = try persistenceContainer()
            return Dictionary(zip(container.columns, container.databaseValues), uniquingKeysWith: { $1 })
        }
    }

    /// The encoded values.
    func persistenceContainer() throws -> PersistenceContainer {
        var container = PersistenceContainer(minimumCapacity: 8)
        try encode(to: &container)
        return container
    }

    /// Whether the record has different values than another one (compared on the other's columns).
    public func databaseEquals(_ record: Self) throws -> Bool {
        try databaseChanges(from: record).isEmpty
    }

    /// The columns whose values differ from `record`, with the old values.
    public func databaseChanges(from record: some EncodableRecord) throws -> [String: DatabaseValue] {
        let new = try persistenceContainer()
        let old = try record.persistenceContainer()
        var changes: [String: DatabaseValue] = [:]
        for (column, newValue) in zip(new.columns, new.databaseValues) {
            let oldValue = old.databaseValue(caseInsensitive: column)
            if oldValue != newValue { changes[column] = oldValue ?? .null }
        }
        return changes
    }
}

extension EncodableRecord where Self: Encodable {
    /// Encodes the record through its `Encodable` conformance: coding keys become columns.
    public func encode(to container: inout PersistenceContainer) throws {
        let encoder = RecordEncoder<Self>()
        swap(&encoder.container, &container)
        defer { swap(&encoder.container, &container) }
        try encode(to: encoder)
    }
}
