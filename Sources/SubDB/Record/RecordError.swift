/// Errors of the record layer: a record was not found where it had to be (`find`, `update`, `updateChanges`).
///
///     do { _ = try Player.find(db, id: 42) } catch RecordError.recordNotFound(let table, let key) { ... }
public enum RecordError: Error, CustomStringConvertible, Equatable {
    /// No row of `databaseTableName` has the given key.
    case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])

    /// `Key not found in table player: [id:42]`.
    public var description: String {
        switch self {
        case .recordNotFound(let databaseTableName, let key):
            return keyNotFound(databaseTableName, key)
        }
    }
}

/// GRDB 7's former name of ``RecordError``: updates and deletes that find no row throw
/// `RecordError.recordNotFound`, so that one `catch RecordError.recordNotFound` handles finds and updates.
public typealias PersistenceError = RecordError

/// A database value as GRDB shows it in messages: `42`, `"Arthur"`, `NULL`.
func describe(_ value: DatabaseValue) -> String {
    switch value.storage {
    case .null: return "NULL"
    case .int64(let int): return String(int)
    case .double(let double): return String(double)
    case .string(let string): return "\"" + string.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    case .blob(let data): return "Data(\(data.count) bytes)"
    }
}

/// `Key not found in table player: [id:42]`, the columns of the key in name order.
private func keyNotFound(_ databaseTableName: String, _ key: [String: DatabaseValue]) -> String {
    let row = key.sorted { $0.key < $1.key }.map { "\($0.key):\(describe($0.value))" }.joined(separator: " ")
    return "Key not found in table \(databaseTableName): [\(row)]"
}
