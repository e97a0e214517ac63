import Synchronization

/// Something that can be stopped for good, such as a started ``ValueObservation``.
public protocol DatabaseCancellable: Sendable {
    /// Stops. Calling it again does nothing.
    func cancel()
}

/// A type-erased cancellable that cancels when it is deallocated: keep it as long as you want the
/// observation to run.
///
///     let cancellable = observation.start(in: dbQueue, onError: { _ in }, onChange: { print($0) })
///     cancellable.cancel()   // or let it go out of scope
public final class AnyDatabaseCancellable: DatabaseCancellable {
    private let cancelAction: Mutex<(@Sendable () -> Void)?>

    /// A cancellable that runs `cancel` once.
    public init(cancel: @escaping @Sendable () -> Void) {
        cancelAction = Mutex(cancel)
    }

    /// Wraps another cancellable.
    public convenience init(_ cancellable: some DatabaseCancellable) {
        self.init(cancel: { cancellable.cancel() })
    }

    deinit { cancel() }

    /// Runs the cancel action the first time only.
    public func cancel() {
        let action = cancelAction.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }
}
