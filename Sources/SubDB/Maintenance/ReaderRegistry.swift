import Synchronization

/// The reader connections of a ``DatabasePool``, held weakly, so that `interrupt()` reaches the busy ones too.
///
/// `@unchecked Sendable`: the list is only touched under the `lock` Mutex; a reader is only touched (by `sqlite3_interrupt`, which
/// is thread-safe) while a strong reference taken under the lock keeps it open.
final class ReaderRegistry: @unchecked Sendable {
    private struct WeakReader {
        weak var database: Database?
    }

    private let lock = Mutex<Void>(())
    private var readers: [WeakReader] = []

    /// Registers a new reader and returns it.
    func register(_ database: Database) -> Database {
        lock.withLock { _ in
            readers.removeAll { $0.database == nil }
            readers.append(WeakReader(database: database))
        }
        return database
    }

    /// Runs `body` on every live reader, under the lock.
    func forEach(_ body: (Database) -> Void) {
        lock.withLock { _ in
            for reader in readers {
                if let database = reader.database { body(database) }
            }
        }
    }
}
