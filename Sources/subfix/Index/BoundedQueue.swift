import Dispatch
import Synchronization

/// A first-in first-out queue holding at most `capacity` elements: producers wait while it is full, so memory
/// stays flat however fast they are. `close()` ends it once the producers are done.
final class BoundedQueue<Element: Sendable>: Sendable {
    private let state = Mutex<(items: [Element], head: Int, closed: Bool)>(([], 0, false))
    private let slots: DispatchSemaphore
    private let available = DispatchSemaphore(value: 0)

    /// A queue of at most `capacity` (at least 1) elements.
    init(capacity: Int) {
        slots = DispatchSemaphore(value: max(1, capacity))
    }

    /// Adds an element, waiting for room.
    func put(_ element: Element) {
        slots.wait()
        state.withLock { $0.items.append(element) }
        available.signal()
    }

    /// No more elements will be put.
    func close() {
        state.withLock { $0.closed = true }
        available.signal()
    }

    /// The next element, waiting for one; nil once the queue is closed and empty.
    func take() -> Element? {
        available.wait()
        return next()
    }

    /// The next element if one is there right now (never waits).
    func poll() -> Element? {
        guard available.wait(timeout: .now()) == .success else { return nil }
        return next()
    }

    private func next() -> Element? {
        let element: Element? = state.withLock { state in
            guard state.head < state.items.count else {
                return nil
            }
            let element = state.items[state.head]
            state.head += 1
            if state.head > 64 && state.head * 2 > state.items.count {
                state.items.removeFirst(state.head)
                state.head = 0
            }
            return element
        }
        if element != nil {
            slots.signal()
        } else {
            available.signal()  // closed: let the next taker see it too
        }
        return element
    }
}
