import Foundation
import SubDB
import Synchronization

/// Collects the SQL a connection executes, through `Configuration.trace`.
final class SQLRecorder: Sendable {
    private let statements = Mutex<[String]>([])

    func record(_ sql: String) { statements.withLock { $0.append(sql) } }

    /// The statements recorded so far.
    var sql: [String] { statements.withLock { $0 } }

    /// Forgets the statements recorded so far.
    func clear() { statements.withLock { $0.removeAll() } }
}

/// A database file in a fresh temporary directory, with every executed statement recorded.
struct TestDatabase {
    let directory: TemporaryDirectory
    let recorder = SQLRecorder()
    let dbQueue: DatabaseQueue

    init(configuration: Configuration = Configuration()) throws {
        directory = try TemporaryDirectory()
        var configuration = configuration
        let recorder = self.recorder
        configuration.trace = { recorder.record($0) }
        dbQueue = try DatabaseQueue(path: directory.path("test.sqlite"), configuration: configuration)
    }

    /// The path of the database file.
    var path: String { directory.path("test.sqlite") }
}
