import Foundation
import SubDB

/// Records the SQL (with `?` placeholders) a connection runs, through `db.trace`.
final class TracedSQL {
    private(set) var statements: [String] = []

    /// Starts tracing `db` into this recorder.
    init(_ db: Database) {
        db.trace { event in
            guard case .statement(let statement) = event else { return }
            // Schema introspection (primary keys, columns) is cached by the connection: not what tests check.
            if statement.sql.hasPrefix("PRAGMA") || statement.sql.contains("FROM sqlite_master") { return }
            self.statements.append(statement.sql)
        }
    }

    /// The last statement, or "".
    var last: String { statements.last ?? "" }

    /// Forgets what was recorded.
    func clear() { statements.removeAll() }
}

/// An in-memory queue with the seeds' player table.
func makePlayerDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("score", .integer).notNull()
        }
    }
    return dbQueue
}

/// The seeds' mutable player: auto-incremented id set by `didInsert`.
struct Player: Codable, Equatable, Hashable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
