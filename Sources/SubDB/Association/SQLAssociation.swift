import Foundation

/// The columns that link two tables, for associations whose foreign key is not declared in the schema, or to
/// pick one among several:
///
///     static let author = belongsTo(Author.self, using: ForeignKey(["authorId"]))
///     static let translator = belongsTo(Author.self, key: "translator", using: ForeignKey(["translatorId"]))
public struct ForeignKey: Sendable, Hashable {
    /// The columns of the table that holds the foreign key.
    public let originColumns: [String]
    /// The referenced columns; nil for the primary key of the referenced table.
    public let destinationColumns: [String]?

    /// A foreign key made of `originColumns`, referencing `destinationColumns` (by default the primary key).
    public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
        self.originColumns = originColumns
        self.destinationColumns = destinationColumns
    }

    /// A foreign key made of columns: `ForeignKey([Column("authorId")])`, as in GRDB.
    public init(_ originColumns: [Column], to destinationColumns: [Column]? = nil) {
        self.init(originColumns.map(\.name), to: destinationColumns?.map(\.name))
    }
}

/// One hop of an association: from an origin table to the table it reaches.
struct AssociationStep: Sendable {
    enum Direction: Sendable {
        /// The foreign key is in the origin table (`belongsTo`).
        case belongsTo
        /// The foreign key is in the reached table (`hasMany`, `hasOne`).
        case has
    }

    let direction: Direction
    let foreignKey: ForeignKey?
    /// The reached table, with the filters, ordering, selection and nested associations of the association.
    var request: QueryInterfaceRequest<Row>

    var tableName: String { request.tableName }

    /// The (origin column, reached column) pairs that link the two tables.
    func columnPairs(_ db: Database, originTable: String) throws -> [(origin: String, destination: String)] {
        switch direction {
        case .belongsTo:
            if let foreignKey {
                let destination = try foreignKey.destinationColumns ?? db.primaryKey(tableName).columns
                return try pairs(foreignKey.originColumns, destination, from: originTable)
            }
            let foreignKey = try inferredForeignKey(db, in: originTable, to: tableName, origin: originTable)
            return foreignKey.mapping.map { ($0.origin, $0.destination) }
        case .has:
            if let foreignKey {
                let referenced = try foreignKey.destinationColumns ?? db.primaryKey(originTable).columns
                return try pairs(referenced, foreignKey.originColumns, from: originTable)
            }
            let foreignKey = try inferredForeignKey(db, in: tableName, to: originTable, origin: originTable)
            return foreignKey.mapping.map { ($0.destination, $0.origin) }
        }
    }

    private func pairs(_ origin: [String], _ destination: [String], from originTable: String) throws
        -> [(origin: String, destination: String)]
    {
        guard origin.count == destination.count, !origin.isEmpty else {
            throw DatabaseError(
                message: "invalid foreign key from \(originTable) to \(tableName): "
                    + "\(origin.count) columns for \(destination.count) referenced columns")
        }
        return Array(zip(origin, destination)).map { (origin: $0.0, destination: $0.1) }
    }

    /// The only foreign key of `table` that references `referenced`.
    private func inferredForeignKey(_ db: Database, in table: String, to referenced: String, origin: String) throws
        -> ForeignKeyInfo
    {
        let candidates = try db.foreignKeys(on: table).filter {
            $0.destinationTable.lowercased() == referenced.lowercased()
        }
        switch candidates.count {
        case 1: return candidates[0]
        case 0:
            throw DatabaseError(
                message: "could not infer foreign key from \(origin) to \(tableName): "
                    + "no foreign key in table \(table) references \(referenced); use ForeignKey([...])")
        default:
            throw DatabaseError(
                message: "could not infer foreign key from \(origin) to \(tableName): "
                    + "\(candidates.count) foreign keys in table \(table) reference \(referenced); use ForeignKey([...])"
            )
        }
    }
}

/// An association, independent of its record types: the path from the origin table to the destination, the
/// key of its scope, and whether it reaches many rows.
struct SQLAssociation: Sendable {
    var key: String
    var isToMany: Bool
    /// Hops from the origin; pivot hops of `through` associations come first. Never empty.
    var steps: [AssociationStep]

    /// The destination request: filters, ordering and selection apply to it.
    var destination: QueryInterfaceRequest<Row> {
        get { steps[steps.count - 1].request }
        set { steps[steps.count - 1].request = newValue }
    }
}

extension SQLAssociation {
    /// This association and `other` (same key, same tables) as one: filters of both, orderings of both, nested
    /// associations merged, and the selection of `other` when `preferringSelectionOfOther`.
    func merged(with other: SQLAssociation, preferringSelectionOfOther: Bool) -> SQLAssociation {
        var result = self
        for index in result.steps.indices where index < other.steps.count {
            var request = result.steps[index].request
            let otherRequest = other.steps[index].request
            request.filters += otherRequest.filters
            request.orderings += otherRequest.orderings
            if preferringSelectionOfOther && index == result.steps.count - 1 {
                request.selection = otherRequest.selection
            }
            for join in otherRequest.associationJoins { request = request.appending(join) }
            result.steps[index].request = request
        }
        return result
    }
}

extension AssociationJoin {
    /// True for a join of an association with the key and the tables of `association`.
    func joinsSamePath(as association: SQLAssociation) -> Bool {
        guard case .join(_, _, let existing) = self, existing.key == association.key,
            existing.steps.count == association.steps.count
        else { return false }
        return zip(existing.steps, association.steps).allSatisfy { $0.tableName == $1.tableName }
    }
}

/// How a request uses an association.
enum AssociationJoin: Sendable {
    /// `JOIN` (required) or `LEFT JOIN` (optional); `isIncluded`: its columns are selected, in a row scope.
    case join(isRequired: Bool, isIncluded: Bool, association: SQLAssociation)
    /// `including(all:)`: one more query after the main one.
    case prefetch(SQLAssociation)
    /// The rows linked to given origin rows, walking the steps backwards from the destination (the request's
    /// own table): `author.request(for: Author.books)`, and the queries of `including(all:)`.
    case originKeys(OriginKeys)
}

/// The origin side of an `.originKeys` join.
struct OriginKeys: Sendable {
    /// The association's steps, from the origin.
    let steps: [AssociationStep]
    /// The origin table.
    let originTable: String
    /// Values of the origin row, by lower-cased column name (`request(for:)`).
    var originValues: [String: DatabaseValue] = [:]
    /// Key tuples of origin rows, in the order of the first step's origin columns (`including(all:)`).
    var keyTuples: [[DatabaseValue]]?
    /// Select the linking columns first, as `subdb_key_0`, ... (`including(all:)` groups rows by them).
    var selectsKeys = false
    /// The column pairs of the first step, when already resolved.
    var firstStepPairs: [(origin: String, destination: String)]?
}

/// English inflections for default association keys: `book` ↔ `books`, `category` ↔ `categories`.
enum Inflections {
    /// `author` → `authors`, `category` → `categories`, `box` → `boxes`; plural names are kept.
    static func pluralize(_ name: String) -> String {
        let singular = singularize(name)
        let lower = singular.lowercased()
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return singular.dropLast() + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return singular + "es" }
        return singular + "s"
    }

    /// `authors` → `author`, `categories` → `category`, `boxes` → `box`; singular names are kept.
    static func singularize(_ name: String) -> String {
        let lower = name.lowercased()
        if lower.hasSuffix("ies") && lower.count > 3 { return name.dropLast(3) + "y" }
        if ["sses", "xes", "zes", "ches", "shes"].contains(where: { lower.hasSuffix($0) }) {
            return String(name.dropLast(2))
        }
        if lower.hasSuffix("s") && !lower.hasSuffix("ss") && !lower.hasSuffix("us") && lower.count > 1 {
            return String(name.dropLast())
        }
        return name
    }
}
