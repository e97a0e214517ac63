/// A type bound to a database table, that builds query interface requests on it.
///
///     struct Player: TableRecord {
///         enum Columns { static let score = Column("score") }
///     }
///     Player.databaseTableName                  // "player"
///     Player.filter { $0.score > 1000 }         // SELECT * FROM "player" WHERE "score" > ?
public protocol TableRecord {
    /// The name of the table; by default derived from the type name: `PlayerScore` → `playerScore`.
    static var databaseTableName: String { get }

    /// The columns selected by requests; by default all columns (`*`).
    static var databaseSelection: [any SQLSelectable] { get }

    /// A type that defines the columns of the record, usually a nested `enum Columns`.
    associatedtype Columns = Never

    /// The type handed to `filter { $0.name == "Arthur" }` closures: by default `Columns.Type`.
    associatedtype DatabaseComponents = Columns.Type

    /// The value handed to `filter { ... }` closures.
    static var databaseComponents: DatabaseComponents { get }
}

extension TableRecord {
    /// The type name with a lower-cased initial, as GRDB derives it: `Player` → `player`,
    /// `HTTPRequest` → `httpRequest`.
    public static var databaseTableName: String { defaultDatabaseTableName(String(describing: Self.self)) }

    /// All columns.
    public static var databaseSelection: [any SQLSelectable] { [AllColumns()] }
}

extension TableRecord where DatabaseComponents == Columns.Type {
    /// The `Columns` type itself.
    public static var databaseComponents: Columns.Type { Columns.self }
}

/// The GRDB rule for default table names.
func defaultDatabaseTableName(_ typeName: String) -> String {
    let name = String(typeName.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    let initial = name.prefix { $0.isUppercase }
    switch initial.count {
    case name.count: return name.lowercased()
    case 0: return name
    case 1: return initial.lowercased() + name.dropFirst()
    default: return initial.dropLast().lowercased() + name.dropFirst(initial.count - 1)
    }
}

/// A column type usable in `enum Columns: String, ColumnExpression { case id, name }`.
public protocol ColumnExpression: SQLSpecificExpressible {
    /// The column name.
    var name: String { get }
}

extension ColumnExpression {
    /// The column as an expression.
    public var sqlExpression: SQLExpression { SQLExpression(.column(name: name, table: nil)) }
}

extension ColumnExpression where Self: RawRepresentable, RawValue == String {
    /// The raw value is the column name.
    public var name: String { rawValue }
}

extension Column: ColumnExpression {}
