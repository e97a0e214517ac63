/// The column values of a record, filled by `EncodableRecord.encode(to:)` and used to build INSERT and UPDATE.
///
///     func encode(to container: inout PersistenceContainer) {
///         container["id"] = id
///         container["name"] = name
///     }
public struct PersistenceContainer: Sendable {
    /// The column names, in encoding order.
    public private(set) var columns: [String] = []
    /// The values, parallel to `columns`.
    public private(set) var databaseValues: [DatabaseValue] = []

    /// An empty container.
    public init() {}

    init(minimumCapacity: Int) {
        columns.reserveCapacity(minimumCapacity)
        databaseValues.reserveCapacity(minimumCapacity)
    }

    /// The value of a column (exact name), nil when absent or NULL; setting nil stores NULL.
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get {
            guard let index = columns.firstIndex(of: column) else { return nil }
            let value = databaseValues[index]
            return value.isNull ? nil : value
        }
        set { setValue(newValue?.databaseValue ?? .null, forColumn: column) }
    }

    /// The value of a column looked up without regard to case.
    public subscript(caseInsensitive column: String) -> (any DatabaseValueConvertible)? {
        get {
            guard let index = index(ofCaseInsensitive: column) else { return nil }
            let value = databaseValues[index]
            return value.isNull ? nil : value
        }
        set {
            if let index = index(ofCaseInsensitive: column) {
                databaseValues[index] = newValue?.databaseValue ?? .null
            } else {
                setValue(newValue?.databaseValue ?? .null, forColumn: column)
            }
        }
    }

    /// The value of a column.
    public subscript(_ column: some CodingKey) -> (any DatabaseValueConvertible)? {
        get { self[column.stringValue] }
        set { self[column.stringValue] = newValue }
    }

    /// The number of columns.
    public var count: Int { columns.count }

    /// Whether the container has no column.
    public var isEmpty: Bool { columns.isEmpty }

    /// Sets a value, replacing the value of a column already present.
    @inline(__always)
    mutating func setValue(_ value: DatabaseValue, forColumn column: String) {
        for index in columns.indices where columns[index] == column {
            databaseValues[index] = value
            return
        }
        columns.append(column)
        databaseValues.append(value)
    }

    func index(ofCaseInsensitive column: String) -> Int? {
        if let index = columns.firstIndex(of: column) { return index }
        let lowercased = column.lowercased()
        return columns.firstIndex { $0.lowercased() == lowercased }
    }

    /// The database value of a column, case-insensitively, nil when the column is absent.
    func databaseValue(caseInsensitive column: String) -> DatabaseValue? {
        index(ofCaseInsensitive: column).map { databaseValues[$0] }
    }

    /// The container as a row.
    public var row: Row {
        Row(columnNames: columns, databaseValues: databaseValues)
    }
}

/// What a successful insert tells `didInsert(_:)`: the new rowid and the values that were inserted.
///
///     mutating func didInsert(_ inserted: InsertionSuccess) {
///         id = inserted.rowID
///     }
public struct InsertionSuccess: Sendable {
    /// The rowid of the inserted row.
    public var rowID: Int64
    /// The column that aliases the rowid (an `INTEGER PRIMARY KEY`), if any.
    public var rowIDColumn: String?
    /// The inserted values, with the rowid column set to `rowID`.
    public var persistenceContainer: PersistenceContainer
}

/// What a successful insert or update tells `didSave(_:)` and `didUpdate(_:)`.
public struct PersistenceSuccess: Sendable {
    /// The saved values.
    public var persistenceContainer: PersistenceContainer

    /// Creates a success from saved values.
    public init(persistenceContainer: PersistenceContainer) { self.persistenceContainer = persistenceContainer }

    init(_ inserted: InsertionSuccess) { persistenceContainer = inserted.persistenceContainer }
}

/// Conflict policy of a record type: `INSERT OR REPLACE` and such, applied when `onConflict` is not given.
public struct PersistenceConflictPolicy: Sendable {
    /// The conflict resolution of inserts, nil for SQLite's default.
    public var conflictResolutionForInsert: Database.ConflictResolution?
    /// The conflict resolution of updates, nil for SQLite's default.
    public var conflictResolutionForUpdate: Database.ConflictResolution?

    /// Creates a policy.
    public init(insert: Database.ConflictResolution? = nil, update: Database.ConflictResolution? = nil) {
        conflictResolutionForInsert = insert
        conflictResolutionForUpdate = update
    }
}
