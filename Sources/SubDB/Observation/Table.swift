/// A database table named at runtime, for regions and requests on tables without a record type.
///
///     ValueObservation.tracking(region: Table("player")) { db in try Int.fetchOne(db, sql: "...") }
///     let rows = try Table("player").all().fetchAll(db)   // [Row]
public struct Table<RowDecoder>: DatabaseRegionConvertible, Sendable {
    /// The table name.
    public let tableName: String

    /// A table whose requests fetch rows.
    public init(_ tableName: String) where RowDecoder == Row {
        self.tableName = tableName
    }

    /// A table whose requests fetch `type`.
    public init(_ tableName: String, type: RowDecoder.Type) {
        self.tableName = tableName
    }

    /// A request for all rows of the table: `SELECT * FROM "player"`.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(tableName: tableName, selection: [AllColumns().sqlSelection])
    }

    /// The whole table.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(table: tableName)
    }
}
