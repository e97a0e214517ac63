import Dispatch
import Foundation
import SubfixPostgres

/// Renews the lease of the job a worker is running, every third of the lease, on a connection of its own, so
/// that a job longer than its lease is not taken by another worker while this one is alive.
final class LeaseKeeper: Sendable {
    private let stopped = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts renewing `job`'s lease of `lease` seconds.
    init(job: PostgresQueue.Job, url: PostgresURL, lease: Double) {
        let thread = Thread { [stopped, finished] in
            defer { finished.signal() }
            guard let connection = try? PostgresConnection(url: url) else { return }
            let queue = PostgresQueue(connection: connection)
            while stopped.wait(timeout: .now() + lease / 3) == .timedOut {
                // A failed renewal (a restart) is retried at the next tick; a lost claim ends the renewals.
                if (try? queue.renew(job, lease: lease)) == false { return }
            }
        }
        thread.start()
    }

    /// Stops renewing and waits until the renewing thread is done.
    func stop() {
        stopped.signal()
        finished.wait()
    }
}
