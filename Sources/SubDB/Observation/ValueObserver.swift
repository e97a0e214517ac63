import Dispatch
import Foundation
import Synchronization

extension ValueObservation where Value: Sendable {
    /// Starts the observation: `onChange` receives the initial value, then a fresh value after each committed
    /// transaction that modified the observed region. The first error stops the observation and goes to
    /// `onError`. The observation runs until the returned cancellable is cancelled or deallocated; it never
    /// keeps the database alive.
    ///
    ///     let cancellable = observation.start(
    ///         in: dbPool, scheduling: .async(onQueue: queue),
    ///         onError: { error in ... }, onChange: { value in ... })
    ///
    /// On a ``DatabasePool`` values are fetched from a reader after the commit, without blocking the writer; on
    /// a ``DatabaseQueue`` they are fetched on the connection's queue right after the commit.
    /// See ``ValueObservationScheduler`` for the default main queue on Linux.
    public func start(
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main),
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) -> AnyDatabaseCancellable {
        let observer = ValueObserver(
            observation: self, reader: reader, scheduler: scheduler, onError: onError, onChange: onChange)
        observer.start()
        return AnyDatabaseCancellable { observer.cancel() }
    }

    /// The values of the observation as an asynchronous sequence, ending when the iterating task is cancelled
    /// (which stops the observation) or with the first error.
    ///
    ///     for try await players in observation.values(in: dbPool) { print(players) }
    public func values(
        in reader: some DatabaseReader,
        bufferingPolicy: AsyncValueObservation<Value>.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Value> {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            self.start(
                in: reader, scheduling: .async(onQueue: DispatchQueue(label: "SubDB.ValueObservation.values")),
                onError: onError, onChange: onChange)
        }
    }
}

/// A started ``ValueObservation``: a transaction observer on the writer connection, and a serial queue that
/// fetches fresh values after the commits that modified the observed region.
///
/// `@unchecked Sendable`: the configuration is immutable; the mutable state lives in the `state` Mutex; the
/// database is referenced weakly and used only through its own `read`/`write` methods and queues.
final class ValueObserver<Value: Sendable>: TransactionObserver, @unchecked Sendable {
    private struct State {
        /// The observed region, nil until a fetch has told it.
        var region: DatabaseRegion?
        /// A fetch runs: its region is not known yet, so every change counts.
        var fetchInFlight = false
        /// A fetch is scheduled and has not started yet.
        var fetchPending = false
        /// The current transaction modified the region.
        var isDirty = false
        var isCancelled = false
    }

    private let regionMode: ValueObservation<Value>.RegionMode
    private let fetcher: ValueObservation<Value>.Fetcher
    private let events: ValueObservationEvents
    private let scheduler: any ValueObservationScheduler
    private let onError: @Sendable (any Error) -> Void
    private let onChange: @Sendable (Value) -> Void
    private weak var databaseQueue: DatabaseQueue?
    private weak var databasePool: DatabasePool?
    /// Fetches run here, one at a time, in commit order.
    private let fetchQueue = DispatchQueue(label: "SubDB.ValueObservation")
    private let state = Mutex(State())

    init(
        observation: ValueObservation<Value>, reader: some DatabaseReader, scheduler: any ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Value) -> Void
    ) {
        regionMode = observation.regionMode
        fetcher = observation.makeFetcher()
        events = observation.events
        self.scheduler = scheduler
        self.onError = onError
        self.onChange = onChange
        databaseQueue = reader as? DatabaseQueue
        databasePool = reader as? DatabasePool
    }

    // MARK: Starting and stopping

    func start() {
        events.willStart?()
        guard databaseQueue != nil || databasePool != nil else {
            fail(DatabaseError.misuse("ValueObservation needs a DatabaseQueue or a DatabasePool"), synchronously: true)
            return
        }
        state.withLock { $0.fetchPending = true }
        if scheduler.immediateInitialValue() {
            // Later fetches wait until the first value is delivered, here, on the caller's thread.
            fetchQueue.suspend()
            defer { fetchQueue.resume() }
            do {
                try writerSync { db in db.add(transactionObserver: self) }
            } catch {
                fail(error, synchronously: true)
                return
            }
            fetchAndNotify(synchronously: true)
        } else {
            // The observer is registered before the first fetch, so that no commit can be missed.
            writerAsync { db in
                db.add(transactionObserver: self)
                self.fetchQueue.async { self.fetchAndNotify(synchronously: false) }
            }
        }
    }

    func cancel() {
        let wasCancelled = state.withLock { state in
            defer { state.isCancelled = true }
            return state.isCancelled
        }
        if wasCancelled { return }
        events.didCancel?()
        writerAsync { db in db.remove(transactionObserver: self) }
    }

    private var isCancelled: Bool { state.withLock { $0.isCancelled } }

    // MARK: Database access

    private func writerSync(_ body: (Database) throws -> Void) throws {
        if let databaseQueue {
            try databaseQueue.writeWithoutTransaction(body)
        } else if let databasePool {
            try databasePool.writeWithoutTransaction(body)
        }
    }

    /// Runs `body` on the writer's queue, if the database still exists.
    private func writerAsync(_ body: @escaping @Sendable (Database) -> Void) {
        if let databaseQueue {
            databaseQueue.serialized.async { body(databaseQueue.serialized.database) }
        } else if let databasePool {
            databasePool.writer.async { body(databasePool.writer.database) }
        }
    }

    /// Fetches in a read access and returns the value (nil: skipped) and the region to observe next.
    private func fetch() throws -> (Value?, DatabaseRegion)? {
        if let databasePool { return try databasePool.read(fetch(in:)) }
        if let databaseQueue { return try databaseQueue.read(fetch(in:)) }
        return nil
    }

    /// Fetches with the given connection, in a read access, and returns the value and the region to observe.
    private func fetch(in db: Database) throws -> (Value?, DatabaseRegion) {
        let knownRegion = state.withLock { $0.region }
        let body = { (db: Database) throws -> (Value?, DatabaseRegion) in
            let (value, readRegion) = try db.observationBrokerCreatingIfNeeded().tracking { try self.fetcher(db) }
            switch self.regionMode {
            case .tracking:
                return (value, readRegion)
            case .constant:
                return (value, knownRegion ?? readRegion)
            case .declared(let regions):
                if let knownRegion { return (value, knownRegion) }
                var region = DatabaseRegion()
                for convertible in regions { region.formUnion(try convertible.databaseRegion(db)) }
                return (value, region)
            }
        }
        return try body(db)
    }

    /// On a ``DatabaseQueue``, fetches right after the commit, on the connection's queue (no thread hop, as
    /// GRDB does), when no other fetch is scheduled or running. Returns false when it did not fetch.
    private func fetchAfterCommitOnQueue(_ db: Database) -> Bool {
        // Only with a dispatch queue scheduler: another scheduler could run the user's closure on the connection's
        // queue, where a database access would deadlock.
        guard databaseQueue != nil, scheduler is AsyncValueObservationScheduler else { return false }
        let proceed = state.withLock { state -> Bool in
            if state.isCancelled || state.fetchPending || state.fetchInFlight || state.region == nil { return false }
            state.fetchInFlight = true
            return true
        }
        guard proceed else { return false }
        let result: (Value?, DatabaseRegion)
        do {
            result = try db.readOnly { try fetch(in: db) }
        } catch {
            state.withLock { $0.fetchInFlight = false }
            fail(error, synchronously: false)
            return true
        }
        publish(result, synchronously: false)
        return true
    }

    /// One fetch, then delivery. `synchronously`: the first value of `.immediate`, on the caller's thread.
    private func fetchAndNotify(synchronously: Bool) {
        let proceed = state.withLock { state -> Bool in
            state.fetchPending = false
            if state.isCancelled { return false }
            state.fetchInFlight = true
            return true
        }
        guard proceed else { return }
        let result: (Value?, DatabaseRegion)?
        do {
            result = try fetch()
        } catch {
            state.withLock { $0.fetchInFlight = false }
            fail(error, synchronously: synchronously)
            return
        }
        guard let result else { return }  // the database is gone
        publish(result, synchronously: synchronously)
    }

    /// Records the region of a fetch and delivers its value (unless skipped).
    private func publish(_ result: (Value?, DatabaseRegion), synchronously: Bool) {
        let (value, region) = result
        let regionChanged = state.withLock { state -> Bool in
            state.fetchInFlight = false
            defer { state.region = region }
            return state.region != region
        }
        if regionChanged { events.willTrackRegion?(region) }
        guard let value else { return }
        deliver(synchronously: synchronously) { self.onChange(value) }
    }

    /// Stops the observation, then reports the error (unless it was cancelled before).
    private func fail(_ error: any Error, synchronously: Bool) {
        let wasCancelled = state.withLock { $0.isCancelled }
        cancel()
        if wasCancelled { return }
        events.didFail?(error)
        if synchronously && scheduler.immediateInitialValue() {
            onError(error)
        } else {
            let onError = self.onError
            scheduler.schedule { onError(error) }
        }
    }

    /// Delivers a value on the scheduler, unless the observation is cancelled by then.
    private func deliver(synchronously: Bool, _ notify: @escaping @Sendable () -> Void) {
        if synchronously && scheduler.immediateInitialValue() {
            if !isCancelled { notify() }
        } else {
            scheduler.schedule { if !self.isCancelled { notify() } }
        }
    }

    private func scheduleFetch() {
        let schedule = state.withLock { state -> Bool in
            if state.isCancelled || state.fetchPending { return false }
            state.fetchPending = true
            return true
        }
        if schedule { fetchQueue.async { self.fetchAndNotify(synchronously: false) } }
    }

    // MARK: TransactionObserver (on the writer's queue)

    /// True when a change of this kind may modify the value.
    private func isObserved(_ kind: DatabaseEventKind, _ state: State) -> Bool {
        if state.isCancelled { return false }
        guard let region = state.region, !state.fetchInFlight else { return true }
        return region.isModified(byEventsOfKind: kind)
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        state.withLock { isObserved(eventKind, $0) }
    }

    func databaseDidChange(with event: DatabaseEvent) {
        state.withLock { state in
            if isObserved(event.eventKind, state) { state.isDirty = true }
        }
    }

    func databaseDidCommit(_ db: Database) {
        let modified = state.withLock { state -> Bool in
            defer { state.isDirty = false }
            return state.isDirty && !state.isCancelled
        }
        guard modified else { return }
        events.databaseDidChange?()
        if !fetchAfterCommitOnQueue(db) { scheduleFetch() }
    }

    func databaseDidRollback(_ db: Database) {
        state.withLock { $0.isDirty = false }
    }
}

/// The values of a ``ValueObservation`` as an `AsyncSequence`: each iteration starts the observation, and
/// stops it when the iterating task is cancelled or the iterator is released.
public struct AsyncValueObservation<Element: Sendable>: AsyncSequence, Sendable {
    /// How many values are kept while the iterating task is busy.
    public typealias BufferingPolicy = AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy

    typealias Start =
        @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void, _ onChange: @escaping @Sendable (Element) -> Void
        ) -> AnyDatabaseCancellable

    private let bufferingPolicy: BufferingPolicy
    private let startObservation: Start

    init(bufferingPolicy: BufferingPolicy, start: @escaping Start) {
        self.bufferingPolicy = bufferingPolicy
        self.startObservation = start
    }

    /// Starts the observation.
    public func makeAsyncIterator() -> Iterator {
        let stream = AsyncThrowingStream<Element, any Error>(bufferingPolicy: bufferingPolicy) { continuation in
            let cancellable = startObservation(
                { error in continuation.finish(throwing: error) },
                { value in continuation.yield(value) })
            continuation.onTermination = { _ in cancellable.cancel() }
        }
        return Iterator(base: stream.makeAsyncIterator())
    }

    /// Iterates the values.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator

        /// The next value; nil once the task is cancelled.
        public mutating func next() async throws -> Element? {
            try await base.next()
        }
    }
}
