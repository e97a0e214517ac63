import Foundation

/// Applies schema migrations in order, each exactly once, each in its own transaction. Applied migrations are
/// recorded in the `grdb_migrations` table.
///
///     var migrator = DatabaseMigrator()
///     migrator.registerMigration("v1") { db in
///         try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
///     }
///     migrator.registerMigration("v2") { db in
///         try db.execute(sql: "ALTER TABLE player ADD COLUMN score INTEGER")
///     }
///     try migrator.migrate(dbQueue)
///
/// The configuration's ``Configuration/schemaSource`` is off while migrations run, as in GRDB.
///
/// By default foreign keys are disabled while a migration runs, and `PRAGMA foreign_key_check` runs before
/// its commit: a violation throws `SQLITE_CONSTRAINT_FOREIGNKEY` and rolls the migration back.
public struct DatabaseMigrator: Sendable {
    /// When a migration checks foreign keys.
    public enum ForeignKeyChecks: Sendable {
        /// Foreign keys off during the migration, checked once before commit (the default).
        case deferred
        /// Foreign keys stay on: each statement is checked as it runs.
        case immediate
    }

    struct Migration: Sendable {
        let identifier: String
        let foreignKeyChecks: ForeignKeyChecks
        /// False after `disablingDeferredForeignKeyChecks()`: a deferred migration does not check for violations.
        var checksDeferredForeignKeys = true
        let migrate: @Sendable (Database) throws -> Void
    }

    private(set) var migrations: [Migration] = []
    /// Whether migrations registered from now on check foreign keys at their end.
    private var checksDeferredForeignKeys = true

    /// When true, the database is erased and migrated again whenever a registered migration no longer
    /// produces the schema that the database holds (for development: you lose the data).
    public var eraseDatabaseOnSchemaChange = false

    /// An empty migrator.
    public init() {}

    /// The identifiers of the registered migrations, in order.
    public var migrationIdentifiers: [String] { migrations.map(\.identifier) }

    /// Registers a migration. Registering an identifier twice is a programmer error.
    public mutating func registerMigration(
        _ identifier: String, foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void
    ) {
        precondition(
            !migrations.contains { $0.identifier == identifier }, "Duplicate migration identifier: \(identifier)")
        migrations.append(
            Migration(
                identifier: identifier, foreignKeyChecks: foreignKeyChecks,
                checksDeferredForeignKeys: checksDeferredForeignKeys, migrate: migrate))
    }

    /// A migrator whose migrations registered from now on run with foreign keys off and do not look for
    /// violations when they end, as GRDB's (faster for large migrations you trust).
    public func disablingDeferredForeignKeyChecks() -> DatabaseMigrator {
        var migrator = self
        migrator.checksDeferredForeignKeys = false
        return migrator
    }

    // MARK: Migrating

    /// Applies every registered migration that has not been applied yet.
    public func migrate(_ writer: some DatabaseWriter) throws {
        guard let last = migrations.last else { return }
        try migrate(writer, upTo: last.identifier)
    }

    /// Applies the registered migrations up to and including `targetIdentifier`. Throws when the identifier is
    /// not registered, or when the database has already been migrated past it.
    public func migrate(_ writer: some DatabaseWriter, upTo targetIdentifier: String) throws {
        guard let targetIndex = migrations.firstIndex(where: { $0.identifier == targetIdentifier }) else {
            throw DatabaseError.misuse("undefined migration: \(targetIdentifier.debugDescription)")
        }
        try writer.barrierWriteWithoutTransaction { db in
            // As in GRDB, the configuration's schema source is off: a migration that needs one uses
            // `db.withSchemaSource(_:execute:)`.
            try db.withoutConfigurationSchemaSource {
                if eraseDatabaseOnSchemaChange, try needsErase(db) {
                    try db.eraseSchema()
                }
                let applied = try appliedIdentifiers(db)
                if let lastApplied = migrations.lastIndex(where: { applied.contains($0.identifier) }),
                    lastApplied > targetIndex
                {
                    throw DatabaseError.misuse(
                        "database is already migrated beyond migration \(targetIdentifier.debugDescription)")
                }
                for migration in migrations[...targetIndex] where !applied.contains(migration.identifier) {
                    try run(migration, in: db)
                }
            }
        }
    }

    /// Runs one migration in its own transaction and records it.
    private func run(_ migration: Migration, in db: Database) throws {
        let foreignKeysOn = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        let disableForeignKeys = migration.foreignKeyChecks == .deferred && foreignKeysOn
        if disableForeignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        defer { if disableForeignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
        try db.inTransaction(.immediate) {
            try createMigrationsTable(db)
            // Another process may have applied it since `appliedIdentifiers` was read: the immediate transaction
            // waited for its write lock (busy timeout), so look again before running it.
            let done = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = ?)",
                arguments: [migration.identifier])
            if done == true { return .commit }
            try migration.migrate(db)
            if migration.checksDeferredForeignKeys, migration.foreignKeyChecks == .deferred || disableForeignKeys {
                if let violation = try db.foreignKeyViolations().first {
                    throw DatabaseError(
                        resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY,
                        message: "\(violation.description) (migration \(migration.identifier.debugDescription))")
                }
            }
            try db.execute(
                sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
            return .commit
        }
    }

    private func createMigrationsTable(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    }

    /// True when the database holds migrations this migrator does not know, or a schema that the applied
    /// registered migrations no longer produce.
    private func needsErase(_ db: Database) throws -> Bool {
        let applied = try appliedIdentifiers(db)
        if applied.isEmpty { return false }
        if applied.contains(where: { id in !migrations.contains { $0.identifier == id } }) { return true }
        let scratch = try DatabaseQueue()
        var replay = DatabaseMigrator()
        for migration in migrations where applied.contains(migration.identifier) {
            replay.migrations.append(migration)
        }
        try replay.migrate(scratch)
        let expected = try scratch.read { try schemaSignature($0) }
        return try schemaSignature(db) != expected
    }

    /// The schema as a comparable list of (type, name, table, sql).
    private func schemaSignature(_ db: Database) throws -> [String] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT type, name, tbl_name, sql FROM sqlite_master
                WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name
                """
        ).map { row in
            let parts: [String?] = [row["type"], row["name"], row["tbl_name"], row["sql"]]
            return parts.map { $0 ?? "" }.joined(separator: "\u{1}")
        }
    }

    // MARK: Inspecting

    /// The identifiers recorded in `grdb_migrations`, registered or not.
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
    }

    /// The registered migrations that have been applied, in registration order.
    public func appliedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return migrations.map(\.identifier).filter { applied.contains($0) }
    }

    /// The registered migrations applied with all the migrations registered before them, in order.
    public func completedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return Array(migrations.map(\.identifier).prefix { applied.contains($0) })
    }

    /// True when every registered migration has been applied.
    public func hasCompletedMigrations(_ db: Database) throws -> Bool {
        try completedMigrations(db).count == migrations.count
    }

    /// True when the database holds migrations that this migrator does not know: it was migrated by a newer
    /// version of the application.
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        let known = Set(migrations.map(\.identifier))
        return try appliedIdentifiers(db).contains { !known.contains($0) }
    }
}
