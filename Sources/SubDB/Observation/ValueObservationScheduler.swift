import Dispatch

/// Where a ``ValueObservation`` delivers its values.
///
/// The default is `.async(onQueue: .main)`, as in GRDB. On Linux the main queue only runs when the main thread
/// services it (`dispatchMain()`, a run loop, or a Swift concurrency main actor): command-line tools and tests
/// should pass their own queue, or `.immediate`.
public enum ValueObservationScheduler: Sendable {
    /// Every value, the first one included, is delivered asynchronously on `queue`.
    case async(onQueue: DispatchQueue)
    /// The first value is delivered synchronously, on the thread that starts the observation, before
    /// `start` returns; the next values on the observation's own serial queue.
    case immediate
}
