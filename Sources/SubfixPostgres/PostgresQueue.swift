import Foundation

/// The shared work queue in the library's `queue_job` table: workers on any machine claim jobs with
/// `SELECT … FOR UPDATE SKIP LOCKED` under a lease; a job whose lease runs out (its worker died) is claimed again.
///
/// A finish is accepted only from the claim that holds the job, so a job reclaimed after its lease expired is
/// recorded once, by its last claimer.
public struct PostgresQueue {
    /// What a job does to its path.
    public enum Kind: String, Sendable, CaseIterable {
        /// Index the file's dialogue into the library.
        case index
        /// Fix the file's fonts as `subfix fix` would, with the job's options.
        case fix
    }

    /// A claimed job.
    public struct Job: Sendable, Equatable {
        public var id: Int64
        public var kind: Kind
        public var path: String
        /// The command-line options the job runs with (a fix job's `--out DIR`, `--font NAME`, …).
        public var options: [String] = []
        /// How many times it was claimed, this claim included.
        public var attempts: Int
        /// The token that proves this claim when the job is finished.
        public var claim: String
    }

    /// What a claim gave: a job to run, or a job failed at once, with why (claimed too many times, or a row this
    /// subfix cannot run), which the worker reports and counts as failed.
    public enum Claim: Sendable, Equatable {
        case run(Job)
        case failed(Job, cause: String)

        /// The job to run; nil when it failed at claim time.
        public var runnable: Job? {
            if case .run(let job) = self { return job }
            return nil
        }
    }

    /// The four counts `subfix queue status` shows.
    public struct Status: Sendable, Equatable {
        public var pending = 0
        public var running = 0
        public var done = 0
        public var failed = 0
    }

    /// The connection the queue's statements run on.
    public let connection: PostgresConnection
    /// How many claims a job gets before it is failed (a job that kills its worker every time).
    var maximumAttempts: Int

    /// A queue on `connection` (whose schema `PostgresLibrary` migrated).
    public init(connection: PostgresConnection, maximumAttempts: Int = 3) {
        self.connection = connection
        self.maximumAttempts = maximumAttempts
    }

    /// Enqueues one job per path; returns their ids.
    @discardableResult
    public func add(_ kind: Kind, paths: [String]) throws -> [Int64] {
        try add(kind, jobs: paths.map { ($0, []) })
    }

    /// Enqueues one job per path, each with its options; returns their ids.
    @discardableResult
    public func add(_ kind: Kind, jobs: [(path: String, options: [String])]) throws -> [Int64] {
        try connection.transaction {
            try jobs.map { job in
                let options = String(decoding: try JSONEncoder().encode(job.options), as: UTF8.self)
                return try connection.execute(
                    "INSERT INTO queue_job (kind, path, options) VALUES ($1, $2, $3) RETURNING id",
                    [kind.rawValue, job.path, options]
                ).int(0, 0)
            }
        }
    }

    /// Claims the oldest pending job, or a running one whose lease expired, for `lease` seconds; nil when there is
    /// none. A job claimed `maximumAttempts` times already, or whose row this subfix cannot run (an unknown kind,
    /// options that are not a JSON array of strings, a path that is not absolute), is recorded as
    /// failed with its cause and returned as `.failed`.
    public func claim(worker: String, lease: Double) throws -> Claim? {
        let token = UUID().uuidString
        let result = try connection.execute(
            """
            UPDATE queue_job SET status = 'running', worker = $1, claim = $2, attempts = attempts + 1,
                                 lease_until = clock_timestamp() + make_interval(secs => $3::double precision)
            WHERE id = (SELECT id FROM queue_job
                        WHERE status = 'pending' OR (status = 'running' AND lease_until < clock_timestamp())
                        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING id, kind, path, attempts, options
            """, [worker, token, String(lease)])
        guard result.count > 0 else { return nil }
        let kind = Kind(rawValue: result.text(0, 1) ?? "")
        let options = try? JSONDecoder().decode([String].self, from: Data((result.text(0, 4) ?? "").utf8))
        let job = Job(
            id: try result.int(0, 0), kind: kind ?? .index, path: result.text(0, 2) ?? "", options: options ?? [],
            attempts: Int(try result.int(0, 3)), claim: token)
        let cause: String
        if job.attempts > maximumAttempts {
            cause = "abandoned by its worker \(maximumAttempts) times"
        } else if kind == nil || options == nil {
            // A kind or options written by a newer subfix: the job fails rather than runs.
            cause = "a job this version of subfix cannot run"
        } else if !job.path.hasPrefix("/") {
            cause = "the job's path is not absolute"
        } else {
            return .run(job)
        }
        try finish(job, failed: true, result: nil, error: cause)
        return .failed(job, cause: cause)
    }

    /// Seconds until the first lease of a running job expires (0 when one already has), or nil when no job is
    /// running: a worker that finds nothing to claim waits while this is not nil, since a running job whose worker
    /// was killed comes back when its lease expires.
    public func nextLeaseExpiry() throws -> Double? {
        let result = try connection.execute(
            """
            SELECT extract(epoch FROM min(lease_until) - clock_timestamp()) FROM queue_job WHERE status = 'running'
            """)
        // No running job: min() is NULL (which greatest(0, NULL) would have turned into 0).
        guard result.count > 0, let text = result.text(0, 0), let seconds = Double(text) else { return nil }
        return max(0, seconds)
    }

    /// Extends the lease of a job still held by this claim; false when it was lost (expired and reclaimed).
    public func renew(_ job: Job, lease: Double) throws -> Bool {
        try connection.execute(
            """
            UPDATE queue_job SET lease_until = clock_timestamp() + make_interval(secs => $3::double precision)
            WHERE id = $1 AND claim = $2 AND status = 'running'
            """, [String(job.id), job.claim, String(lease)]
        ).affectedRows == 1
    }

    /// Records the job's end; false when this claim no longer holds it (another worker has it now), in which case
    /// nothing is written.
    @discardableResult
    public func finish(_ job: Job, failed: Bool, result: String?, error: String?) throws -> Bool {
        try connection.execute(
            """
            UPDATE queue_job SET status = $3, result = $4, error = $5, lease_until = NULL,
                                 finished_at = clock_timestamp(), completions = completions + 1
            WHERE id = $1 AND claim = $2 AND status = 'running'
            """,
            [
                String(job.id), job.claim, failed ? "failed" : "done", result,
                error.map { PostgresURL.redactedMessage($0) },
            ]
        ).affectedRows == 1
    }

    /// Counts by status (a running job whose lease expired counts as pending: it will be claimed again).
    public func status() throws -> Status {
        let result = try connection.execute(
            """
            SELECT CASE WHEN status = 'running' AND lease_until < clock_timestamp() THEN 'pending' ELSE status END,
                   count(*)
            FROM queue_job GROUP BY 1
            """)
        var status = Status()
        for row in 0..<result.count {
            let count = Int(try result.int(row, 1))
            switch result.text(row, 0) {
            case "pending": status.pending += count
            case "running": status.running += count
            case "done": status.done += count
            case "failed": status.failed += count
            default: break
            }
        }
        return status
    }
}
