import Foundation

/// A type that can be built from a database row. Decodable types get `init(row:)` for free.
///
///     struct Player: Decodable, FetchableRecord { var id: Int64; var name: String }
///     let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
public protocol FetchableRecord {
    /// Creates a record from a row.
    init(row: Row) throws

    /// User info for the `Decoder` of Decodable records.
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The JSON decoder for nested values and collections stored as JSON text.
    static func databaseJSONDecoder(for column: String) -> JSONDecoder

    /// How column names map to coding keys.
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { get }

    /// How `Date` properties are decoded, for all columns.
    static var databaseDateDecodingStrategy: DatabaseDateDecodingStrategy { get }

    /// How `Date` properties are decoded, per column; by default `databaseDateDecodingStrategy`.
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy

    /// How `Data` properties are decoded, for all columns.
    static var databaseDataDecodingStrategy: DatabaseDataDecodingStrategy { get }

    /// How `Data` properties are decoded, per column; by default `databaseDataDecodingStrategy`.
    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy
}

extension FetchableRecord {
    /// No user info.
    public static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    /// A `JSONDecoder` with `.millisecondsSince1970` dates and `.base64` data, as GRDB uses.
    public static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .throw
        for (key, value) in databaseDecodingUserInfo { decoder.userInfo[key] = sendableUserInfoValue(value) }
        return decoder
    }

    /// Coding keys are column names.
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .useDefaultKeys }

    /// `.deferredToDate`.
    public static var databaseDateDecodingStrategy: DatabaseDateDecodingStrategy { .deferredToDate }

    /// `databaseDateDecodingStrategy`.
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        databaseDateDecodingStrategy
    }

    /// `.deferredToData`.
    public static var databaseDataDecodingStrategy: DatabaseDataDecodingStrategy { .deferredToData }

    /// `databaseDataDecodingStrategy`.
    public static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        databaseDataDecodingStrategy
    }
}
