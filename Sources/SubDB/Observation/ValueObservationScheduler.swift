import Dispatch

/// Where and when a ``ValueObservation`` delivers its values, as in GRDB: `.async(onQueue:)`, `.immediate`, or a
/// type of your own (a test recorder, for example).
///
/// The default is `.async(onQueue: .main)`, as in GRDB. On Linux the main queue only runs when the main thread
/// services it (`dispatchMain()`, a run loop, or a Swift concurrency main actor): command-line tools and tests
/// should pass their own queue, or `.immediate`.
///
///     struct InlineScheduler: ValueObservationScheduler {
///         func immediateInitialValue() -> Bool { true }
///         func schedule(_ action: @escaping @Sendable () -> Void) { action() }
///     }
public protocol ValueObservationScheduler: Sendable {
    /// True when the first value must be delivered synchronously, by `start`, on the thread that starts the
    /// observation; the other values (and the initial one otherwise) go through ``schedule(_:)``.
    func immediateInitialValue() -> Bool

    /// Runs `action`, which delivers one value or error, now or later, on a thread of the scheduler's choice.
    /// Actions must run in the order they are scheduled.
    func schedule(_ action: @escaping @Sendable () -> Void)
}

/// Delivers every value, the first one included, asynchronously on a dispatch queue (`.async(onQueue:)`).
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
    /// The queue values are delivered on.
    public let queue: DispatchQueue

    /// A scheduler that delivers on `queue`.
    public init(queue: DispatchQueue) { self.queue = queue }

    /// False: the first value is asynchronous too.
    public func immediateInitialValue() -> Bool { false }

    /// `queue.async(execute: action)`.
    public func schedule(_ action: @escaping @Sendable () -> Void) { queue.async(execute: action) }
}

/// Delivers the first value synchronously, before `start` returns, and the next values on the observation's
/// own serial queue (`.immediate`). GRDB delivers the next values on the main queue, which Linux command-line
/// tools do not service.
public struct ImmediateValueObservationScheduler: ValueObservationScheduler {
    /// The immediate scheduler.
    public init() {}

    /// True.
    public func immediateInitialValue() -> Bool { true }

    /// Runs `action` at once, on the observation's queue.
    public func schedule(_ action: @escaping @Sendable () -> Void) { action() }
}

extension ValueObservationScheduler where Self == AsyncValueObservationScheduler {
    /// Every value, the first one included, is delivered asynchronously on `queue`.
    public static func async(onQueue queue: DispatchQueue) -> AsyncValueObservationScheduler {
        AsyncValueObservationScheduler(queue: queue)
    }
}

extension ValueObservationScheduler where Self == ImmediateValueObservationScheduler {
    /// The first value is delivered synchronously, on the thread that starts the observation, before `start`
    /// returns; the next values on the observation's own serial queue.
    public static var immediate: ImmediateValueObservationScheduler { ImmediateValueObservationScheduler() }
}
