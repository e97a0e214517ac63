/// A valid FTS5 full-text query, for `matching(_:)` and `MATCH ?` arguments.
///
///     let pattern = try FTS5Pattern(rawPattern: "sqlite AND database")
///     let books = try Book.matching(pattern).fetchAll(db)
///     try FTS5Pattern(rawPattern: "AND")   // throws: SQLite error 1: fts5: syntax error near "AND"
///     FTS5Pattern(matchingAllTokensIn: "SQLite database")   // sqlite database
///     FTS5Pattern(matchingAllTokensIn: "...")              // nil: no token
public struct FTS5Pattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern text, valid FTS5 query syntax.
    public let rawPattern: String

    /// Validates a raw pattern against SQLite itself (a temporary in-memory FTS5 table), as GRDB does.
    /// Patterns that name columns need those columns in `allowedColumns`.
    ///
    /// - throws: a ``DatabaseError`` with SQLite's message when the syntax is invalid.
    public init(rawPattern: String, allowedColumns: [String] = []) throws {
        try FTS5PatternValidator.validate(rawPattern, allowedColumns: allowedColumns)
        self.rawPattern = rawPattern
    }

    private init(validated rawPattern: String) { self.rawPattern = rawPattern }

    /// Matches rows that contain any token of `string`: `foo OR bar`; nil when there is no token.
    public init?(matchingAnyTokenIn string: String) {
        guard let pattern = Self.build(string, { $0.joined(separator: " OR ") }) else { return nil }
        self = pattern
    }

    /// Matches rows that contain all tokens of `string`: `foo bar`; nil when there is no token.
    public init?(matchingAllTokensIn string: String) {
        guard let pattern = Self.build(string, { $0.joined(separator: " ") }) else { return nil }
        self = pattern
    }

    /// Matches rows with tokens starting with each token of `string`: `foo* bar*`; nil when there is no token.
    public init?(matchingAllPrefixesIn string: String) {
        guard let pattern = Self.build(string, { $0.map { "\($0)*" }.joined(separator: " ") }) else { return nil }
        self = pattern
    }

    /// Matches the tokens of `string` as a contiguous phrase: `"foo bar"`; nil when there is no token.
    public init?(matchingPhrase string: String) {
        guard let pattern = Self.build(string, { "\"" + $0.joined(separator: " ") + "\"" }) else { return nil }
        self = pattern
    }

    /// Matches documents that start with the phrase: `^"foo bar"`; nil when there is no token.
    public init?(matchingPrefixPhrase string: String) {
        guard let pattern = Self.build(string, { "^\"" + $0.joined(separator: " ") + "\"" }) else { return nil }
        self = pattern
    }

    private static func build(_ string: String, _ makePattern: ([String]) -> String) -> FTS5Pattern? {
        guard let tokens = try? queryTokens(string), !tokens.isEmpty else { return nil }
        let raw = makePattern(tokens)
        guard (try? FTS5PatternValidator.validate(raw, allowedColumns: [])) != nil else { return nil }
        return FTS5Pattern(validated: raw)
    }

    /// The words of user input, as GRDB splits them: the `ascii` tokenizer of a query, which drops FTS5's syntax
    /// characters and lower-cases ASCII letters only. It keeps diacritics and other non-ASCII text as they are, so
    /// that the table's own tokenizer decides at `MATCH` time (`unicode61(diacritics: .keep)` must still see `é`).
    private static func queryTokens(_ string: String) throws -> [String] {
        try DatabaseQueue().inDatabase { db in
            try db.makeTokenizer(.ascii()).tokenize(string, for: .query)
                .compactMap { $0.flags.contains(.colocated) ? nil : $0.token }
        }
    }

    /// The raw pattern.
    public var description: String { rawPattern }
}

extension FTS5Pattern: DatabaseValueConvertible {
    /// The raw pattern as text.
    public var databaseValue: DatabaseValue { rawPattern.databaseValue }

    /// A pattern from valid text, nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS5Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS5Pattern(rawPattern: $0) }
    }
}

extension Database {
    /// A pattern validated against the columns of an FTS5 table: `makeFTS5Pattern(rawPattern: "title: sql", forTable: "book")`.
    public func makeFTS5Pattern(rawPattern: String, forTable table: String) throws -> FTS5Pattern {
        try FTS5Pattern(rawPattern: rawPattern, allowedColumns: columns(in: table).map(\.name))
    }
}

extension FTS5 {
    /// The tokens of `string` as the `unicode61` tokenizer of a query sees them (lower-cased, without
    /// diacritics), in order. Uses SQLite itself, through an `fts5vocab` table.
    public static func tokenize(_ string: String, tokenizer: FTS5TokenizerDescriptor = .unicode61()) throws -> [String]
    {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.inDatabase { db in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = tokenizer
                t.column("content")
            }
            try db.execute(sql: "CREATE VIRTUAL TABLE vocabulary USING fts5vocab(document, instance)")
            try db.execute(sql: "INSERT INTO document(content) VALUES (?)", arguments: [string])
            return try String.fetchAll(db, sql: "SELECT term FROM vocabulary ORDER BY \"offset\"")
        }
    }
}

/// Validates patterns with SQLite: a statement that matches against an invalid pattern fails on its first step.
enum FTS5PatternValidator {
    static func validate(_ rawPattern: String, allowedColumns: [String]) throws {
        do {
            let dbQueue = try DatabaseQueue()
            try dbQueue.inDatabase { db in
                try db.create(virtualTable: "document", using: FTS5()) { t in
                    if allowedColumns.isEmpty {
                        t.column("__subdb__")
                    } else {
                        for column in allowedColumns { t.column(column) }
                    }
                }
                _ = try Row.fetchOne(db, sql: "SELECT * FROM document WHERE document MATCH ?", arguments: [rawPattern])
            }
        } catch let error as DatabaseError {
            // Keep SQLite's message, drop the private validation SQL.
            throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
        }
    }
}
