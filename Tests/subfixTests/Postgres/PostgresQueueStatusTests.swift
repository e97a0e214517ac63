import Foundation
import SubfixLibrary
import SubfixPostgres
import TestSupport
import Testing

@testable import subfix

/// `subfix queue status --details`: one line (or JSON object) per job with its worker, lease and error.
@Suite struct PostgresQueueStatusTests {
    static func run(_ arguments: [String]) -> (subfix.ExitStatus, String, String) {
        let (io, output) = CommandIO.capturing()
        let status = SubfixCLI.run(arguments, io: io)
        return (status, output.stdout, output.stderr)
    }

    @Test func detailsShowWhoHoldsEachJobAndWhyOneFailed() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let library = try PostgresLibrary(url: PostgresURL(url))
        let queue = PostgresQueue(connection: library.connection)
        let ids = try queue.add(.index, paths: ["/m/a.srt", "/m/b\n\u{1B}.srt", "/m/c.srt", "/m/d.srt", "/m/e.srt"])
        // a: running on host-1, b: failed (an error holding a URL with a password), c: done, d: its worker died
        // (lease over), e: pending.
        let running = try #require(try queue.claim(worker: "host-1:10/0", lease: 600)?.runnable)
        let failing = try #require(try queue.claim(worker: "host-2:20/1", lease: 600)?.runnable)
        try queue.finish(failing, failed: true, result: nil, error: "cannot store: postgresql://u:Pw77@h/db\nbroke")
        let done = try #require(try queue.claim(worker: "host-1:10/1", lease: 600)?.runnable)
        try queue.finish(done, failed: false, result: "12 lines", error: nil)
        let abandoned = try #require(try queue.claim(worker: "host-3:30/0", lease: 0.001)?.runnable)
        #expect([running.id, failing.id, done.id, abandoned.id] == Array(ids.prefix(4)))
        usleep(20_000)

        let text = Self.run(["queue", "status", "--details", "--db", url])
        #expect(text.0 == .success, "\(text.2)")
        let lines = text.1.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines[0].hasPrefix("#\(ids[0]) running index /m/a.srt: worker host-1:10/0, attempt 1, lease "))
        #expect(lines[0].hasSuffix(" left"))
        #expect(
            lines[1]
                == "#\(ids[1]) failed index /m/b\\n\\x1b.srt: attempt 1: cannot store: postgresql://u:***@h/db / broke")
        #expect(lines[2] == "#\(ids[3]) pending index /m/d.srt: attempt 1 by host-3:30/0, lease expired")
        #expect(lines[3] == "#\(ids[4]) pending index /m/e.srt")
        #expect(lines[4] == "2 pending, 1 running, 1 done, 1 failed")
        #expect(!text.1.contains("Pw77"))

        // --all lists the done job with its result; --limit caps the list, never the counts.
        let all = Self.run(["queue", "status", "--details", "--all", "--db", url]).1.split(separator: "\n")
        #expect(all.count == 6)
        #expect(all[4] == "#\(ids[2]) done index /m/c.srt: attempt 1: 12 lines")
        let capped = Self.run(["queue", "status", "--details", "--limit", "1", "--db", url]).1.split(separator: "\n")
        #expect(capped.count == 2)
        #expect(capped[1] == "2 pending, 1 running, 1 done, 1 failed")

        // JSON: one object per job, then the counts object as without --details.
        let json = Self.run(["queue", "status", "--details", "--json", "--db", url]).1.split(separator: "\n")
        #expect(json.count == 5)
        #expect(
            json[2]
                == "{\"type\":\"job\",\"id\":\(ids[3]),\"kind\":\"index\",\"file\":\"/m/d.srt\",\"status\":\"pending\","
                + "\"attempts\":1,\"worker\":\"host-3:30/0\",\"leaseSecondsLeft\":null,\"leaseExpired\":true,"
                + "\"result\":null,\"error\":null}")
        #expect(json[0].contains("\"status\":\"running\"") && json[0].contains("\"leaseExpired\":false"))
        #expect(json[4] == "{\"type\":\"queue\",\"pending\":2,\"running\":1,\"done\":1,\"failed\":1}")
        #expect(
            Self.run(["queue", "status", "--json", "--db", url]).1
                == "{\"type\":\"queue\",\"pending\":2,\"running\":1,\"done\":1,\"failed\":1}\n")
        // Every object is as docs/json.md says.
        let schema = try JSONSchemaDocument.load()
        for line in json { #expect(schema.problems(line: String(line), command: "queue").isEmpty) }
    }

    @Test func aBadLimitIsAUsageError() throws {
        let (status, stdout, stderr) = Self.run(
            ["queue", "status", "--details", "--limit", "-3", "--db", "postgresql://u:Pw77@127.0.0.1:1/db"])
        #expect(status == .usage)
        #expect(stdout.isEmpty)
        #expect(!stderr.contains("Pw77"))
    }

    @Test(arguments: [42.0, 598.2, 7325.0])
    func leaseDurationsAreShort(seconds: Double) {
        let expected = [42.0: "42s", 598.2: "9m59s", 7325.0: "2h02m"]
        #expect(QueueCommand.duration(seconds) == expected[seconds])
    }
}
