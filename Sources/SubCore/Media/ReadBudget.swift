import Glibc
import Synchronization

/// How fast a whole run may read media files (`--max-read-rate 50M`), shared by every file and thread of the
/// run, and a count of what was read, for a throughput report. A library on network storage is read at no more
/// than the rate over the run: each read waits until the run is no longer ahead of it.
///
///     let budget = ReadBudget(bytesPerSecond: 50_000_000)
///     let media = try MediaFile(path: "movie.mkv", readBudget: budget)
///     print(budget.bytesRead, budget.throughput ?? 0)
public final class ReadBudget: Sendable {
    /// The limit, nil for none (the budget only counts).
    public let bytesPerSecond: Int64?

    private struct State {
        /// When the first read was made.
        var start: ContinuousClock.Instant?
        /// When the reads so far would have finished at exactly the rate.
        var schedule: ContinuousClock.Instant?
        var bytes: Int64 = 0
        var waited: Duration = .zero
        var last: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// A budget of `bytesPerSecond` (nil: no limit, only counting). A rate below one byte per second is one.
    public init(bytesPerSecond: Int64?) {
        self.bytesPerSecond = bytesPerSecond.map { max(1, $0) }
    }

    /// Records `count` bytes just read and waits while the run is ahead of its rate.
    func spend(_ count: Int) {
        let clock = ContinuousClock()
        let now = clock.now
        let wait: Duration = state.withLock { state in
            if state.start == nil { state.start = now }
            state.bytes += Int64(count)
            state.last = now
            guard let rate = bytesPerSecond else { return .zero }
            let (schedule, wait) = Self.schedule(after: state.schedule, now: now, bytes: count, rate: rate)
            state.schedule = schedule
            if wait > .zero { state.waited += wait }
            return wait
        }
        if wait > .zero {
            Self.sleep(wait)
            // The read ends after its wait: the run's time includes it.
            let end = clock.now
            state.withLock { state in state.last = max(state.last ?? end, end) }
        }
    }

    /// When the reads so far, `bytes` more included, would have finished at exactly `rate` (time spent idle is
    /// not saved up), and how long the read of `bytes` must wait: until then, so that the run is never ahead of
    /// its rate.
    static func schedule(
        after previous: ContinuousClock.Instant?, now: ContinuousClock.Instant, bytes: Int, rate: Int64
    ) -> (schedule: ContinuousClock.Instant, wait: Duration) {
        let cost = Duration.nanoseconds(Int64((Double(bytes) / Double(rate) * 1e9).rounded(.up)))
        let schedule = max(previous ?? now, now) + cost
        return (schedule, max(.zero, schedule - now))
    }

    /// Blocks the thread for `duration` (the read callbacks are synchronous C calls), resuming after signals.
    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// The bytes read so far.
    public var bytesRead: Int64 { state.withLock { $0.bytes } }

    /// The time spent waiting for the rate so far.
    public var waited: Duration { state.withLock { $0.waited } }

    /// Seconds from the first read to the end of the last (its wait included).
    public var elapsed: Double {
        state.withLock { state in
            guard let start = state.start, let last = state.last else { return 0 }
            return (last - start) / .seconds(1)
        }
    }

    /// Bytes per second over `elapsed`, nil before the reads took any time.
    public var throughput: Double? {
        let seconds = elapsed
        return seconds > 0 ? Double(bytesRead) / seconds : nil
    }

    /// Parses a rate as `--max-read-rate` takes it: bytes per second, with an optional `K`, `M` or `G` suffix
    /// (powers of 1,000; `Ki`, `Mi`, `Gi` for powers of 1,024) and an optional trailing `B` or `/s`
    /// (`50M`, `50MB/s`, `1.5G`, `512Ki`). Nil for anything else, zero or a negative rate.
    public static func parseRate(_ text: String) -> Int64? {
        var body = Substring(text)
        while body.first == " " || body.first == "\t" { body.removeFirst() }
        while body.last == " " || body.last == "\t" { body.removeLast() }
        if body.hasSuffix("/s") { body = body.dropLast(2) }
        if body.hasSuffix("B") || body.hasSuffix("b") { body = body.dropLast() }
        var multiplier = 1.0
        let units: [(String, Double)] = [
            ("Ki", 1024), ("Mi", 1024 * 1024), ("Gi", 1024 * 1024 * 1024), ("K", 1e3), ("k", 1e3), ("M", 1e6),
            ("m", 1e6), ("G", 1e9), ("g", 1e9),
        ]
        for (suffix, value) in units where body.hasSuffix(suffix) {
            multiplier = value
            body = body.dropLast(suffix.count)
            break
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let number = Double(body), number.isFinite
        else { return nil }
        let rate = number * multiplier
        guard rate >= 1, rate < 9e18 else { return nil }
        return Int64(rate)
    }
}
