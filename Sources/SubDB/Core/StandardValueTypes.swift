internal import CSQLite
import Foundation

// Bool, integers, floating points and String: DatabaseValueConvertible plus the StatementColumnConvertible fast
// path that reads `sqlite3_column_*` directly. Integers are range-checked: an out-of-range value (256 as UInt8,
// a negative number as UInt) is a failed conversion. A double in range converts by truncation toward zero, as in
// GRDB and SQLite's CAST (1.5 as Int is 1, 2147483647.999999 as Int32 is Int32.max).

/// True when the column holds NULL. The corresponding C function is `sqlite3_column_type`.
@usableFromInline
func columnIsNull(_ statement: OpaquePointer, _ index: Int32) -> Bool {
    sqlite3_column_type(statement, index) == SQLITE_NULL
}

// Columns are read through `sqlite3_column_value` and the `sqlite3_value_*` functions: one column lookup per
// value instead of one per call. The value is "unprotected" in SQLite's terms, which only matters when several
// threads share a connection; SubDB never does.

/// Reads an integer column with SQLite's conversions for text, rejecting NULL and doubles out of the Int64 range;
/// other doubles are truncated toward zero.
@inline(__always)
func columnInt64(_ statement: OpaquePointer, _ index: Int32) -> Int64? {
    guard let value = sqlite3_column_value(statement, index) else { return nil }
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return sqlite3_value_int64(value)
    case SQLITE_NULL: return nil
    case SQLITE_FLOAT: return Int64(exactly: sqlite3_value_double(value).rounded(.towardZero))
    default: return sqlite3_value_int64(value)  // SQLite's text conversion: '20 small cigars' is 20
    }
}

/// Reads a floating point column with SQLite's conversions, rejecting NULL.
@inline(__always)
func columnDouble(_ statement: OpaquePointer, _ index: Int32) -> Double? {
    guard let value = sqlite3_column_value(statement, index), sqlite3_value_type(value) != SQLITE_NULL else {
        return nil
    }
    return sqlite3_value_double(value)
}

/// Reads a text column (numbers and blobs converted by SQLite), nil for NULL.
@inline(__always)
func columnString(_ statement: OpaquePointer, _ index: Int32) -> String? {
    guard let value = sqlite3_column_value(statement, index), let text = sqlite3_value_text(value) else {
        return nil
    }
    let count = Int(sqlite3_value_bytes(value))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
}

/// Integer decoding shared by every integer type: int64 values, and doubles truncated toward zero, range-checked.
extension DatabaseValue {
    @inline(__always)
    func integer<I: FixedWidthInteger>(_ type: I.Type) -> I? {
        switch storage {
        case .int64(let v): return I(exactly: v)
        case .double(let v): return I(exactly: v.rounded(.towardZero))
        default: return nil
        }
    }
}

extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
    /// 1 for true, 0 for false.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }
    /// Binds 1 or 0 with `sqlite3_bind_int64`.
    public func bind(to sqliteStatement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(sqliteStatement, index, self ? 1 : 0)
    }

    /// False for zero, true for any other number; nil for NULL, text and blobs.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let v): return v != 0
        case .double(let v): return v != 0
        default: return nil
        }
    }

    /// Reads the column as `sqlite3_column_int64(...) != 0`.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let value = sqlite3_column_value(sqliteStatement, index) else { return nil }
        switch sqlite3_value_type(value) {
        case SQLITE_NULL: return nil
        case SQLITE_FLOAT: self = sqlite3_value_double(value) != 0
        default: self = sqlite3_value_int64(value) != 0
        }
    }
}

extension Int: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// Binds the integer with `sqlite3_bind_int64`.
    public func bind(to sqliteStatement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
    /// The integer, or nil when not an integer or out of range.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int? { dbValue.integer(Int.self) }
    /// Reads the column with `sqlite3_column_int64`.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let v = columnInt64(sqliteStatement, index), let value = Int(exactly: v) else { return nil }
        self = value
    }
}

extension Int64: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }
    /// Binds the integer with `sqlite3_bind_int64`.
    public func bind(to sqliteStatement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(sqliteStatement, index, self)
    }
    /// The integer, or nil when not an integer or out of range.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? { dbValue.integer(Int64.self) }
    /// Reads the column with `sqlite3_column_int64`.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let v = columnInt64(sqliteStatement, index) else { return nil }
        self = v
    }
}

extension Int32: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// Binds the integer with `sqlite3_bind_int64`.
    public func bind(to sqliteStatement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
    /// The integer, or nil when not an integer or out of range.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int32? { dbValue.integer(Int32.self) }
    /// Reads the column with `sqlite3_column_int64`, range-checked.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let v = columnInt64(sqliteStatement, index), let value = Int32(exactly: v) else { return nil }
        self = value
    }
}

extension Int16: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// The integer, or nil when not an integer or out of range.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int16? { dbValue.integer(Int16.self) }
    /// Reads the column with `sqlite3_column_int64`, range-checked.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let v = columnInt64(sqliteStatement, index), let value = Int16(exactly: v) else { return nil }
        self = value
    }
}

extension Int8: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// The integer, or nil when not an integer or out of range.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int8? { dbValue.integer(Int8.self) }
    /// Reads the column with `sqlite3_column_int64`, range-checked.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let v = columnInt64(sqliteStatement, index), let value = Int8(exactly: v) else { return nil }
        self = value
    }
}

extension UInt: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER when it fits in Int64, else a REAL (SQLite has no unsigned 64-bit integers).
    public var databaseValue: DatabaseValue { unsignedDatabaseValue(UInt64(self)) }
    /// The integer, or nil when not an integer or out of range.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt? { dbValue.integer(UInt.self) }
    /// Reads the column with `sqlite3_column_int64`, range-checked.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let v = columnInt64(sqliteStatement, index), let value = UInt(exactly: v) else { return nil }
        self = value
    }
}

extension UInt64: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER when it fits in Int64, else a REAL (SQLite has no unsigned 64-bit integers).
    public var databaseValue: DatabaseValue { unsignedDatabaseValue(self) }
    /// The integer, or nil when not an integer or out of range.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt64? { dbValue.integer(UInt64.self) }
    /// Reads the column with `sqlite3_column_int64`, range-checked.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_FLOAT {
            let double = sqlite3_column_double(sqliteStatement, index).rounded(.towardZero)
            guard let value = UInt64(exactly: double) else { return nil }
            self = value
            return
        }
        guard let v = columnInt64(sqliteStatement, index), let value = UInt64(exactly: v) else { return nil }
        self = value
    }
}

extension UInt32: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// The integer, or nil when not an integer or out of range.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt32? { dbValue.integer(UInt32.self) }
    /// Reads the column with `sqlite3_column_int64`, range-checked.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let v = columnInt64(sqliteStatement, index), let value = UInt32(exactly: v) else { return nil }
        self = value
    }
}

extension UInt16: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// The integer, or nil when not an integer or out of range.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt16? { dbValue.integer(UInt16.self) }
    /// Reads the column with `sqlite3_column_int64`, range-checked.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let v = columnInt64(sqliteStatement, index), let value = UInt16(exactly: v) else { return nil }
        self = value
    }
}

extension UInt8: DatabaseValueConvertible, StatementColumnConvertible {
    /// An INTEGER.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    /// The integer, or nil when not an integer or out of range.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt8? { dbValue.integer(UInt8.self) }
    /// Reads the column with `sqlite3_column_int64`, range-checked.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let v = columnInt64(sqliteStatement, index), let value = UInt8(exactly: v) else { return nil }
        self = value
    }
}

/// UInt64 values beyond Int64.max are stored as REAL: SQLite has no unsigned 64-bit integers.
private func unsignedDatabaseValue(_ value: UInt64) -> DatabaseValue {
    if let int64 = Int64(exactly: value) { return DatabaseValue(storage: .int64(int64)) }
    return DatabaseValue(storage: .double(Double(value)))
}

extension Double: DatabaseValueConvertible, StatementColumnConvertible {
    /// A REAL.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }
    /// Binds the number with `sqlite3_bind_double`.
    public func bind(to sqliteStatement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(sqliteStatement, index, self)
    }
    /// The number (integers convert), or nil for NULL, text and blobs.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let v): return Double(v)
        case .double(let v): return v
        default: return nil
        }
    }
    /// Reads the column with `sqlite3_column_double`.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let v = columnDouble(sqliteStatement, index) else { return nil }
        self = v
    }
}

extension Float: DatabaseValueConvertible, StatementColumnConvertible {
    /// A REAL.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }
    /// The number (integers convert), or nil for NULL, text and blobs.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(dbValue).map { Float($0) }
    }
    /// Reads the column with `sqlite3_column_double`.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let v = columnDouble(sqliteStatement, index) else { return nil }
        self = Float(v)
    }
}

extension String: DatabaseValueConvertible, StatementColumnConvertible {
    /// A TEXT.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }
    /// Binds the text with `sqlite3_bind_text`.
    public func bind(to sqliteStatement: OpaquePointer, at index: Int32) -> Int32 {
        bindText(self, to: sqliteStatement, at: index)
    }
    /// The text (blobs decode as UTF-8), or nil for NULL and numbers.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        switch dbValue.storage {
        case .string(let v): return v
        case .blob(let v): return String(data: v, encoding: .utf8)
        default: return nil
        }
    }
    /// Reads the column with `sqlite3_column_text`.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard let string = columnString(sqliteStatement, index) else { return nil }
        self = string
    }
}

extension Data: DatabaseValueConvertible, StatementColumnConvertible {
    /// A BLOB.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }
    /// The blob (text converts to its UTF-8 bytes), or nil for NULL and numbers.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Data? {
        switch dbValue.storage {
        case .blob(let v): return v
        case .string(let v): return Data(v.utf8)
        default: return nil
        }
    }
    /// Reads the column with `sqlite3_column_blob`.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        guard count > 0, let bytes = sqlite3_column_blob(sqliteStatement, index) else {
            self = Data()
            return
        }
        self = Data(bytes: bytes, count: count)
    }
}
