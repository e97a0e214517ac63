/// A `column = value` assignment for `updateAll`: `Column("score").set(to: 0)`, `Column("score") += 10`.
///
///     try Player.all().updateAll(db, Column("score").set(to: 0))
///     // UPDATE "player" SET "score" = ?
public struct ColumnAssignment: Sendable {
    let columnName: String
    let value: SQLExpression

    func sql(_ context: inout SQLGenerationContext) -> String {
        "\(columnName.quotedDatabaseIdentifier) = \(value.sql(&context))"
    }
}

extension Column {
    /// Assigns a value: `Column("score").set(to: 0)`; nil assigns NULL.
    public func set(to value: (any DatabaseValueConvertible)?) -> ColumnAssignment {
        ColumnAssignment(columnName: name, value: expressionOf(value))
    }

    /// Assigns an expression: `Column("score").set(to: Column("score") * 2)`.
    public func set(to value: some SQLSpecificExpressible) -> ColumnAssignment {
        ColumnAssignment(columnName: name, value: value.sqlExpression)
    }

    /// `column = column + value`.
    public static func += (column: Column, value: any DatabaseValueConvertible) -> ColumnAssignment {
        column.set(to: column + value)
    }
    /// `column = column + expression`.
    public static func += (column: Column, value: some SQLSpecificExpressible) -> ColumnAssignment {
        column.set(to: column + value)
    }
    /// `column = column - value`.
    public static func -= (column: Column, value: any DatabaseValueConvertible) -> ColumnAssignment {
        column.set(to: column - value)
    }
    /// `column = column - expression`.
    public static func -= (column: Column, value: some SQLSpecificExpressible) -> ColumnAssignment {
        column.set(to: column - value)
    }
    /// `column = column * value`.
    public static func *= (column: Column, value: any DatabaseValueConvertible) -> ColumnAssignment {
        column.set(to: column * value)
    }
    /// `column = column * expression`.
    public static func *= (column: Column, value: some SQLSpecificExpressible) -> ColumnAssignment {
        column.set(to: column * value)
    }
    /// `column = column / value`.
    public static func /= (column: Column, value: any DatabaseValueConvertible) -> ColumnAssignment {
        column.set(to: column / value)
    }
    /// `column = column / expression`.
    public static func /= (column: Column, value: some SQLSpecificExpressible) -> ColumnAssignment {
        column.set(to: column / value)
    }
}

extension Database {
    /// An SQLite conflict resolution algorithm: `INSERT OR REPLACE`, `UPDATE OR IGNORE`.
    public enum ConflictResolution: String, Sendable {
        /// `ROLLBACK`.
        case rollback = "ROLLBACK"
        /// `ABORT`, SQLite's default.
        case abort = "ABORT"
        /// `FAIL`.
        case fail = "FAIL"
        /// `IGNORE`.
        case ignore = "IGNORE"
        /// `REPLACE`.
        case replace = "REPLACE"
    }
}
