import Foundation

/// A value stored in a database column: NULL, an integer, a double, a string or a blob.
///
///     let dbValue: DatabaseValue = row["name"]
///     switch dbValue.storage {
///     case .null: print("NULL")
///     case .int64(let int64): print("Int64: \(int64)")
///     case .double(let double): print("Double: \(double)")
///     case .string(let string): print("String: \(string)")
///     case .blob(let data): print("Data: \(data)")
///     }
///
/// Equality follows SQLite: the integer 1 equals the double 1.0, and they hash alike; a string never equals a
/// blob.
public struct DatabaseValue: Hashable, Sendable, CustomStringConvertible {
    /// The five storage classes of SQLite.
    public enum Storage: Hashable, Sendable {
        /// NULL
        case null
        /// An INTEGER.
        case int64(Int64)
        /// A REAL.
        case double(Double)
        /// A TEXT.
        case string(String)
        /// A BLOB.
        case blob(Data)

        /// The stored value as `Int64`, `Double`, `String`, `Data`, or nil for NULL.
        public var value: (any DatabaseValueConvertible)? {
            switch self {
            case .null: return nil
            case .int64(let v): return v
            case .double(let v): return v
            case .string(let v): return v
            case .blob(let v): return v
            }
        }

        /// SQLite's equality: an integer equals a double with the same value; text never equals a blob.
        public static func == (lhs: Storage, rhs: Storage) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): return true
            case let (.int64(l), .int64(r)): return l == r
            case let (.double(l), .double(r)): return l == r
            case let (.int64(l), .double(r)): return Double(l) == r && Int64(exactly: r) == l
            case let (.double(l), .int64(r)): return l == Double(r) && Int64(exactly: l) == r
            case let (.string(l), .string(r)): return l == r
            case let (.blob(l), .blob(r)): return l == r
            default: return false
            }
        }

        /// Hashes integral doubles like the equal integer.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case .null: hasher.combine(0)
            case .int64(let v): hasher.combine(v)
            case .double(let v):
                if let int64 = Int64(exactly: v) { hasher.combine(int64) } else { hasher.combine(v) }
            case .string(let v): hasher.combine(v)
            case .blob(let v): hasher.combine(v)
            }
        }
    }

    /// The raw storage.
    public let storage: Storage

    /// Creates a value from its storage.
    @inlinable public init(storage: Storage) { self.storage = storage }

    /// The NULL value.
    public static let null = DatabaseValue(storage: .null)

    /// True for NULL.
    @inlinable public var isNull: Bool {
        if case .null = storage { return true }
        return false
    }

    /// SQL-ish text: `NULL`, `1`, `1.5`, `"Arthur"`, `Data(3 bytes)`.
    public var description: String {
        switch storage {
        case .null: return "NULL"
        case .int64(let v): return String(v)
        case .double(let v): return String(v)
        case .string(let v): return quotedForDescription(v)
        case .blob(let v): return "Data(\(v.description))"
        }
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    public var databaseValue: DatabaseValue { self }

    /// Always succeeds.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? { dbValue }
}

/// A string in double quotes, with `"`, `\\` and control characters escaped: `"O'Brien"`.
func quotedForDescription(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}
