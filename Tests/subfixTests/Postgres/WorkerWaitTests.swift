import Foundation
import SubfixPostgres
import TestSupport
import Testing

@testable import subfix

/// A worker that finds nothing to claim while another's job is leased waits for it (issue 35, item 7): it exited,
/// and the job of a killed worker waited for a worker started after its lease expired (600 s by default).
@Suite struct WorkerWaitTests {
    @Test func aWorkerTakesTheJobOfAKilledWorkerWhenItsLeaseExpires() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try PostgresQueueTests.files(1)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try SubfixBinary.run(["queue", "add", folder + "/f0.srt", "--db", url], in: folder).status == 0)
        // A worker claims the job for 2 s and is never heard of again (killed: no finish, no renewal).
        let library = try PostgresLibrary(url: PostgresURL(url))
        let claim = try PostgresQueue(connection: library.connection).claim(worker: "killed", lease: 2)
        guard case .run = try #require(claim) else {
            Issue.record("the job was not claimed")
            return
        }
        #expect(try PostgresQueueTests.status(url, in: folder).contains("\"running\":1"))
        let worker = try SubfixBinary.run(["worker", "--db", url], in: folder)
        #expect(worker.status == 0, "\(worker.stderr)")
        #expect(worker.stdout == "worker: 1 done, 0 failed\n")
        #expect(
            try PostgresQueueTests.status(url, in: folder)
                == "{\"type\":\"queue\",\"pending\":0,\"running\":0,\"done\":1,\"failed\":0}\n")
        let job = try library.connection.execute("SELECT attempts, worker FROM queue_job")
        #expect(job.text(0, 0) == "2")
        #expect(job.text(0, 1) != "killed")
    }

    @Test func aWorkerStopsAtOnceWhenNothingIsPendingOrRunning() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try PostgresQueueTests.files(0)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let worker = try SubfixBinary.run(["worker", "--db", url], in: folder, limit: 30)
        #expect(!worker.hung)
        #expect(worker.stdout == "worker: 0 done, 0 failed\n")
    }
}
