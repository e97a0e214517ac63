import Foundation
import SubDB
import SubfixLibrary
import SubfixPostgres
import TestSupport
import Testing

@testable import subfix

/// `fix`, `extract`, `render`, `check`, `report` and `index` log their runs on PostgreSQL as on SQLite, and
/// `subfix jobs` reads them back the same way.
@Suite struct PostgresJobLogTests {
    static let demo = RenderCommandsTests.demo
    static let fonts = RenderCommandsTests.fonts

    static func run(_ arguments: [String]) -> (status: subfix.ExitStatus, stdout: String, stderr: String) {
        let (io, output) = CommandIO.capturing()
        let status = SubfixCLI.run(arguments, io: io)
        return (status, output.stdout, output.stderr)
    }

    /// `jobs` output with what differs between two runs on two backends replaced: the times, the durations and the
    /// library's own name.
    static func normalized(_ text: String, db: String) -> String {
        text.replacingOccurrences(of: db, with: "DB")
            .replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, with: "TIME", options: .regularExpression)
            .replacingOccurrences(of: #" \d+\.\d s"#, with: " N s", options: .regularExpression)
    }

    @Test func everyCommandLogsTheSameOnBothBackendsAndJobsReadsItBack() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let redacted = PostgresURL.redacted(url)
        #expect(redacted != url)
        let fixture = try IndexFixture()
        let input = try fixture.writeSimHeiScript()
        let missing = fixture.path + "/media/missing.srt"
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: fixture.directory, as: "movie.mkv")
        let path = fixture.path
        let runs: [[String]] = [
            ["index", path + "/media"],
            ["fix", "--dry-run", input, missing],
            ["fix", input, missing, "--out", path + "/out"],
            ["extract", mkv, "--all", "--format", "srt", "--out", path + "/tracks"],
            [
                "render", Self.demo, "--at", "1", "--size", "64x36", "--no-system-fonts", "--fonts-dir", Self.fonts,
                "--out-dir", path + "/frames",
            ],
            ["check", Self.demo, missing, "--no-system-fonts", "--fonts-dir", path + "/media"],
            ["report", input, "--out", path + "/report.html", "--no-system-fonts", "--fonts-dir", Self.fonts],
        ]
        var printed = ""
        for arguments in runs {
            for folder in ["out", "tracks", "frames"] {
                try? FileManager.default.removeItem(atPath: path + "/" + folder)
            }
            let onSQLite = Self.run(arguments + ["--db", fixture.db])
            for folder in ["out", "tracks", "frames"] {
                try? FileManager.default.removeItem(atPath: path + "/" + folder)
            }
            let onPostgres = Self.run(arguments + ["--db", url])
            #expect(onSQLite.status == onPostgres.status, "\(arguments)")
            #expect(onSQLite.stdout == onPostgres.stdout, "\(arguments)")
            #expect(onSQLite.stderr == onPostgres.stderr, "\(arguments)")
            #expect(!onPostgres.stderr.contains("warning"), "\(arguments): \(onPostgres.stderr)")
            printed += onPostgres.stdout + onPostgres.stderr
        }

        // The same jobs, with the same fields, on both backends.
        let sqlite = try LibraryDatabase(path: fixture.db, mode: .existing)
        let postgres = try PostgresLibrary(url: PostgresURL(url))
        let fromSQLite = try sqlite.recentJobs(limit: 20)
        let fromPostgres = try postgres.recentJobs(limit: 20)
        #expect(fromPostgres.map(\.command) == ["report", "check", "render", "extract", "fix", "fix", "index"])
        #expect(fromSQLite.map(\.command) == fromPostgres.map(\.command))
        for (one, other) in zip(fromSQLite, fromPostgres) {
            #expect(one.id == other.id)
            #expect(
                one.arguments.map { $0 == fixture.db ? "DB" : $0 } == other.arguments.map { $0 == redacted ? "DB" : $0 }
            )
            #expect(one.status == other.status, "\(one.command)")
            #expect(one.counts == other.counts, "\(one.command)")
            #expect((other.finishedAt ?? .distantPast) >= other.startedAt)
            let files = try sqlite.files(ofJob: try #require(one.id))
            let otherFiles = try postgres.files(ofJob: try #require(other.id))
            #expect(!files.isEmpty, "\(one.command)")
            #expect(files.map(\.path) == otherFiles.map(\.path), "\(one.command)")
            #expect(files.map(\.output) == otherFiles.map(\.output), "\(one.command)")
            #expect(files.map(\.status) == otherFiles.map(\.status), "\(one.command)")
            #expect(files.map(\.encoding) == otherFiles.map(\.encoding), "\(one.command)")
            #expect(files.map(\.counts) == otherFiles.map(\.counts), "\(one.command)")
            #expect(files.map(\.error) == otherFiles.map(\.error), "\(one.command)")
        }
        // The dry run is marked as such.
        #expect(fromPostgres[5].counts["dryRun"] == 1 && fromPostgres[4].counts["dryRun"] == nil)

        // `subfix jobs`, as lines and as JSON, prints the same on both.
        for options in [[], ["--json"], ["--limit", "3"], ["--json", "--limit", "1"]] {
            let onSQLite = Self.run(["jobs", "--db", fixture.db] + options)
            let onPostgres = Self.run(["jobs", "--db", url] + options)
            #expect(onPostgres.status == .success && onPostgres.stderr.isEmpty, "\(options): \(onPostgres.stderr)")
            #expect(onSQLite.stdout.split(separator: "\n").count == onPostgres.stdout.split(separator: "\n").count)
            #expect(
                Self.normalized(onSQLite.stdout, db: fixture.db) == Self.normalized(onPostgres.stdout, db: redacted),
                "\(options)")
            printed += onPostgres.stdout
        }
        // SUBFIX_DB names the PostgreSQL library for `jobs` too.
        let (io, output) = CommandIO.capturing(environment: ["SUBFIX_DB": url])
        #expect(SubfixCLI.run(["jobs", "--limit", "1"], io: io) == .success)
        #expect(output.stdout.hasPrefix("#7 ") && output.stdout.contains(" report succeeded "))

        // Every object is as docs/json.md says.
        let schema = try JSONSchemaDocument.load()
        let json = Self.run(["jobs", "--json", "--db", url]).stdout.split(separator: "\n")
        #expect(json.count == 7)
        for line in json { #expect(schema.problems(line: String(line), command: "jobs").isEmpty, "\(line)") }

        // The password is nowhere: not in what was printed, not in the rows.
        let rows = try postgres.connection.execute(
            "SELECT (SELECT string_agg(j::text, ' ') FROM job j), (SELECT string_agg(f::text, ' ') FROM job_file f)")
        let stored = (rows.text(0, 0) ?? "") + (rows.text(0, 1) ?? "")
        #expect(stored.contains("subfix:***@127.0.0.1"))
        for text in [printed, stored] { #expect(!text.contains(PostgresTestServer.password)) }
    }

    @Test func aDryRunNeverCreatesTheLibraryButIsLoggedInOneThatExists() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let fixture = try IndexFixture()
        let input = try fixture.writeSimHeiScript()
        let first = Self.run(["fix", "--dry-run", input, "--db", url])
        #expect(first.status == .success && first.stderr.isEmpty, "\(first.stderr)")
        let connection = try PostgresConnection(url: PostgresURL(url))
        #expect(try connection.execute("SELECT to_regclass('job')").text(0, 0) == nil)
        // `jobs` on an empty database: nothing yet (the schema is made on first use, as for every command).
        #expect(Self.run(["jobs", "--db", url]) == (.success, "", ""))
        #expect(Self.run(["fix", "--dry-run", input, "--db", url]).status == .success)
        let jobs = try PostgresLibrary(url: PostgresURL(url)).recentJobs(limit: 5)
        #expect(jobs.count == 1)
        #expect(jobs.first?.counts == ["files": 1, "changed": 1, "unchanged": 0, "failed": 0, "dryRun": 1])
    }

    @Test func aLibraryThatCannotBeReachedIsAWarningForTheRunAndOneErrorLineForJobs() throws {
        let fixture = try IndexFixture()
        let input = try fixture.writeSimHeiScript()
        let unreachable = "postgresql://u:Pw77-secret@127.0.0.1:1/db"
        let fix = Self.run(["fix", input, "--out", fixture.path + "/out", "--db", unreachable])
        // The fix itself went well: the run is not failed because its log could not be written.
        #expect(fix.status == .success)
        #expect(fix.stderr.hasPrefix("subfix: warning: cannot record the job: cannot connect to "))
        #expect(fix.stderr.split(separator: "\n").count == 1)
        let jobs = Self.run(["jobs", "--db", unreachable])
        #expect(jobs.status == .someFailed && jobs.stdout.isEmpty)
        #expect(jobs.stderr.hasPrefix("subfix: error: ") && jobs.stderr.split(separator: "\n").count == 1)
        for text in [fix.stderr, jobs.stderr] { #expect(!text.contains("Pw77")) }
    }
}
