import Dispatch
import Foundation

/// A connection and the serial dispatch queue that is the only place it is used.
///
/// Not Sendable itself: it is owned by a ``DatabaseQueue`` or ``DatabasePool``, which are.
final class SerializedDatabase {
    let database: Database
    let queue: DispatchQueue
    /// Marks the queue, to detect reentrant calls.
    private let key = DispatchSpecificKey<ObjectIdentifier>()

    init(path: String, configuration: Configuration, label: String, flags: Int32) throws {
        queue = DispatchQueue(label: label)
        let key = self.key
        queue.setSpecific(key: key, value: ObjectIdentifier(queue))
        // Opening runs on the queue so that the connection only ever lives there.
        database = try queue.sync {
            try Database(path: path, configuration: configuration, label: label, flags: flags)
        }
    }

    /// True when called from a closure of this connection.
    var isOnQueue: Bool {
        DispatchQueue.getSpecific(key: key) == ObjectIdentifier(queue)
    }

    /// Runs `body` on the queue, blocking; a reentrant call throws.
    @inline(__always)
    func sync<T>(_ body: (Database) throws -> T) throws -> T {
        if isOnQueue {
            throw DatabaseError.misuse(
                "Database methods are not reentrant: use the `db` argument of the enclosing read or write closure")
        }
        return try queue.sync { try body(database) }
    }

    /// Runs `body` on the queue, or right away when already on it.
    func reentrantSync<T>(_ body: (Database) throws -> T) throws -> T {
        if isOnQueue { return try body(database) }
        return try queue.sync { try body(database) }
    }
}
