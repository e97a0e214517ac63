import Dispatch
import Foundation
import SubDB
import Synchronization

/// The two kinds of database an observation runs on.
enum WriterKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case queue, pool
    var description: String { rawValue }
}

/// A database file of the given kind in a fresh temporary directory, with a `player` and a `team` table.
struct ObservedDatabase {
    let directory: TemporaryDirectory
    let writer: any DatabaseWriter

    init(_ kind: WriterKind) throws {
        directory = try TemporaryDirectory()
        let path = directory.path("observed.sqlite")
        switch kind {
        case .queue: writer = try DatabaseQueue(path: path)
        case .pool: writer = try DatabasePool(path: path)
        }
        try writer.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    """)
        }
    }
}

/// Collects the values and errors an observation delivers, from any thread.
final class Collector<Value: Sendable>: Sendable {
    private let storage = Mutex<(values: [Value], errors: [String])>(([], []))

    func append(_ value: Value) { storage.withLock { $0.values.append(value) } }
    func fail(_ error: any Error) { storage.withLock { $0.errors.append(String(describing: error)) } }

    var values: [Value] { storage.withLock { $0.values } }
    var errors: [String] { storage.withLock { $0.errors } }

    /// Waits (up to a generous timeout, only to avoid hanging) until `count` values arrived.
    @discardableResult
    func wait(forCount count: Int, timeout: TimeInterval = 20) -> [Value] {
        waitUntil(timeout: timeout) { self.values.count >= count || !self.errors.isEmpty }
        return values
    }
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it holds.
@discardableResult
func waitUntil(timeout: TimeInterval = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { return false }
        usleep(1000)
    }
    return true
}

/// Waits until everything queued so far on `queue` has run.
func drain(_ queue: DispatchQueue) {
    queue.sync {}
}
