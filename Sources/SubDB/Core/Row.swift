internal import CSQLite
import Foundation

// Fetch entry points for other layers (records, query interface), all taking a compiled `Statement` or SQL:
//
//   Row.fetchCursor(db, sql:arguments:) / Row.fetchCursor(statement, arguments:) -> RowCursor
//       `next()` returns the SAME live `Row` at each step: a view over the running statement, read with
//       `sqlite3_column_*`, no copy. Decode it inside the loop (`Player(row: row)`), or `row.copy()` to keep it.
//   Row.fetchAll / fetchSet / fetchOne(...)          -> independent rows (copies).
//   V.fetchCursor / fetchAll / fetchSet / fetchOne   -> values of the leftmost column, for any
//       DatabaseValueConvertible V (DatabaseValueCursor<V>); StatementColumnConvertible types take the fast
//       path (FastDatabaseValueCursor<V>). `Optional<V>.fetchOne` returns `V??` (nil: no row, .some(nil): NULL).
//   db.cachedStatement(sql:)                         -> a reusable compiled statement (what the fetch methods use).
//
// A record layer fetches with:  let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
//                               while let row = try rows.next() { records.append(try Record(row: row)) }

/// A database row: column names and values, with case-insensitive access by name.
///
///     let row = try Row.fetchOne(db, sql: "SELECT id, name FROM player WHERE id = ?", arguments: [1])!
///     let id: Int64 = row["id"]
///     let name: String = row[1]
///     let nickname: String? = row["nickname"]   // nil: NULL or missing column
///
/// Non-optional subscripts treat NULL, a missing column and a failed conversion as programmer errors and stop
/// the program, as GRDB does; use `decode(_:atIndex:)`/`decode(_:forColumn:)` or an optional type to handle
/// untrusted data.
public final class Row {
    @usableFromInline
    enum Impl {
        /// Copied values.
        case values(ContiguousArray<DatabaseValue>)
        /// Values in a block shared by the rows of one `fetchAll`, from `offset` on.
        case block(RowBlock, offset: Int)
        /// A view over the current step of a statement (rows of a ``RowCursor``).
        case statement(Statement)
    }

    @usableFromInline let layout: RowLayout
    @usableFromInline let impl: Impl
    /// The `sqlite3_stmt *` of a live row, nil for copied rows: the fast path of the subscripts.
    @usableFromInline let liveStatement: OpaquePointer?
    /// The number of columns.
    public let count: Int
    /// Rows of associated records (`scopes`, `prefetchedRows`), set by association requests (Association/).
    var associated: RowAssociatedData?
    /// False for rows built by hand (`Row(["id": 1])`), true for rows read from the database and their copies:
    /// a ``Record`` takes only fetched rows as its reference for changes, as in GRDB.
    let isFetched: Bool

    init(layout: RowLayout, values: ContiguousArray<DatabaseValue>, isFetched: Bool = true) {
        self.layout = layout
        self.impl = .values(values)
        self.liveStatement = nil
        self.count = layout.names.count
        self.isFetched = isFetched
    }

    init(block: RowBlock, offset: Int) {
        self.layout = block.layout
        self.impl = .block(block, offset: offset)
        self.liveStatement = nil
        self.count = block.layout.names.count
        self.isFetched = true
    }

    /// A live view over the statement's current row.
    init(statement: Statement) {
        self.layout = statement.layout
        self.impl = .statement(statement)
        self.liveStatement = statement.sqliteStatement
        self.count = statement.layout.names.count
        self.isFetched = true
    }

    /// A copy of the statement's current row.
    init(copying statement: Statement) {
        let count = statement.columnCount
        var values = ContiguousArray<DatabaseValue>()
        values.reserveCapacity(count)
        let sqliteStatement = statement.sqliteStatement
        for index in 0..<Int32(count) {
            values.append(DatabaseValue(sqliteStatement: sqliteStatement, index: index))
        }
        self.layout = statement.layout
        self.impl = .values(values)
        self.liveStatement = nil
        self.count = count
        self.isFetched = true
    }

    /// An empty row.
    public convenience init() {
        self.init(layout: RowLayout(names: []), values: [], isFetched: false)
    }

    /// A row from column names and values, in order.
    public convenience init(columnNames: [String], databaseValues: [DatabaseValue]) {
        precondition(columnNames.count == databaseValues.count, "Row: as many column names as values")
        self.init(layout: RowLayout(names: columnNames), values: ContiguousArray(databaseValues), isFetched: false)
    }

    /// A row from a dictionary (column order follows the dictionary's).
    ///
    ///     let row = Row(["name": "foo", "date": nil])
    public convenience init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        self.init(
            columnNames: Array(dictionary.keys),
            databaseValues: dictionary.values.map { $0?.databaseValue ?? .null })
    }

    /// A row from an untyped dictionary, or nil when a key is not a string or a value is not convertible.
    public convenience init?(_ dictionary: [AnyHashable: Any]) {
        var names: [String] = []
        var values: [DatabaseValue] = []
        for (key, value) in dictionary {
            guard let name = key.base as? String else { return nil }
            guard let dbValue = DatabaseValue(value: value) else { return nil }
            values.append(dbValue)
            names.append(name)
        }
        self.init(columnNames: names, databaseValues: values)
    }

    // MARK: Columns and values

    /// The column names, left to right (duplicates included).
    public var columnNames: [String] { layout.names }

    /// The values, left to right.
    public var databaseValues: [DatabaseValue] {
        (0..<count).map { databaseValue(atUncheckedIndex: $0) }
    }

    /// True when a column has this name, ignoring case.
    public func hasColumn(_ columnName: String) -> Bool { layout.index(of: columnName) != nil }

    /// The index of the leftmost column with this name, ignoring case.
    public func index(forColumn name: String) -> Int? { layout.index(of: name) }

    /// True when the value at `index` is NULL.
    public func hasNull(atIndex index: Int) -> Bool { databaseValue(atIndex: index).isNull }

    /// True when at least one value is not NULL.
    public var containsNonNullValue: Bool {
        (0..<count).contains { !databaseValue(atUncheckedIndex: $0).isNull }
    }

    /// An independent copy; rows from cursors change at each step, copies never do.
    public func copy() -> Row {
        switch impl {
        case .values, .block: return self
        case .statement(let statement): return Row(copying: statement)
        }
    }

    /// The value at a valid index.
    @inline(__always)
    func databaseValue(atUncheckedIndex index: Int) -> DatabaseValue {
        switch impl {
        case .values(let values): return values[index]
        case .block(let block, let offset): return block.values[offset + index]
        case .statement(let statement):
            return DatabaseValue(sqliteStatement: statement.sqliteStatement, index: Int32(index))
        }
    }

    /// The value at `index`; an index out of range is a programmer error.
    func databaseValue(atIndex index: Int) -> DatabaseValue {
        precondition(index >= 0 && index < count, "row index out of range: \(index) (row has \(count) columns)")
        return databaseValue(atUncheckedIndex: index)
    }

    // MARK: Subscripts

    /// The value at `index` (0 is the leftmost column), converted to the type you ask for.
    ///
    ///     let name: String = row[0]
    ///     let score: Int? = row[1]
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        _decode(atIndex: index, column: nil)
    }

    /// The value at `index`, read straight from SQLite when the row comes from a cursor.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value {
        if let sqliteStatement = liveStatement {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "row index out of range")
            if let value = Value(sqliteStatement: sqliteStatement, index: Int32(truncatingIfNeeded: index)) {
                return value
            }
            _liveConversionFailure(atIndex: index, column: nil, type: "\(Value.self)")
        }
        return _decode(atIndex: index, column: nil)
    }

    /// The value of the leftmost column named `columnName` (case-insensitive). A missing column gives nil to
    /// optional types.
    ///
    ///     let name: String = row["name"]
    ///     let nickname: String? = row["nickname"]
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ columnName: String) -> Value {
        guard let index = _index(ofColumn: columnName) else { return _missingColumn(columnName) }
        return _decode(atIndex: index, column: columnName)
    }

    /// The value of the leftmost column named `columnName`, read straight from SQLite on cursor rows.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ columnName: String) -> Value {
        guard let index = _index(ofColumn: columnName) else { return _missingColumn(columnName) }
        if let sqliteStatement = liveStatement {
            if let value = Value(sqliteStatement: sqliteStatement, index: Int32(truncatingIfNeeded: index)) {
                return value
            }
            _liveConversionFailure(atIndex: index, column: columnName, type: "\(Value.self)")
        }
        return _decode(atIndex: index, column: columnName)
    }

    /// The value of a column: `row[Column("name")]`.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value {
        self[column.name]
    }

    /// The value of a column: `row[Column("score")]`, read straight from SQLite on cursor rows.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ column: some ColumnExpression
    ) -> Value {
        self[column.name]
    }

    /// The first non-NULL value among the columns, or nil.
    ///
    ///     let name: String? = row.coalesce(["nickname", "name"])
    public func coalesce<Value: DatabaseValueConvertible>(_ columns: some Collection<String>) -> Value? {
        for name in columns {
            guard let index = layout.index(of: name) else { continue }
            let dbValue = databaseValue(atUncheckedIndex: index)
            if dbValue.isNull { continue }
            guard let value = Value.fromDatabaseValue(dbValue) else {
                conversionFailure(dbValue, "\(Value.self)", index: index, column: name)
            }
            return value
        }
        return nil
    }

    /// The first non-NULL value among the columns, or nil.
    public func coalesce<Value: DatabaseValueConvertible>(_ columns: some Collection<some ColumnExpression>)
        -> Value?
    {
        coalesce(columns.map(\.name))
    }

    /// Runs `body` with the blob of a column without copying it when the row comes from a cursor: the data is
    /// only valid inside `body`. nil for NULL and missing columns.
    ///
    ///     while let row = try rows.next() {
    ///         try row.withUnsafeData(name: "data") { (data: Data?) in ... }
    ///     }
    public func withUnsafeData<T>(name: String, _ body: (Data?) throws -> T) rethrows -> T {
        guard let index = layout.index(of: name) else { return try body(nil) }
        return try withUnsafeData(atIndex: index, body)
    }

    /// Runs `body` with the blob at `index`, without copying it on cursor rows; nil for NULL.
    public func withUnsafeData<T>(atIndex index: Int, _ body: (Data?) throws -> T) rethrows -> T {
        guard let liveStatement else {
            return try body(Data.fromDatabaseValue(databaseValue(atIndex: index)))
        }
        precondition(index >= 0 && index < count, "row index out of range: \(index) (row has \(count) columns)")
        let column = Int32(index)
        guard sqlite3_column_type(liveStatement, column) != SQLITE_NULL else { return try body(nil) }
        let bytes = sqlite3_column_blob(liveStatement, column)
        let byteCount = Int(sqlite3_column_bytes(liveStatement, column))
        guard let bytes, byteCount > 0 else { return try body(Data()) }
        return try body(
            Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: byteCount, deallocator: .none))
    }

    // MARK: Throwing decoding

    /// The value at `index`, or a ``RowDecodingError`` for an invalid index, NULL for a non-optional type, or a
    /// failed conversion.
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, atIndex index: Int) throws
        -> Value
    {
        guard index >= 0 && index < count else {
            throw RowDecodingError(
                "row index out of range: \(index) (row has \(count) columns)", row: self, statement: nil)
        }
        let dbValue = databaseValue(atUncheckedIndex: index)
        if let value = Value.fromDatabaseValue(dbValue) { return value }
        throw RowDecodingError.conversion(dbValue, to: Value.self, index: index, column: nil, row: self)
    }

    /// The value of the leftmost column named `columnName`; a missing column throws for non-optional types.
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, forColumn columnName: String)
        throws -> Value
    {
        guard let index = layout.index(of: columnName) else {
            if let optional = Value.self as? any OptionalValue.Type, let none = optional.noneValue as? Value {
                return none
            }
            throw RowDecodingError("no such column: \(columnName)", row: self, statement: nil)
        }
        let dbValue = databaseValue(atUncheckedIndex: index)
        if let value = Value.fromDatabaseValue(dbValue) { return value }
        throw RowDecodingError.conversion(dbValue, to: Value.self, index: index, column: columnName, row: self)
    }

    /// The value of a column; a missing column throws for non-optional types.
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, forColumn column: some ColumnExpression
    ) throws -> Value {
        try decode(type, forColumn: column.name)
    }

    // MARK: Decoding helpers (used by the inlinable subscripts)

    /// The index of the leftmost column with this name, ignoring case.
    @usableFromInline
    func _index(ofColumn name: String) -> Int? { layout.index(of: name) }

    /// Decodes with `fromDatabaseValue`; NULL for a non-optional type or a failed conversion stops the program.
    @usableFromInline
    func _decode<Value: DatabaseValueConvertible>(atIndex index: Int, column: String?) -> Value {
        let dbValue = databaseValue(atIndex: index)
        guard let value = Value.fromDatabaseValue(dbValue) else {
            conversionFailure(dbValue, "\(Value.self)", index: index, column: column)
        }
        return value
    }

    /// nil for optional types; a programmer error otherwise.
    @usableFromInline
    func _missingColumn<Value>(_ columnName: String) -> Value {
        if let optional = Value.self as? any OptionalValue.Type, let none = optional.noneValue as? Value { return none }
        preconditionFailure("no such column: \(columnName) in row \(self)")
    }

    /// A failed conversion on a live row.
    @usableFromInline
    func _liveConversionFailure(atIndex index: Int, column: String?, type: String) -> Never {
        conversionFailure(databaseValue(atUncheckedIndex: index), type, index: index, column: column)
    }

    private func conversionFailure(_ dbValue: DatabaseValue, _ type: String, index: Int, column: String?) -> Never {
        preconditionFailure(
            RowDecodingError.conversion(dbValue, toTypeNamed: type, index: index, column: column, row: self)
                .description)
    }
}

/// The values of all the rows of one `Row.fetchAll`, in one buffer: one allocation per row instead of two.
@usableFromInline
final class RowBlock {
    let layout: RowLayout
    let values: ContiguousArray<DatabaseValue>

    init(layout: RowLayout, values: ContiguousArray<DatabaseValue>) {
        self.layout = layout
        self.values = values
    }
}

/// Optionals, so that a missing column gives nil to `let x: String? = row["missing"]`.
protocol OptionalValue {
    static var noneValue: Self { get }
}

extension Optional: OptionalValue {
    static var noneValue: Wrapped? { nil }
}

extension DatabaseValue {
    /// Reads a column of the statement's current row. The corresponding C functions are `sqlite3_column_value`
    /// and `sqlite3_value_*`.
    @usableFromInline
    init(sqliteStatement: OpaquePointer, index: Int32) {
        guard let value = sqlite3_column_value(sqliteStatement, index) else {
            self.init(storage: .null)
            return
        }
        self.init(sqliteValue: value)
    }

    /// Reads an `sqlite3_value`.
    init(sqliteValue value: OpaquePointer) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            self.init(storage: .int64(sqlite3_value_int64(value)))
        case SQLITE_FLOAT:
            self.init(storage: .double(sqlite3_value_double(value)))
        case SQLITE_TEXT:
            if let text = sqlite3_value_text(value) {
                let count = Int(sqlite3_value_bytes(value))
                self.init(
                    storage: .string(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)))
            } else {
                self.init(storage: .string(""))
            }
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            if count > 0, let bytes = sqlite3_value_blob(value) {
                self.init(storage: .blob(Data(bytes: bytes, count: count)))
            } else {
                self.init(storage: .blob(Data()))
            }
        default:
            self.init(storage: .null)
        }
    }
}

// MARK: - Collection of (column name, value) pairs

/// A position in a ``Row``, for iterating (column name, value) pairs.
public struct RowIndex: Comparable, Strideable, Sendable {
    let index: Int
    init(_ index: Int) { self.index = index }
    /// Orders positions.
    public static func < (lhs: RowIndex, rhs: RowIndex) -> Bool { lhs.index < rhs.index }
    /// The distance to another position.
    public func distance(to other: RowIndex) -> Int { other.index - index }
    /// The position `n` columns further.
    public func advanced(by n: Int) -> RowIndex { RowIndex(index + n) }
}

extension Row: RandomAccessCollection {
    /// The first position.
    public var startIndex: RowIndex { RowIndex(0) }
    /// The position past the last column.
    public var endIndex: RowIndex { RowIndex(count) }
    /// The (column name, value) pair at a position.
    public subscript(position: RowIndex) -> (String, DatabaseValue) {
        (layout.names[position.index], databaseValue(atIndex: position.index))
    }
}

extension Row: ExpressibleByDictionaryLiteral {
    /// `let row: Row = ["name": "foo", "score": 10]`, columns in literal order.
    public convenience init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(columnNames: elements.map(\.0), databaseValues: elements.map { $0.1?.databaseValue ?? .null })
    }
}

extension Row: Hashable {
    /// Rows are equal when they have the same column names and equal values, in the same order.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        if lhs === rhs { return true }
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count {
            if lhs.layout.names[index] != rhs.layout.names[index] { return false }
            if lhs.databaseValue(atUncheckedIndex: index) != rhs.databaseValue(atUncheckedIndex: index) {
                return false
            }
        }
        return true
    }

    /// Hashes names and values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in 0..<count {
            hasher.combine(layout.names[index])
            hasher.combine(databaseValue(atUncheckedIndex: index))
        }
    }
}

extension Row: CustomStringConvertible, CustomDebugStringConvertible {
    /// `[id:1 name:"Arthur"]`
    public var description: String {
        "["
            + (0..<count).map { "\(layout.names[$0]):\(databaseValue(atUncheckedIndex: $0))" }
            .joined(separator: " ") + "]"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }
}
