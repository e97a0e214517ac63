import Foundation

/// A value could not be decoded from a row: NULL for a non-optional type, a failed conversion, a missing
/// column or an index out of range.
///
///     do { let score = try row.decode(Int.self, forColumn: "score") }
///     catch let error as RowDecodingError { print(error) }
///     // could not decode Int from database value "high" - column: "score", column index: 1, row: [id:1 score:"high"]
public struct RowDecodingError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, with the column and row.
    public let message: String
    /// The SQL of the statement that produced the row, if known.
    public let sql: String?

    init(_ message: String, row: Row?, statement: Statement?) {
        var text = message
        if let row { text += ", row: \(row.copy())" }
        self.message = text
        self.sql = statement?.sql
    }

    static func conversion<T>(
        _ dbValue: DatabaseValue, to type: T.Type, index: Int, column: String?, row: Row?,
        statement: Statement? = nil
    ) -> RowDecodingError {
        conversion(dbValue, toTypeNamed: "\(T.self)", index: index, column: column, row: row, statement: statement)
    }

    static func conversion(
        _ dbValue: DatabaseValue, toTypeNamed typeName: String, index: Int, column: String?, row: Row?,
        statement: Statement? = nil
    ) -> RowDecodingError {
        var message = "could not decode \(typeName) from database value \(dbValue)"
        if let column {
            message += " - column: \(quotedForDescription(column)), column index: \(index)"
        } else {
            message += " - column index: \(index)"
        }
        return RowDecodingError(message, row: row, statement: statement)
    }

    /// The message, followed by the SQL when known.
    public var description: String {
        if let sql { return "\(message), sql: `\(sql)`" }
        return message
    }
}
