import Foundation
import SubfixLibrary
import SubfixPostgres
import TestSupport
import Testing

@testable import subfix

/// `subfix queue` and `subfix worker` as separate processes sharing one queue on a real server.
@Suite(.serialized) struct PostgresQueueTests {
    /// A folder of `count` small subtitle files.
    static func files(_ count: Int) throws -> String {
        let folder = try SubfixBinary.folder("queue")
        for index in 0..<count {
            let body = "1\n00:00:01,000 --> 00:00:02,000\n第\(index)行 你好\n"
            try Data(body.utf8).write(to: URL(fileURLWithPath: folder + "/f\(index).srt"))
        }
        return folder
    }

    static func status(_ url: String, in folder: String) throws -> String {
        try SubfixBinary.run(["queue", "status", "--json", "--db", url], in: folder).stdout
    }

    @Test func threeWorkersDrainOneQueueRunningEachJobOnce() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try Self.files(40)
        let add = try SubfixBinary.run(["queue", "add", folder, "--db", url], in: folder)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout == "40 jobs added\n")
        let pending = try Self.status(url, in: folder)
        #expect(pending == "{\"type\":\"queue\",\"pending\":40,\"running\":0,\"done\":0,\"failed\":0}\n")
        // docs/json.md's queue object (the schema test runs no server; this one has one).
        #expect(try JSONSchemaDocument.load().problems(line: pending, command: "queue").isEmpty)
        let workers = try (0..<3).map { _ in
            try SubfixBinary.start(["worker", "--db", url, "--jobs", "2"], in: folder)
        }
        let runs = workers.map { $0.finish() }
        for run in runs {
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty)
        }
        #expect(
            try Self.status(url, in: folder)
                == "{\"type\":\"queue\",\"pending\":0,\"running\":0,\"done\":40,\"failed\":0}\n")
        let connection = try PostgresConnection(url: PostgresURL(url))
        let jobs = try connection.execute(
            "SELECT count(*), sum(attempts), max(completions), min(completions), count(DISTINCT path) FROM queue_job")
        #expect(jobs.text(0, 0) == "40")
        #expect(jobs.text(0, 1) == "40")  // each claimed once
        #expect(jobs.text(0, 2) == "1")  // none finished twice
        #expect(jobs.text(0, 3) == "1")  // none lost
        #expect(jobs.text(0, 4) == "40")
        #expect(try connection.execute("SELECT count(*) FROM media_file").text(0, 0) == "40")
        // The workers' own counts add up to the jobs.
        let done = runs.compactMap { run -> Int? in
            guard let range = run.stdout.range(of: #"worker: (\d+) done"#, options: .regularExpression) else {
                return nil
            }
            return Int(run.stdout[range].split(separator: " ")[1])
        }
        #expect(done.reduce(0, +) == 40)
        // The indexed lines are searchable.
        let search = try SubfixBinary.run(["search", "第7行", "--db", url, "--brackets"], in: folder)
        #expect(search.stdout.contains("[第7行]"))
    }

    @Test func aJobOfAWorkerKilledMidJobReturnsWhenItsLeaseExpires() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try Self.files(1)
        #expect(try SubfixBinary.run(["queue", "add", folder + "/f0.srt", "--db", url], in: folder).status == 0)
        let stuck = try SubfixBinary.start(
            ["worker", "--db", url, "--lease", "2"], in: folder,
            environment: [WorkerCommand.pauseVariable: "600000"])
        // Wait (bounded) until the job is claimed, then kill the worker without letting it clean up.
        var claimed = false
        for _ in 0..<600 where !claimed {
            claimed = try Self.status(url, in: folder).contains("\"running\":1")
            if !claimed { usleep(100_000) }
        }
        #expect(claimed)
        kill(stuck.process.processIdentifier, SIGKILL)
        let killed = stuck.finish()
        #expect(killed.signal == SIGKILL)
        // The job comes back once its lease expires.
        var returned = false
        for _ in 0..<600 where !returned {
            returned = try Self.status(url, in: folder).contains("\"pending\":1")
            if !returned { usleep(100_000) }
        }
        #expect(returned)
        let rescue = try SubfixBinary.run(["worker", "--db", url], in: folder)
        #expect(rescue.status == 0, "\(rescue.stderr)")
        #expect(rescue.stdout == "worker: 1 done, 0 failed\n")
        #expect(
            try Self.status(url, in: folder)
                == "{\"type\":\"queue\",\"pending\":0,\"running\":0,\"done\":1,\"failed\":0}\n")
        let connection = try PostgresConnection(url: PostgresURL(url))
        let job = try connection.execute("SELECT attempts, completions FROM queue_job")
        #expect(job.text(0, 0) == "2")
        #expect(job.text(0, 1) == "1")
    }

    @Test func aLiveWorkerKeepsRenewingItsLeaseSoNoOtherWorkerTakesTheJob() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try Self.files(1)
        #expect(try SubfixBinary.run(["queue", "add", folder, "--db", url], in: folder).status == 0)
        let slow = try SubfixBinary.start(
            ["worker", "--db", url, "--lease", "3"], in: folder, environment: [WorkerCommand.pauseVariable: "7000"])
        var claimed = false
        for _ in 0..<600 where !claimed {
            claimed = try Self.status(url, in: folder).contains("\"running\":1")
            if !claimed { usleep(100_000) }
        }
        #expect(claimed)
        // Past the first lease: only renewals keep the job from being taken.
        usleep(4_500_000)
        let other = try SubfixBinary.run(["worker", "--db", url], in: folder)
        #expect(other.stdout == "worker: 0 done, 0 failed\n")
        let run = slow.finish()
        #expect(run.stdout == "worker: 1 done, 0 failed\n", "\(run.stderr)")
        let connection = try PostgresConnection(url: PostgresURL(url))
        #expect(try connection.execute("SELECT attempts, completions FROM queue_job").text(0, 0) == "1")
    }

    @Test func aFailingJobIsRecordedAsFailedWithItsCause() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try Self.files(1)
        try Data("1\n00:00:01,000 --> garbage\n\u{FF}\u{FE}".utf8).write(to: URL(fileURLWithPath: folder + "/bad.srt"))
        #expect(try SubfixBinary.run(["queue", "add", folder, "--db", url], in: folder).stdout == "2 jobs added\n")
        try FileManager.default.removeItem(atPath: folder + "/f0.srt")
        let run = try SubfixBinary.run(["worker", "--db", url], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("f0.srt"))
        #expect(try Self.status(url, in: folder).contains("\"failed\":"))
        let human = try SubfixBinary.run(["queue", "status", "--db", url], in: folder)
        #expect(human.stdout.hasSuffix("failed\n"))
        #expect(!human.stdout.contains(PostgresTestServer.password))
    }
}

/// A worker keeps going through a server restart: its connection breaks, it reconnects, and no job is lost.
@Suite struct PostgresRestartTests {
    @Test func aWorkerSurvivesAServerRestartMidRun() throws {
        // A server of its own: restarting the shared one would break the other suites' connections.
        let server = try PostgresTestServer()
        defer { try? server.stop() }
        let url = try server.makeDatabase()
        let folder = try PostgresQueueTests.files(20)
        #expect(try SubfixBinary.run(["queue", "add", folder, "--db", url], in: folder).status == 0)
        let worker = try SubfixBinary.start(
            ["worker", "--db", url], in: folder, environment: [WorkerCommand.pauseVariable: "150"])
        var started = false
        for _ in 0..<600 where !started {
            started = !(try PostgresQueueTests.status(url, in: folder).contains("\"done\":0"))
            if !started { usleep(50_000) }
        }
        #expect(started)
        try server.restart()
        let run = worker.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try PostgresQueueTests.status(url, in: folder)
                == "{\"type\":\"queue\",\"pending\":0,\"running\":0,\"done\":20,\"failed\":0}\n"
        )
        let connection = try PostgresConnection(url: PostgresURL(url))
        #expect(try connection.execute("SELECT max(completions) FROM queue_job").text(0, 0) == "1")
        #expect(try connection.execute("SELECT count(*) FROM media_file").text(0, 0) == "20")
    }
}
