import Foundation

extension PostgresQueue {
    /// One job as `subfix queue status --details` shows it.
    public struct Entry: Sendable, Equatable {
        public var id: Int64
        public var kind: Kind
        public var path: String
        /// The status the counts give it: a running job whose lease expired is `pending`.
        public var status: String
        /// How many times it was claimed.
        public var attempts: Int
        /// The worker (`host:pid/slot`) that holds it, or held it last.
        public var worker: String?
        /// Seconds left on the lease of a running job (nil otherwise).
        public var leaseSecondsLeft: Double?
        /// Whether it was claimed and its worker stopped renewing the lease (it will be claimed again).
        public var leaseExpired: Bool
        /// What a finished job recorded (`12 lines`), and why a failed one failed.
        public var result: String?
        public var error: String?
    }

    /// The jobs not done yet (running ones first, then failed, then pending, each oldest first), with the done ones
    /// last when `includingDone`; at most `limit` of them (nil: every one).
    public func entries(includingDone: Bool, limit: Int?) throws -> [Entry] {
        let result = try connection.execute(
            """
            SELECT id, kind, path, shown, attempts, worker, seconds_left, result, error, expired FROM (
                SELECT id, kind, path, attempts, worker, result, error,
                       status = 'running' AND lease_until < clock_timestamp() AS expired,
                       CASE WHEN status = 'running' AND lease_until < clock_timestamp() THEN 'pending'
                            ELSE status END AS shown,
                       CASE WHEN status = 'running' AND lease_until >= clock_timestamp()
                            THEN extract(epoch FROM lease_until - clock_timestamp())::double precision END
                            AS seconds_left
                FROM queue_job WHERE $1::boolean OR status <> 'done') jobs
            ORDER BY CASE shown WHEN 'running' THEN 0 WHEN 'failed' THEN 1 WHEN 'pending' THEN 2 ELSE 3 END, id
            LIMIT $2::bigint
            """, [includingDone ? "true" : "false", limit.map { String(max(0, $0)) }])
        return try (0..<result.count).map { row in
            Entry(
                id: try result.int(row, 0), kind: Kind(rawValue: result.text(row, 1) ?? "") ?? .index,
                path: result.text(row, 2) ?? "", status: result.text(row, 3) ?? "",
                attempts: Int(try result.int(row, 4)), worker: result.text(row, 5),
                leaseSecondsLeft: result.text(row, 6).flatMap(Double.init), leaseExpired: result.text(row, 9) == "t",
                result: result.text(row, 7), error: result.text(row, 8))
        }
    }
}
