import Synchronization

/// One message libass reported through its callback, with its level (0 fatal ... 7 debug; 2 warnings,
/// 4 info, 6 verbose).
public struct AssMessage: Sendable, Hashable {
    /// libass's `MSGL_*` level.
    public var level: Int
    /// The formatted text.
    public var text: String

    /// A message at `level`.
    public init(level: Int, text: String) {
        self.level = level
        self.text = text
    }
}

/// Where the C message sink appends; read and cleared by the owner. Guarded by a mutex because libass may
/// report from whichever thread calls into it.
final class AssMessageLog: Sendable {
    private let messages = Mutex<[AssMessage]>([])

    func append(_ message: AssMessage) { messages.withLock { $0.append(message) } }

    /// Removes and returns the messages that match `predicate`, keeping the others.
    func take(where predicate: (AssMessage) -> Bool) -> [AssMessage] {
        messages.withLock { list in
            let taken = list.filter(predicate)
            list.removeAll(where: predicate)
            return taken
        }
    }

    /// Returns the messages logged so far and forgets them.
    func drain() -> [AssMessage] {
        messages.withLock { list in
            defer { list.removeAll() }; return list
        }
    }
}
