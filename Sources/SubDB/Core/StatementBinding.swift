internal import CSQLite
import Foundation

/// A value that binds itself to a parameter of an SQLite statement, without building a ``DatabaseValue``
/// first: the fast path of `statement.execute(arguments: [...])`. Every ``DatabaseValueConvertible`` type is
/// one, by default through its `databaseValue`; the standard integers, Double, Bool and String bind directly.
///
/// `sqliteStatement` is the raw `sqlite3_stmt *`, `index` the 1-based parameter. Return the result code of the
/// `sqlite3_bind_*` call (`SQLITE_OK`, 0, on success). A custom implementation must bind what
/// `databaseValue` returns.
public protocol StatementBinding {
    /// Binds the value with `sqlite3_bind_*` and returns SQLite's result code.
    func bind(to sqliteStatement: OpaquePointer, at index: Int32) -> Int32
}

extension DatabaseValueConvertible {
    /// Binds `databaseValue`.
    public func bind(to sqliteStatement: OpaquePointer, at index: Int32) -> Int32 {
        databaseValue.bind(to: sqliteStatement, at: index)
    }
}

extension DatabaseValue {
    /// Binds the value. The corresponding C functions are `sqlite3_bind_*`.
    public func bind(to sqliteStatement: OpaquePointer, at index: Int32) -> Int32 {
        switch storage {
        case .null: return sqlite3_bind_null(sqliteStatement, index)
        case .int64(let int64): return sqlite3_bind_int64(sqliteStatement, index, int64)
        case .double(let double): return sqlite3_bind_double(sqliteStatement, index, double)
        case .string(let string): return bindText(string, to: sqliteStatement, at: index)
        case .blob(let data):
            return data.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_zeroblob(sqliteStatement, index, 0)
                }
                guard let count = Int32(exactly: buffer.count) else { return SQLITE_TOOBIG }
                return sqlite3_bind_blob(sqliteStatement, index, base, count, csqlite_transient())
            }
        }
    }
}

extension Optional: StatementBinding where Wrapped: DatabaseValueConvertible {
    /// Binds NULL for nil, else the wrapped value.
    public func bind(to sqliteStatement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .none: return sqlite3_bind_null(sqliteStatement, index)
        case .some(let value): return value.bind(to: sqliteStatement, at: index)
        }
    }
}

/// Binds UTF-8 text, copied by SQLite (`SQLITE_TRANSIENT`), straight from the string's storage when it is
/// contiguous. The corresponding C function is `sqlite3_bind_text`.
@inline(__always)
func bindText(_ string: String, to sqliteStatement: OpaquePointer, at index: Int32) -> Int32 {
    if let code = string.utf8.withContiguousStorageIfAvailable({
        bindText($0, to: sqliteStatement, at: index)
    }) {
        return code
    }
    var copy = string
    return copy.withUTF8 { bindText($0, to: sqliteStatement, at: index) }
}

@inline(__always)
private func bindText(_ buffer: UnsafeBufferPointer<UInt8>, to sqliteStatement: OpaquePointer, at index: Int32)
    -> Int32
{
    guard let base = buffer.baseAddress, buffer.count > 0 else {
        return sqlite3_bind_text(sqliteStatement, index, "", 0, csqlite_static())
    }
    guard let count = Int32(exactly: buffer.count) else { return SQLITE_TOOBIG }
    return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
        sqlite3_bind_text(sqliteStatement, index, $0, count, csqlite_transient())
    }
}
