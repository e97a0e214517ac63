import Foundation

/// SQL built with string interpolation: interpolated values become statement arguments, never SQL text.
///
///     let name = "O'Brien"
///     try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(550))")
///     // INSERT INTO player (name, score) VALUES (?, ?) with arguments ["O'Brien", 550]
///
///     let order: SQL = "ORDER BY \(sql: "score DESC")"   // raw SQL, inserted as is
public struct SQL: ExpressibleByStringInterpolation, Sendable, CustomStringConvertible {
    enum Element: Sendable {
        case sql(String, StatementArguments)
        case argument(DatabaseValue)
    }

    var elements: [Element]

    /// Raw SQL with optional arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements = [.sql(sql, arguments)]
    }

    /// Raw SQL from a literal without interpolation.
    public init(stringLiteral value: String) {
        elements = [.sql(value, StatementArguments())]
    }

    /// SQL from an interpolated literal.
    public init(stringInterpolation: StringInterpolation) {
        elements = stringInterpolation.elements
    }

    /// The SQL text and its arguments.
    public func build() -> (sql: String, arguments: StatementArguments) {
        var sql = ""
        var arguments = StatementArguments()
        for element in elements {
            switch element {
            case .sql(let text, let elementArguments):
                sql += text
                arguments += elementArguments
            case .argument(let value):
                sql += "?"
                arguments.values.append(value)
            }
        }
        return (sql, arguments)
    }

    /// The SQL text with `?` placeholders.
    public var description: String { build().sql }

    /// Appends raw SQL or another literal.
    public mutating func append(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    /// Appends another literal.
    public mutating func append(literal: SQL) {
        elements.append(contentsOf: literal.elements)
    }

    /// Concatenates two literals.
    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        var result = lhs
        result.append(literal: rhs)
        return result
    }

    /// Collects the pieces of an interpolated literal.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var elements: [Element] = []

        /// Reserves space for the pieces.
        public init(literalCapacity: Int, interpolationCount: Int) {
            elements.reserveCapacity(interpolationCount * 2 + 1)
        }

        /// Literal SQL text.
        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { elements.append(.sql(literal, StatementArguments())) }
        }

        /// A value, bound as an argument (`?`); nil binds NULL.
        public mutating func appendInterpolation<V: DatabaseValueConvertible>(_ value: V?) {
            elements.append(.argument(value?.databaseValue ?? .null))
        }

        /// A value of unknown type, bound as an argument; nil binds NULL.
        @_disfavoredOverload
        public mutating func appendInterpolation(_ value: (any DatabaseValueConvertible)?) {
            elements.append(.argument(value?.databaseValue ?? .null))
        }

        /// Raw SQL, inserted as is, with optional arguments: `\(sql: "score DESC")`.
        public mutating func appendInterpolation(sql: String, arguments: StatementArguments = StatementArguments()) {
            elements.append(.sql(sql, arguments))
        }

        /// Another literal, inserted with its arguments.
        public mutating func appendInterpolation(_ literal: SQL) {
            elements.append(contentsOf: literal.elements)
        }

        /// Raw SQL pieces, for extensions of this interpolation (columns, tables).
        public mutating func appendRawSQL(_ sql: String, arguments: StatementArguments = StatementArguments()) {
            elements.append(.sql(sql, arguments))
        }
    }
}
