import Foundation
import SubfixLibrary
import SubfixPostgres
import TestSupport
import Testing

@testable import subfix

/// `subfix queue add --fix` and workers running fix jobs: the files written are those `subfix fix` writes.
@Suite(.serialized) struct PostgresFixJobTests {
    static let fonts = URL(fileURLWithPath: SubfixBinary.samples).deletingLastPathComponent()
        .appendingPathComponent("Fonts").path

    /// A folder `in/` holding two scripts (one in a subfolder) and a file that is not a subtitle.
    static func inputs() throws -> String {
        let folder = try SubfixBinary.folder("fixjobs")
        try FileManager.default.createDirectory(atPath: folder + "/in/sub", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: SubfixBinary.samples + "/render-demo.ass", toPath: folder + "/in/render-demo.ass")
        try FileManager.default.copyItem(
            atPath: SubfixBinary.samples + "/yahei-styles.ass", toPath: folder + "/in/sub/yahei-styles.ass")
        try SubfixBinary.write("1\n00:00:01,000 --> garbage\n", to: folder + "/in/sub/bad.srt")
        return folder
    }

    @Test func workersWriteWhatFixWritesAndRecordTheFailure() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try Self.inputs()
        let options = ["--no-system-fonts", "--fonts-dir", Self.fonts, "--policy", "all"]
        // Relative paths (the inputs and --out) are taken from where the job was added.
        let add = try SubfixBinary.run(
            ["queue", "add", "in", "--fix", "--out", "out"] + options + ["--db", url], in: folder)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout == "3 jobs added\n")
        let workers = try (0..<2).map { _ in try SubfixBinary.start(["worker", "--db", url], in: "/") }
        let runs = workers.map { $0.finish() }
        // One worker met the broken file (exit 1), the other did not.
        #expect(runs.compactMap(\.status).sorted() == [0, 1], "\(runs.map(\.stderr))")
        let errors = runs.map(\.stderr).joined()
        #expect(errors.hasPrefix("subfix: error: \(folder)/in/sub/bad.srt: "), "\(errors)")
        #expect(errors.split(separator: "\n").count == 1)
        #expect(
            try PostgresQueueTests.status(url, in: folder)
                == "{\"type\":\"queue\",\"pending\":0,\"running\":0,\"done\":2,\"failed\":1}\n")

        // The same files, byte for byte, as one `subfix fix` run over the folder.
        let direct = try SubfixBinary.run(["fix", "in", "--out", "direct"] + options, in: folder)
        #expect(direct.status == 1)
        for name in ["render-demo.ass", "sub/yahei-styles.ass"] {
            let queued = try Data(contentsOf: URL(fileURLWithPath: folder + "/out/" + name))
            let fixed = try Data(contentsOf: URL(fileURLWithPath: folder + "/direct/" + name))
            #expect(queued == fixed, "\(name)")
            #expect(queued != (try Data(contentsOf: URL(fileURLWithPath: folder + "/in/" + name))))
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/sub/bad.srt"))

        // The queue keeps each file's report line and the failure's cause (without the path repeated).
        let details = try SubfixBinary.run(["queue", "status", "--details", "--all", "--db", url], in: folder).stdout
        let lines = details.split(separator: "\n")
        #expect(lines.count == 4, "\(details)")
        #expect(lines[0].hasPrefix("#2 failed fix \(folder)/in/sub/bad.srt: attempt 1: "))
        #expect(!lines[0].contains("bad.srt: attempt 1: \(folder)"))
        #expect(lines[1].hasPrefix("#1 done fix \(folder)/in/render-demo.ass: attempt 1: changed "))
        #expect(lines[1].contains("-> \(folder)/out/render-demo.ass"))
    }

    @Test func anInPlaceJobRunTwiceKeepsTheFirstBackupAndGivesTheSameFile() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try Self.inputs()
        let script = folder + "/in/render-demo.ass"
        let original = try Data(contentsOf: URL(fileURLWithPath: script))
        let add = ["queue", "add", script, "--fix", "--in-place", "--fonts-dir", Self.fonts, "--db", url]
        for round in 0..<2 {
            #expect(try SubfixBinary.run(add, in: folder).stdout == "1 job added\n")
            let worker = try SubfixBinary.run(["worker", "--db", url], in: folder)
            #expect(worker.stdout == "worker: 1 done, 0 failed\n", "round \(round): \(worker.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: script + ".orig")) == original)
        let fixed = try Data(contentsOf: URL(fileURLWithPath: script))
        #expect(fixed != original)
    }

    @Test(arguments: [
        ["--fix"], ["--fix", "--out", "o", "--in-place"], ["--out", "o"], ["--fix", "--in-place", "--policy", "bogus"],
        ["--fix", "--in-place", "--encoding", "latin1"], ["--fix", "--out", "in"], ["--font", "X"],
    ])
    func badFixOptionsAreUsageErrorsAndAddNoJob(options: [String]) throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try Self.inputs()
        let run = try SubfixBinary.run(["queue", "add", "in"] + options + ["--db", url], in: folder)
        // An --out folder that is the input folder fails as `subfix fix` fails it (exit 1), the rest are usage errors.
        #expect(run.status == (options == ["--fix", "--out", "in"] ? 1 : 2), "\(options): \(run.stderr)")
        #expect(run.stderr.hasPrefix("subfix: error: ") && run.stderr.split(separator: "\n").count == 1)
        #expect(run.stdout.isEmpty)
        let connection = try PostgresConnection(url: PostgresURL(url))
        // Refused before connecting: not even the schema was created.
        #expect(try connection.execute("SELECT to_regclass('queue_job')").text(0, 0) == nil)
    }

    @Test func aJobWithOptionsThisSubfixCannotReadFailsInsteadOfRunning() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try Self.inputs()
        let script = folder + "/in/render-demo.ass"
        let original = try Data(contentsOf: URL(fileURLWithPath: script))
        let library = try PostgresLibrary(url: PostgresURL(url))
        let queue = PostgresQueue(connection: library.connection)
        let ids = try queue.add(.fix, jobs: [(script, ["--in-place"]), (script, ["--in-place", "--bogus"])])
        try library.connection.execute("UPDATE queue_job SET options = 'not json' WHERE id = $1", [String(ids[0])])
        let worker = try SubfixBinary.run(["worker", "--db", url], in: folder)
        #expect(worker.status == 1)
        #expect(worker.stdout == "worker: 0 done, 1 failed\n", "\(worker.stderr)")
        #expect(worker.stderr == "subfix: error: \(script): unknown option '--bogus' for 'fix'\n")
        let details = try SubfixBinary.run(["queue", "status", "--details", "--db", url], in: folder).stdout
        #expect(details.contains("#\(ids[0]) failed fix \(script): attempt 1: a job this version of subfix cannot run"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: script)) == original)
    }
}
