extension Table: DatabaseRegionConvertible {
    /// The whole table: `ValueObservation.tracking(region: Table("player")) { db in ... }`.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(table: tableName)
    }
}
