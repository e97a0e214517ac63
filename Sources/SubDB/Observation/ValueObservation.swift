import Dispatch

/// A value fetched from the database, fetched again after each committed transaction that modifies what it
/// read. As in GRDB, it is a description: nothing happens until it is started.
///
///     let observation = ValueObservation.tracking { db in
///         try Player.order(Column("score").desc).fetchAll(db)
///     }
///     let cancellable = observation.start(
///         in: dbQueue, scheduling: .async(onQueue: myQueue),
///         onError: { error in print(error) },
///         onChange: { players in print("fresh players: \(players)") })
///
///     for try await players in observation.values(in: dbPool) { ... }
///
/// The tracked region comes from SQLite's authorizer: the tables and columns the statements of the fetch
/// read. Transactions that are rolled back, and writes to other tables or columns, notify nothing.
public struct ValueObservation<Value>: Sendable {
    /// A fetch that may skip a value (returns nil), made fresh for each start because it may keep state.
    typealias Fetcher = @Sendable (Database) throws -> Value?

    enum RegionMode: Sendable {
        /// The region read by the latest fetch.
        case tracking
        /// The region read by the first fetch.
        case constant
        /// A declared region.
        case declared([any DatabaseRegionConvertible])
    }

    let regionMode: RegionMode
    let makeFetcher: @Sendable () -> Fetcher
    let events: ValueObservationEvents

    init(
        regionMode: RegionMode, events: ValueObservationEvents = ValueObservationEvents(),
        makeFetcher: @escaping @Sendable () -> Fetcher
    ) {
        self.regionMode = regionMode
        self.events = events
        self.makeFetcher = makeFetcher
    }

    /// Observes the value returned by `fetch`, refreshed whenever the tables and columns it read change. The
    /// region is recomputed at each fetch, so conditional reads are tracked correctly.
    public static func tracking(_ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation {
        ValueObservation(regionMode: .tracking) { { db in try fetch(db) } }
    }

    /// Observes `fetch`, refreshed whenever the region its first fetch read changes. Cheaper than
    /// ``tracking(_:)``, for fetches that always read the same tables and columns.
    public static func trackingConstantRegion(_ fetch: @escaping @Sendable (Database) throws -> Value)
        -> ValueObservation
    {
        ValueObservation(regionMode: .constant) { { db in try fetch(db) } }
    }

    /// Observes `fetch`, refreshed whenever the declared region changes:
    /// `tracking(region: Player.all(), Table("team")) { db in ... }`.
    public static func tracking(
        region: any DatabaseRegionConvertible..., fetch: @escaping @Sendable (Database) throws -> Value
    ) -> ValueObservation {
        tracking(regions: region, fetch: fetch)
    }

    /// Observes `fetch`, refreshed whenever one of the declared regions changes.
    public static func tracking(
        regions: [any DatabaseRegionConvertible], fetch: @escaping @Sendable (Database) throws -> Value
    ) -> ValueObservation {
        ValueObservation(regionMode: .declared(regions)) { { db in try fetch(db) } }
    }

    // MARK: Transforming

    /// Transforms each value: `observation.map(\.count)`.
    public func map<T>(_ transform: @escaping @Sendable (Value) throws -> T) -> ValueObservation<T> {
        let make = makeFetcher
        return ValueObservation<T>(regionMode: regionMode.converted(), events: events) {
            let fetcher = make()
            return { db in try fetcher(db).map(transform) }
        }
    }

    /// Skips values equal to the previous one, by `isDuplicate`.
    public func removeDuplicates(by isDuplicate: @escaping @Sendable (Value, Value) -> Bool) -> ValueObservation {
        let make = makeFetcher
        return ValueObservation(regionMode: regionMode, events: events) {
            let fetcher = make()
            let last = LastValue<Value>()
            return { db in
                guard let value = try fetcher(db) else { return nil }
                if let previous = last.value, isDuplicate(previous, value) { return nil }
                last.value = value
                return value
            }
        }
    }

    /// Reports the steps of the observation, for logging and tests. `didReceiveValue` gets the values that
    /// are about to be delivered.
    public func handleEvents(
        willStart: (@Sendable () -> Void)? = nil,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)? = nil,
        databaseDidChange: (@Sendable () -> Void)? = nil,
        didReceiveValue: (@Sendable (Value) -> Void)? = nil,
        didFail: (@Sendable (any Error) -> Void)? = nil,
        didCancel: (@Sendable () -> Void)? = nil
    ) -> ValueObservation {
        var events = self.events
        events.willStart = events.willStart.chained(willStart)
        events.willTrackRegion = events.willTrackRegion.chained(willTrackRegion)
        events.databaseDidChange = events.databaseDidChange.chained(databaseDidChange)
        events.didFail = events.didFail.chained(didFail)
        events.didCancel = events.didCancel.chained(didCancel)
        let make = makeFetcher
        return ValueObservation(regionMode: regionMode, events: events) {
            let fetcher = make()
            guard let didReceiveValue else { return fetcher }
            return { db in
                let value = try fetcher(db)
                if let value { didReceiveValue(value) }
                return value
            }
        }
    }
}

extension ValueObservation where Value: Equatable & Sendable {
    /// Skips values equal to the previous one: only changes are notified.
    public func removeDuplicates() -> ValueObservation { removeDuplicates { $0 == $1 } }
}

extension ValueObservation.RegionMode {
    /// The same mode for another value type.
    func converted<T>() -> ValueObservation<T>.RegionMode {
        switch self {
        case .tracking: return .tracking
        case .constant: return .constant
        case .declared(let regions): return .declared(regions)
        }
    }
}

/// The event handlers of ``ValueObservation/handleEvents(willStart:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``
/// that do not depend on the value type.
struct ValueObservationEvents: Sendable {
    var willStart: (@Sendable () -> Void)?
    var willTrackRegion: (@Sendable (DatabaseRegion) -> Void)?
    var databaseDidChange: (@Sendable () -> Void)?
    var didFail: (@Sendable (any Error) -> Void)?
    var didCancel: (@Sendable () -> Void)?
}

extension Optional where Wrapped == @Sendable () -> Void {
    fileprivate func chained(_ next: (@Sendable () -> Void)?) -> (@Sendable () -> Void)? {
        guard let self else { return next }
        guard let next else { return self }
        return {
            self(); next()
        }
    }
}

extension Optional {
    fileprivate func chained<A>(_ next: (@Sendable (A) -> Void)?) -> (@Sendable (A) -> Void)?
    where Wrapped == @Sendable (A) -> Void {
        guard let self else { return next }
        guard let next else { return self }
        return {
            self($0); next($0)
        }
    }
}

/// The last value of `removeDuplicates`. `@unchecked Sendable`: only the observation's fetches touch it, and
/// they run one at a time (on the observation's serial queue, or before it is resumed).
final class LastValue<Value>: @unchecked Sendable {
    var value: Value?
}
