import Foundation

/// How Codable records turn their coding keys into column names when encoding.
///
///     static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
public enum DatabaseColumnEncodingStrategy: Sendable {
    /// Column names are the coding keys.
    case useDefaultKeys
    /// `playerID` is stored in `player_id`, as `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase` does.
    case convertToSnakeCase
    /// Column names come from your function.
    case custom(@Sendable (any CodingKey) -> String)

    func column(for key: some CodingKey) -> String {
        switch self {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return CodingKeyConversion.snakeCase(key.stringValue)
        case .custom(let transform): return transform(key)
        }
    }
}

/// How Codable records turn column names into coding keys when decoding.
///
///     static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
public enum DatabaseColumnDecodingStrategy: Sendable {
    /// Coding keys are the column names.
    case useDefaultKeys
    /// The `player_id` column decodes the `playerId` key, as `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`.
    case convertFromSnakeCase
    /// Coding keys come from your function, given a column name.
    case custom(@Sendable (String) -> any CodingKey)

    func key(forColumn column: String) -> String {
        switch self {
        case .useDefaultKeys: return column
        case .convertFromSnakeCase: return CodingKeyConversion.camelCase(column)
        case .custom(let transform): return transform(column).stringValue
        }
    }
}

/// How Codable records store `Date` properties.
///
///     static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
///         .timeIntervalSince1970
///     }
public struct DatabaseDateEncodingStrategy: Sendable {
    enum Impl: @unchecked Sendable {
        case deferredToDate
        case timeIntervalSinceReferenceDate
        case timeIntervalSince1970
        case millisecondsSince1970
        case secondsSince1970
        case iso8601
        case formatted(DateFormatter)
        case custom(@Sendable (Date) -> (any DatabaseValueConvertible)?)
        case customContainer(@Sendable (Date, inout PersistenceContainer) throws -> Void)
    }
    let impl: Impl

    /// The default: `YYYY-MM-DD HH:MM:SS.SSS` text in UTC.
    public static let deferredToDate = Self(impl: .deferredToDate)
    /// A double: seconds since 2001-01-01 00:00:00 UTC.
    public static let timeIntervalSinceReferenceDate = Self(impl: .timeIntervalSinceReferenceDate)
    /// A double: seconds since 1970-01-01 00:00:00 UTC.
    public static let timeIntervalSince1970 = Self(impl: .timeIntervalSince1970)
    /// An integer: milliseconds since 1970-01-01 00:00:00 UTC, rounded down.
    public static let millisecondsSince1970 = Self(impl: .millisecondsSince1970)
    /// An integer: seconds since 1970-01-01 00:00:00 UTC, rounded down.
    public static let secondsSince1970 = Self(impl: .secondsSince1970)
    /// ISO-8601 text, such as `2026-11-29T19:00:00Z`.
    public static let iso8601 = Self(impl: .iso8601)
    /// Text from a date formatter.
    public static func formatted(_ formatter: DateFormatter) -> Self { Self(impl: .formatted(formatter)) }
    /// A value from your function; nil stores NULL.
    public static func custom(_ encode: @escaping @Sendable (Date) -> (any DatabaseValueConvertible)?) -> Self {
        Self(impl: .custom(encode))
    }
    /// Your function writes the date into the container itself.
    public static func custom(_ encode: @escaping @Sendable (Date, inout PersistenceContainer) throws -> Void) -> Self {
        Self(impl: .customContainer(encode))
    }
}

/// How Codable records decode `Date` properties.
///
///     static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
///         .timeIntervalSince1970
///     }
public enum DatabaseDateDecodingStrategy: @unchecked Sendable {
    /// The default: every SQLite date format, and numbers as seconds since 1970.
    case deferredToDate
    /// A number of seconds since 2001-01-01 00:00:00 UTC.
    case timeIntervalSinceReferenceDate
    /// A number of seconds since 1970-01-01 00:00:00 UTC.
    case timeIntervalSince1970
    /// A number of milliseconds since 1970-01-01 00:00:00 UTC.
    case millisecondsSince1970
    /// ISO-8601 text.
    case iso8601
    /// Text parsed by a date formatter.
    case formatted(DateFormatter)
    /// Your function; nil is a decoding error.
    case custom(@Sendable (DatabaseValue) -> Date?)
}

/// How Codable records store `Data` properties.
public struct DatabaseDataEncodingStrategy: Sendable {
    enum Impl: Sendable {
        case deferredToData
        case text
        case custom(@Sendable (Data) -> (any DatabaseValueConvertible)?)
        case customContainer(@Sendable (Data, inout PersistenceContainer) throws -> Void)
    }
    let impl: Impl

    /// The default: a blob.
    public static let deferredToData = Self(impl: .deferredToData)
    /// UTF-8 text; invalid UTF-8 is an encoding error.
    public static let text = Self(impl: .text)
    /// A value from your function; nil stores NULL.
    public static func custom(_ encode: @escaping @Sendable (Data) -> (any DatabaseValueConvertible)?) -> Self {
        Self(impl: .custom(encode))
    }
    /// Your function writes the data into the container itself: `container[column] = data.base64EncodedString()`.
    public static func custom(_ encode: @escaping @Sendable (Data, inout PersistenceContainer) throws -> Void) -> Self {
        Self(impl: .customContainer(encode))
    }
}

/// How Codable records decode `Data` properties.
public enum DatabaseDataDecodingStrategy: Sendable {
    /// The default: blobs, and text as its UTF-8 bytes.
    case deferredToData
    /// Your function; nil is a decoding error.
    case custom(@Sendable (DatabaseValue) -> Data?)
}

/// How Codable records store `UUID` properties.
public enum DatabaseUUIDEncodingStrategy: Sendable {
    /// The default: a 16-byte blob.
    case deferredToUUID
    /// Upper-case text: `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    case uppercaseString
    /// Lower-case text: `e621e1f8-c36c-495a-93fc-0c247a3e6e5f`.
    case lowercaseString
}

/// Key conversions shared by the column strategies.
enum CodingKeyConversion {
    /// `playerID` → `player_id`, following `JSONEncoder`'s rules.
    static func snakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchRange = key.index(after: wordStart)..<key.endIndex
        while let upperCaseRange = key.rangeOfCharacter(from: .uppercaseLetters, options: [], range: searchRange) {
            let untilUpperCase = wordStart..<upperCaseRange.lowerBound
            words.append(untilUpperCase)
            searchRange = upperCaseRange.lowerBound..<searchRange.upperBound
            guard let lowerCaseRange = key.rangeOfCharacter(from: .lowercaseLetters, options: [], range: searchRange)
            else {
                wordStart = searchRange.lowerBound
                break
            }
            let nextCharacterAfterCapital = key.index(after: upperCaseRange.lowerBound)
            if lowerCaseRange.lowerBound == nextCharacterAfterCapital {
                wordStart = upperCaseRange.lowerBound
            } else {
                let beforeLowerIndex = key.index(before: lowerCaseRange.lowerBound)
                words.append(upperCaseRange.lowerBound..<beforeLowerIndex)
                wordStart = beforeLowerIndex
            }
            searchRange = lowerCaseRange.upperBound..<searchRange.upperBound
        }
        words.append(wordStart..<searchRange.upperBound)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
    }

    /// `player_id` → `playerId`, following `JSONDecoder`'s rules (leading and trailing underscores kept).
    static func camelCase(_ column: String) -> String {
        guard !column.isEmpty, let firstNonUnderscore = column.firstIndex(where: { $0 != "_" }) else { return column }
        var lastNonUnderscore = column.index(before: column.endIndex)
        while lastNonUnderscore > firstNonUnderscore && column[lastNonUnderscore] == "_" {
            column.formIndex(before: &lastNonUnderscore)
        }
        let keyRange = firstNonUnderscore...lastNonUnderscore
        let leading = column[column.startIndex..<firstNonUnderscore]
        let trailing = column[column.index(after: lastNonUnderscore)..<column.endIndex]
        let components = column[keyRange].split(separator: "_")
        guard components.count > 1 else { return column }
        let joined = String(components[0]).lowercased() + components.dropFirst().map { $0.capitalized }.joined()
        return String(leading) + joined + String(trailing)
    }
}

/// A user info value handed to `JSONEncoder`/`JSONDecoder`, whose `userInfo` wants Sendable values.
/// Records declare their user info as `[CodingUserInfoKey: Any]`, as GRDB does.
/// `Sendable` is a marker protocol: `any Sendable` has the same layout as `Any`, and the coders only read
/// the values on the calling thread.
func sendableUserInfoValue(_ value: Any) -> any Sendable {
    unsafeBitCast(value, to: (any Sendable).self)
}
