import Foundation
import SubCore
import SubDB
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

    /// Fix options that make every run the same here: the bundled font only, every reference rewritten.
    static var fixOptions: [String] { ["--no-system-fonts", "--fonts-dir", fonts, "--policy", "all"] }

    /// A fresh database with the inputs queued as fix jobs (`--out out`, `fixOptions`), and the inputs' folder.
    static func queuedFixJobs() throws -> (url: String, folder: String) {
        let url = try PostgresTestServer.shared().makeDatabase()
        let folder = try inputs()
        // Relative paths (the inputs and --out) are taken from where the job was added.
        let add = try SubfixBinary.run(
            ["queue", "add", "in", "--fix", "--out", "out"] + fixOptions + ["--db", url], in: folder)
        #expect(add.stdout == "3 jobs added\n", "\(add.stderr)")
        return (url, folder)
    }

    @Test func workersWriteWhatFixWritesAndRecordTheFailure() throws {
        let (url, folder) = try Self.queuedFixJobs()
        let options = Self.fixOptions
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
        // Both are printed and counted: the one that failed when it was claimed too.
        #expect(worker.stdout == "worker: 0 done, 2 failed\n", "\(worker.stderr)")
        #expect(
            worker.stderr
                == "subfix: error: \(script): a job this version of subfix cannot run\n"
                + "subfix: error: \(script): unknown option '--bogus' for 'fix'\n")
        let details = try SubfixBinary.run(["queue", "status", "--details", "--db", url], in: folder).stdout
        #expect(details.contains("#\(ids[0]) failed fix \(script): attempt 1: a job this version of subfix cannot run"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: script)) == original)
    }

    @Test func aWorkerLogsEachFixJobAsSubfixFixLogsItsRun() throws {
        let (url, folder) = try Self.queuedFixJobs()
        let options = Self.fixOptions
        let worker = try SubfixBinary.run(["worker", "--db", url], in: folder)
        #expect(worker.stdout == "worker: 2 done, 1 failed\n", "\(worker.stderr)")

        // What `subfix fix FILE --out DIR` logs on SQLite for each file, the worker logged on PostgreSQL.
        let library = try PostgresLibrary(url: PostgresURL(url))
        let logged = try library.recentJobs(limit: 10).reversed()
        #expect(logged.map(\.command) == ["fix", "fix", "fix"])
        let db = folder + "/direct.sqlite"
        for (job, name) in zip(logged, ["render-demo.ass", "sub/bad.srt", "sub/yahei-styles.ass"]) {
            let out = folder + "/out" + (name.hasPrefix("sub/") ? "/sub" : "")
            try? FileManager.default.removeItem(atPath: folder + "/out")
            let direct = try SubfixBinary.run(
                ["fix", folder + "/in/" + name, "--out", out] + options + ["--db", db], in: folder)
            let sqlite = try LibraryDatabase(path: db, mode: .existing)
            let expected = try #require(try sqlite.recentJobs(limit: 1).first)
            #expect(job.arguments == Array(expected.arguments.dropLast(2)), "\(name): \(direct.stderr)")
            #expect(job.status == expected.status && job.counts == expected.counts, "\(name)")
            let files = try library.files(ofJob: try #require(job.id))
            let expectedFiles = try sqlite.files(ofJob: try #require(expected.id))
            #expect(files.count == 1 && expectedFiles.count == 1)
            #expect(
                files.map(\.path) == expectedFiles.map(\.path) && files.map(\.output) == expectedFiles.map(\.output))
            #expect(files.map(\.status) == expectedFiles.map(\.status), "\(name)")
            #expect(
                files.map(\.counts) == expectedFiles.map(\.counts) && files.map(\.error) == expectedFiles.map(\.error))
            #expect(files.map(\.encoding) == expectedFiles.map(\.encoding))
        }
        // `subfix jobs` shows them, without the password.
        let jobs = try SubfixBinary.run(["jobs", "--db", url], in: folder)
        #expect(jobs.stdout.split(separator: "\n").count == 3 && jobs.stdout.contains(" fix failed "))
        #expect(!(jobs.stdout + jobs.stderr + worker.stderr).contains(PostgresTestServer.password))
    }

    /// Index jobs are logged as `subfix index FILE` logs its run: the same counts and file rows (new, then
    /// updated when the job runs again; failed with its cause).
    @Test func aWorkerLogsEachIndexJobAsSubfixIndexLogsItsRun() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try Self.inputs()
        let names = ["render-demo.ass", "sub/bad.srt", "sub/yahei-styles.ass"]
        for round in 0..<2 {
            let add = try SubfixBinary.run(["queue", "add", "in", "--db", url], in: folder)
            #expect(add.stdout == "3 jobs added\n", "\(add.stderr)")
            let worker = try SubfixBinary.run(["worker", "--db", url], in: folder)
            #expect(worker.stdout == "worker: 2 done, 1 failed\n", "round \(round): \(worker.stderr)")
        }
        let library = try PostgresLibrary(url: PostgresURL(url))
        let logged = Array(try library.recentJobs(limit: 10).reversed())
        #expect(logged.map(\.command) == Array(repeating: "index", count: 6))
        for (position, job) in logged.enumerated() {
            let name = names[position % 3]
            let db = folder + "/direct-\(position).sqlite"
            if position >= 3 {  // the same file indexed a second time: "updated" on both backends
                _ = try SubfixBinary.run(["index", folder + "/in/" + name, "--db", db], in: folder)
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSinceNow: Double(position))],
                    ofItemAtPath: folder + "/in/" + name)
            }
            let direct = try SubfixBinary.run(["index", folder + "/in/" + name, "--db", db], in: folder)
            let sqlite = try LibraryDatabase(path: db, mode: .existing)
            let expected = try #require(try sqlite.recentJobs(limit: 1).first)
            #expect(job.status == expected.status, "\(name): \(direct.stderr)")
            #expect(job.counts == expected.counts, "\(name) #\(position)")
            let files = try library.files(ofJob: try #require(job.id))
            let expectedFiles = try sqlite.files(ofJob: try #require(expected.id))
            #expect(files.map { ($0.path as NSString).lastPathComponent } == [(name as NSString).lastPathComponent])
            #expect(files.map(\.status) == expectedFiles.map(\.status), "\(name) #\(position)")
            #expect(
                files.map(\.counts) == expectedFiles.map(\.counts) && files.map(\.error) == expectedFiles.map(\.error))
        }
    }

    @Test func jobsThatFailWhenClaimedArePrintedCountedAndRecorded() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try SubfixBinary.folder("claimfail")
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        let script = try String(contentsOfFile: SubfixBinary.samples + "/render-demo.ass", encoding: .utf8)
        // A name that is not UTF-8, one with a newline, one deleted after it was queued.
        let raw = PathBytes.decode(Array((folder + "/in/raw").utf8) + [0xFF, 0xFE] + Array(".ass".utf8))
        let descriptor = PathBytes.withCString(raw) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        #expect(descriptor >= 0)
        _ = Array(script.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let newline = folder + "/in/two\nlines.ass"
        let gone = folder + "/in/gone.ass"
        for path in [newline, gone] { try SubfixBinary.write(script, to: path) }
        let add = try SubfixBinary.run(
            ["queue", "add", "in", "--fix", "--out", "out", "--fonts-dir", Self.fonts, "--db", url], in: folder)
        #expect(add.stdout == "3 jobs added\n", "\(add.stderr)")
        try FileManager.default.removeItem(atPath: gone)
        // A row no subfix wrote: a relative path.
        let library = try PostgresLibrary(url: PostgresURL(url))
        let queue = PostgresQueue(connection: library.connection)
        try queue.add(.index, paths: ["relative.srt"])

        let worker = try SubfixBinary.run(["worker", "--db", url], in: folder)
        #expect(worker.status == 1)
        #expect(worker.stdout == "worker: 2 done, 2 failed\n", "\(worker.stderr)")
        let errors = worker.stderr.split(separator: "\n")
        #expect(errors.count == 2, "\(worker.stderr)")
        #expect(errors.contains("subfix: error: \(gone): no such file or folder"))
        #expect(errors.contains("subfix: error: relative.srt: the job's path is not absolute"))
        // The raw and newline names were fixed, written under their own (escaped when printed) names.
        let written = PathBytes.decode(Array((folder + "/out/raw").utf8) + [0xFF, 0xFE] + Array(".ass".utf8))
        #expect(PathBytes.withCString(written) { access($0, R_OK) } == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/out/two\nlines.ass"))
        #expect(!worker.stdout.contains("\u{10FFFF}") && !worker.stderr.contains("\u{10FFFE}"))

        let status = try SubfixBinary.run(["queue", "status", "--details", "--db", url], in: folder).stdout
        #expect(status.contains("failed fix \(gone): attempt 1: no such file or folder"), "\(status)")
        #expect(status.contains("failed index relative.srt: attempt 1: the job's path is not absolute"))
        #expect(status.hasSuffix("0 pending, 0 running, 2 done, 2 failed\n"))
        // The two fix jobs that ran are in the job log; the ones that never ran are not.
        let logged = try library.recentJobs(limit: 10)
        #expect(logged.count == 2 && logged.allSatisfy { $0.command == "fix" && $0.status == .succeeded })
        let paths = try logged.flatMap { try library.files(ofJob: try #require($0.id)).map(\.path) }
        #expect(Set(paths) == [raw, newline])

        // With --json: an error object per failed job, then the counts; the error lines still go to stderr.
        try queue.add(.fix, jobs: [(gone, ["--out", folder + "/out"])])
        try queue.add(.index, paths: ["also/relative.srt"])
        let json = try SubfixBinary.run(["worker", "--json", "--db", url], in: folder)
        #expect(json.status == 1)
        #expect(
            json.stdout
                == "{\"type\":\"error\",\"file\":\"\(gone)\",\"error\":\"no such file or folder\"}\n"
                + "{\"type\":\"error\",\"file\":\"also/relative.srt\",\"error\":\"the job's path is not absolute\"}\n"
                + "{\"type\":\"worker\",\"done\":0,\"failed\":2}\n")
        #expect(json.stderr.split(separator: "\n").count == 2)
        let schema = try JSONSchemaDocument.load()
        for line in json.stdout.split(separator: "\n") {
            #expect(schema.problems(line: String(line), command: "worker").isEmpty, "\(line)")
        }

        // Vanished files whose names are not UTF-8 or hold a newline: one escaped line each.
        let hostile = [folder + "/in/gone\u{10FFFF}.srt", folder + "/in/gone\nline.srt"]
        try queue.add(.index, paths: hostile)
        let run = try SubfixBinary.run(["worker", "--db", url], in: folder)
        #expect(run.stdout == "worker: 0 done, 2 failed\n")
        #expect(
            run.stderr
                == "subfix: error: \(folder)/in/gone\\xff.srt: no such file or folder\n"
                + "subfix: error: \(folder)/in/gone\\nline.srt: no such file or folder\n")
    }
}
