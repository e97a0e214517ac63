internal import CSQLite
import Foundation

extension Date: DatabaseValueConvertible, StatementColumnConvertible {
    /// TEXT `YYYY-MM-DD HH:MM:SS.SSS` in UTC, precise to the millisecond.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(sqliteDateString(self))) }

    /// Decodes every SQLite date format (`YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS[.SSS]]`, `T` separator, `Z` or
    /// `±HH:MM` offset; UTC otherwise) and numbers as seconds since 1970. Nil for anything else.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Date? {
        switch dbValue.storage {
        case .int64(let v): return Date(timeIntervalSince1970: TimeInterval(v))
        case .double(let v): return Date(timeIntervalSince1970: v)
        case .string(let v): return SQLiteDateTime(v)?.date
        default: return nil
        }
    }

    /// Reads the column, parsing text in place.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER:
            self = Date(timeIntervalSince1970: TimeInterval(sqlite3_column_int64(sqliteStatement, index)))
        case SQLITE_FLOAT: self = Date(timeIntervalSince1970: sqlite3_column_double(sqliteStatement, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(sqliteStatement, index),
                let date = SQLiteDateTime(
                    UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqliteStatement, index))))?.date
            else { return nil }
            self = date
        default: return nil
        }
    }
}

extension URL: DatabaseValueConvertible {
    /// TEXT: the absolute string.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(absoluteString)) }

    /// A URL from text, or from a blob of UTF-8 text (as `String` decodes it); nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        guard let string = String.fromDatabaseValue(dbValue) else { return nil }
        return URL(string: string)
    }
}

extension UUID: DatabaseValueConvertible, StatementColumnConvertible {
    /// A 16-byte BLOB.
    public var databaseValue: DatabaseValue {
        withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
    }

    /// Decodes 16-byte blobs and strings such as `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
        switch dbValue.storage {
        case .blob(let data):
            guard data.count == 16 else { return nil }
            return data.withUnsafeBytes { UUID(bytes: $0) }
        case .string(let string):
            return UUID(uuidString: string)
        default:
            return nil
        }
    }

    /// Reads a 16-byte blob or a UUID string.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_BLOB:
            guard sqlite3_column_bytes(sqliteStatement, index) == 16,
                let bytes = sqlite3_column_blob(sqliteStatement, index),
                let uuid = UUID(bytes: UnsafeRawBufferPointer(start: bytes, count: 16))
            else { return nil }
            self = uuid
        case SQLITE_TEXT:
            guard let string = String(sqliteStatement: sqliteStatement, index: index),
                let uuid = UUID(uuidString: string)
            else { return nil }
            self = uuid
        default:
            return nil
        }
    }

    private init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: bytes) }
        self.init(uuid: value)
    }
}

extension Decimal: DatabaseValueConvertible {
    /// TEXT: the decimal digits (`"10.5"`), so no precision is lost.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(description)) }

    /// Decodes integers, doubles, and decimal text (`"-100"`, `"1.23"`, `"1e3"`); nil for anything else.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
        switch dbValue.storage {
        case .int64(let v): return Decimal(v)
        case .double(let v):
            return v.isFinite ? Decimal(string: String(v), locale: Locale(identifier: "en_US_POSIX")) : nil
        case .string(let v):
            guard isDecimalText(v) else { return nil }
            return Decimal(string: v, locale: Locale(identifier: "en_US_POSIX"))
        default: return nil
        }
    }
}

/// `[+-]digits[.digits][e[+-]digits]`, with at least one digit in the mantissa.
private func isDecimalText(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    if let first = bytes.first, first == 0x2B || first == 0x2D { bytes = bytes.dropFirst() }
    var mantissaDigits = 0
    while let c = bytes.first, c >= 0x30 && c <= 0x39 {
        mantissaDigits += 1
        bytes = bytes.dropFirst()
    }
    if bytes.first == 0x2E {
        bytes = bytes.dropFirst()
        while let c = bytes.first, c >= 0x30 && c <= 0x39 {
            mantissaDigits += 1
            bytes = bytes.dropFirst()
        }
    }
    guard mantissaDigits > 0 else { return false }
    if let c = bytes.first, c == 0x65 || c == 0x45 {
        bytes = bytes.dropFirst()
        if let s = bytes.first, s == 0x2B || s == 0x2D { bytes = bytes.dropFirst() }
        var exponentDigits = 0
        while let c = bytes.first, c >= 0x30 && c <= 0x39 {
            exponentDigits += 1
            bytes = bytes.dropFirst()
        }
        guard exponentDigits > 0 else { return false }
    }
    return bytes.isEmpty
}

extension NSNumber: DatabaseValueConvertible {
    /// A REAL for floating point numbers, an INTEGER otherwise (a non-integral NSDecimalNumber is a REAL).
    public var databaseValue: DatabaseValue {
        if let decimal = self as? NSDecimalNumber {
            let value = decimal.decimalValue
            var rounded = Decimal()
            var copy = value
            NSDecimalRound(&rounded, &copy, 0, .plain)
            // Through the decimal digits: a Double cannot hold Int64.max exactly.
            if rounded == value, let int64 = Int64(value.description) {
                return DatabaseValue(storage: .int64(int64))
            }
            return DatabaseValue(storage: .double(decimal.doubleValue))
        }
        let type = String(cString: objCType)
        if type == "d" || type == "f" {
            return DatabaseValue(storage: .double(doubleValue))
        }
        return DatabaseValue(storage: .int64(int64Value))
    }

    /// Integers and doubles as numbers, decimal text as NSDecimalNumber; nil for anything else.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        switch dbValue.storage {
        case .int64(let v): return self.init(integerLiteral: Int(v))
        case .double(let v): return self.init(floatLiteral: v)
        case .string(let v):
            guard let decimal = Decimal.fromDatabaseValue(dbValue) else { return nil }
            _ = v
            return NSDecimalNumber(decimal: decimal) as? Self
        default: return nil
        }
    }
}

/// Date components stored in one of SQLite's date formats, from `HH:MM` to `YYYY-MM-DD HH:MM:SS.SSS`.
///
///     var components = DateComponents()
///     components.year = 1973; components.month = 9; components.day = 18
///     let dbComponents = DatabaseDateComponents(components, format: .YMD)   // stores "1973-09-18"
///     let read: DatabaseDateComponents = row["birthDate"]
///     read.format          // the format found in the database
public struct DatabaseDateComponents: DatabaseValueConvertible, StatementColumnConvertible, Sendable, Equatable {
    /// The stored formats.
    public enum Format: String, Sendable {
        /// `YYYY-MM-DD`
        case YMD = "yyyy-MM-dd"
        /// `YYYY-MM-DD HH:MM`
        case YMD_HM = "yyyy-MM-dd HH:mm"
        /// `YYYY-MM-DD HH:MM:SS`
        case YMD_HMS = "yyyy-MM-dd HH:mm:ss"
        /// `YYYY-MM-DD HH:MM:SS.SSS`
        case YMD_HMSS = "yyyy-MM-dd HH:mm:ss.SSS"
        /// `HH:MM`
        case HM = "HH:mm"
        /// `HH:MM:SS`
        case HMS = "HH:mm:ss"
        /// `HH:MM:SS.SSS`
        case HMSS = "HH:mm:ss.SSS"
    }

    /// The components (missing ones are nil; `timeZone` is set when the text had an offset).
    public let dateComponents: DateComponents
    /// The format.
    public let format: Format

    /// Components to store in `format`.
    public init(_ dateComponents: DateComponents, format: Format) {
        self.dateComponents = dateComponents
        self.format = format
    }

    /// The text in ``format`` (missing components are zero), with `Z`/`±HH:MM` when `timeZone` is set.
    public var databaseValue: DatabaseValue {
        let c = dateComponents
        var bytes: [UInt8] = []
        let hasDate: Bool
        switch format {
        case .YMD, .YMD_HM, .YMD_HMS, .YMD_HMSS:
            hasDate = true
            appendPadded(c.year ?? 0, width: 4, to: &bytes)
            bytes.append(0x2D)
            appendPadded(c.month ?? 1, width: 2, to: &bytes)
            bytes.append(0x2D)
            appendPadded(c.day ?? 1, width: 2, to: &bytes)
        default:
            hasDate = false
        }
        if format != .YMD {
            if hasDate { bytes.append(0x20) }
            appendPadded(c.hour ?? 0, width: 2, to: &bytes)
            bytes.append(0x3A)
            appendPadded(c.minute ?? 0, width: 2, to: &bytes)
            if format == .YMD_HMS || format == .YMD_HMSS || format == .HMS || format == .HMSS {
                bytes.append(0x3A)
                appendPadded(c.second ?? 0, width: 2, to: &bytes)
                if format == .YMD_HMSS || format == .HMSS {
                    bytes.append(0x2E)
                    appendPadded((c.nanosecond ?? 0) / 1_000_000, width: 3, to: &bytes)
                }
            }
            if let timeZone = c.timeZone {
                let offset = timeZone.secondsFromGMT()
                if offset == 0 {
                    bytes.append(0x5A)
                } else {
                    bytes.append(offset < 0 ? 0x2D : 0x2B)
                    appendPadded(abs(offset) / 3600, width: 2, to: &bytes)
                    bytes.append(0x3A)
                    appendPadded(abs(offset) / 60 % 60, width: 2, to: &bytes)
                }
            }
        }
        return DatabaseValue(storage: .string(String(decoding: bytes, as: UTF8.self)))
    }

    /// Decodes every SQLite date and time format; nil for anything else.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseDateComponents? {
        guard case .string(let string) = dbValue.storage, let parsed = SQLiteDateTime(string) else { return nil }
        return DatabaseDateComponents(parsed: parsed)
    }

    /// Reads a text column.
    public init?(sqliteStatement: OpaquePointer, index: Int32) {
        guard sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT,
            let text = sqlite3_column_text(sqliteStatement, index),
            let parsed = SQLiteDateTime(
                UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqliteStatement, index))))
        else { return nil }
        self.init(parsed: parsed)
    }

    init(parsed: SQLiteDateTime) {
        var c = DateComponents()
        c.year = parsed.year
        c.month = parsed.month
        c.day = parsed.day
        c.hour = parsed.hour
        c.minute = parsed.minute
        c.second = parsed.second
        c.nanosecond = parsed.nanosecond
        if let offset = parsed.utcOffset { c.timeZone = TimeZone(secondsFromGMT: offset) }
        let hasDate = parsed.year != nil
        let format: Format
        switch (hasDate, parsed.hour != nil, parsed.second != nil, parsed.nanosecond != nil) {
        case (true, false, _, _): format = .YMD
        case (true, true, false, _): format = .YMD_HM
        case (true, true, true, false): format = .YMD_HMS
        case (true, true, true, true): format = .YMD_HMSS
        case (false, _, false, _): format = .HM
        case (false, _, true, false): format = .HMS
        case (false, _, true, true): format = .HMSS
        }
        self.init(c, format: format)
    }
}
