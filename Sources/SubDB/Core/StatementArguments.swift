import Foundation

/// The values bound to the `?`, `:name`, `$name` and `@name` parameters of a statement.
///
///     try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 1000])
///     try db.execute(sql: "UPDATE player SET score = :score WHERE id = :id", arguments: ["score": 1000, "id": 1])
///
/// Positional values fill `?` parameters, and named parameters absent from the dictionary, from left to right.
/// A wrong number of values, or a missing name, throws a ``DatabaseError`` with code `SQLITE_MISUSE`.
public struct StatementArguments: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// Positional values.
    public var values: [DatabaseValue]
    /// Named values, keyed by name without the `:`, `$` or `@` prefix.
    public var namedValues: [String: DatabaseValue]

    /// Positional values (the spelling the query interface uses).
    var subdbValues: [DatabaseValue] { values }

    /// No arguments.
    public init() {
        values = []
        namedValues = [:]
    }

    /// Positional arguments from a sequence of values.
    public init<S: Sequence>(_ sequence: S) where S.Element == (any DatabaseValueConvertible)? {
        values = sequence.map { $0?.databaseValue ?? .null }
        namedValues = [:]
    }

    /// Positional arguments from a sequence of values of one type.
    public init<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
        values = sequence.map { $0.databaseValue }
        namedValues = [:]
    }

    /// Positional arguments from database values.
    public init(_ values: [DatabaseValue]) {
        self.values = values
        namedValues = [:]
    }

    /// Named arguments from a dictionary.
    public init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        values = []
        namedValues = dictionary.mapValues { $0?.databaseValue ?? .null }
    }

    /// `["Arthur", 1000, nil]`
    @inlinable
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        // Read the existentials in place: copying them costs more than the conversion.
        var values = [DatabaseValue]()
        values.reserveCapacity(elements.count)
        elements.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                values.append(buffer[index]?.databaseValue ?? .null)
            }
        }
        self.values = values
        namedValues = [:]
    }

    /// `["name": "Arthur", "score": 1000]`
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        values = []
        namedValues = Dictionary(elements.map { ($0.0, $0.1?.databaseValue ?? .null) }, uniquingKeysWith: { $1 })
    }

    /// True when there are neither positional nor named values.
    public var isEmpty: Bool { values.isEmpty && namedValues.isEmpty }

    /// Appends the positional values of `other` and merges its named values (`other` wins on a name clash).
    public mutating func append(contentsOf other: StatementArguments) {
        values.append(contentsOf: other.values)
        namedValues.merge(other.namedValues) { $1 }
    }

    /// Concatenated arguments.
    public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result.append(contentsOf: rhs)
        return result
    }

    /// Appends `rhs` to `lhs`.
    public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
        lhs.append(contentsOf: rhs)
    }

    /// `["Arthur", 1000]` or `[name:"Arthur"]`.
    public var description: String {
        let positional = values.map(\.description)
        let named = namedValues.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
        return "[" + (positional + named).joined(separator: ", ") + "]"
    }
}
