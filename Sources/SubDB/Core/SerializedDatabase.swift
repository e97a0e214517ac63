import Dispatch
import Foundation
import Synchronization

/// A connection and the serial dispatch queue that is the only place it is used.
///
/// Not Sendable itself: it is owned by a ``DatabaseQueue`` or ``DatabasePool``, which are.
final class SerializedDatabase {
    let database: Database
    private let queue: DispatchQueue
    /// The thread running on the queue, to detect reentrant calls. Not a queue-specific value: libdispatch frees
    /// those on a worker thread, so releasing the queue would start two threads (about 1 ms of a short command).
    private let owner = QueueOwner()

    init(path: String, configuration: Configuration, label: String, flags: Int32) throws {
        queue = DispatchQueue(label: label)
        // Opening runs on the queue so that the connection only ever lives there.
        let owner = self.owner
        database = try queue.sync {
            try owner.run { try Database(path: path, configuration: configuration, label: label, flags: flags) }
        }
    }

    /// True when called from a closure of this connection.
    var isOnQueue: Bool { owner.isCurrentThread }

    /// Runs `body` on the queue, blocking; a reentrant call throws.
    @inline(__always)
    func sync<T>(_ body: (Database) throws -> T) throws -> T {
        if isOnQueue {
            throw DatabaseError.misuse(
                "Database methods are not reentrant: use the `db` argument of the enclosing read or write closure")
        }
        return try queue.sync { try owner.run { try body(database) } }
    }

    /// Runs `body` on the queue, or right away when already on it.
    func reentrantSync<T>(_ body: (Database) throws -> T) throws -> T {
        if isOnQueue { return try body(database) }
        return try queue.sync { try owner.run { try body(database) } }
    }

    /// Runs `body` on the queue, blocking, and rethrows only its errors; the caller has checked `isOnQueue`.
    func blockingSync<T>(_ body: (Database) throws -> T) rethrows -> T {
        try queue.sync { try owner.run { try body(database) } }
    }

    /// Runs `body` later, on the queue.
    func async(_ body: @escaping @Sendable () -> Void) {
        queue.async { [owner] in owner.run(body) }
    }
}

/// Which thread, if any, runs a serial queue's work item now.
private final class QueueOwner: Sendable {
    private let thread = Atomic<UInt>(0)

    /// True on the thread running the queue's current work item. A thread only ever reads its own identifier
    /// here after it stored it, and it clears it before it leaves the queue.
    var isCurrentThread: Bool { thread.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Runs `body`, marking the calling thread as the queue's.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        thread.store(UInt(pthread_self()), ordering: .relaxed)
        defer { thread.store(0, ordering: .relaxed) }
        return try body()
    }
}
