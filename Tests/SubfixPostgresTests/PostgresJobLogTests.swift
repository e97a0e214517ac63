import Foundation
import SubfixLibrary
import TestSupport
import Testing

@testable import SubfixPostgres

/// The job log on PostgreSQL: records read back equal, hostile text kept or refused as PostgreSQL must, rows of the
/// version 2 format converted by migration 5.
@Suite struct PostgresJobLogTests {
    @Test func aJobAndItsFilesReadBackEqualWithHostileTextAndWithoutThePassword() throws {
        let server = try PostgresTestServer.shared()
        let library = try PostgresLibrary(url: PostgresURL(try server.makeDatabase()))
        let started = Date(timeIntervalSince1970: 1_790_000_000.25)
        // A name that is not UTF-8 (PathBytes maps 0xFF to U+10FFFF), a newline, quotes, a JSON-looking value, NUL.
        let hostile = "/m/bad\u{10FFFF}\n\"x\",{}.srt"
        let job = JobRecord(
            command: "fix", arguments: [hostile, "--db", "postgresql://u:Pw77-secret@h/db", "a b", ""],
            startedAt: started, finishedAt: started.addingTimeInterval(1.5), status: .failed,
            counts: ["files": 3, "changed": 1, "failed": 1, "dryRun": 1])
        let files = [
            JobFileRecord(
                jobId: 0, path: hostile, output: "/o/\u{10FFFF}.srt", status: .changed, encoding: "GB18030 -> UTF-8",
                counts: ["styles": 2, "fnTags": 0]),
            JobFileRecord(
                jobId: 0, path: "/m/b.srt", status: .failed,
                error: "cannot store: postgresql://u:Pw77-secret@h/db\u{0} said no"),
            JobFileRecord(jobId: 0, path: "/m/c.srt", status: .needsFixing),
        ]
        let id = try library.record(job: job, files: files)
        let read = try #require(try library.recentJobs(limit: 10).first)
        #expect(read.id == id)
        #expect(read.arguments == [hostile, "--db", "postgresql://u:***@h/db", "a b", ""])
        #expect(read.counts == job.counts && read.status == .failed && read.command == "fix")
        #expect(abs(read.startedAt.timeIntervalSince(started)) < 0.001)
        #expect(abs((read.finishedAt ?? .distantPast).timeIntervalSince(started) - 1.5) < 0.001)
        let readFiles = try library.files(ofJob: id)
        #expect(readFiles.map(\.jobId) == [id, id, id])
        #expect(readFiles.map(\.path) == files.map(\.path))
        #expect(readFiles.map(\.output) == files.map(\.output))
        #expect(readFiles.map(\.status) == files.map(\.status))
        #expect(readFiles.map(\.encoding) == files.map(\.encoding))
        #expect(readFiles.map(\.counts) == files.map(\.counts))
        // NUL cannot be stored in text: dropped. The password is replaced.
        #expect(readFiles.map(\.error) == [nil, "cannot store: postgresql://u:***@h/db said no", nil])
        let raw = try library.connection.execute("SELECT string_agg(j::text, ' ') FROM job j").text(0, 0) ?? ""
        #expect(!raw.contains("Pw77") && raw.contains("dryRun"))
    }

    @Test func newestFirstWithALimitAndAnEmptyLog() throws {
        let server = try PostgresTestServer.shared()
        let library = try PostgresLibrary(url: PostgresURL(try server.makeDatabase()))
        #expect(try library.recentJobs(limit: 5).isEmpty)
        for (offset, command) in ["index", "fix", "check"].enumerated() {
            try library.record(
                job: JobRecord(
                    command: command, arguments: [], startedAt: Date(timeIntervalSince1970: 1_000 + Double(offset)),
                    status: .succeeded))
        }
        let jobs = try library.recentJobs(limit: 2)
        #expect(jobs.map(\.command) == ["check", "fix"])
        #expect(jobs.allSatisfy { $0.finishedAt == nil && $0.arguments.isEmpty && $0.counts.isEmpty })
        #expect(try library.files(ofJob: try #require(jobs.first?.id)).isEmpty)
    }

    @Test func aRowThisSubfixCannotReadIsAnErrorNotACrash() throws {
        let server = try PostgresTestServer.shared()
        let library = try PostgresLibrary(url: PostgresURL(try server.makeDatabase()))
        try library.record(job: JobRecord(command: "fix", arguments: [], startedAt: Date(), status: .succeeded))
        for (column, value) in [("arguments", "not json"), ("counts", "[1]"), ("status", "paused")] {
            let connection = library.connection
            try connection.execute("UPDATE job SET \(column) = $1", [value])
            #expect(throws: PostgresError.self, "\(column)") { try library.recentJobs(limit: 1) }
            try connection.execute(
                "UPDATE job SET arguments = '[]', counts = '{}', status = 'succeeded'")
        }
        #expect(try library.recentJobs(limit: 1).count == 1)
    }

    @Test func migrationFiveConvertsTheRowsVersionTwoWrote() throws {
        let server = try PostgresTestServer.shared()
        let url = try PostgresURL(try server.makeDatabase())
        let connection = try PostgresConnection(url: url)
        try PostgresMigrations.migrate(connection, migrations: Array(PostgresMigrations.all.prefix(4)))
        try connection.execute(
            """
            INSERT INTO job (command, arguments, started_at, finished_at, status, counts) VALUES
                ('index', '/m --db postgresql://u:***@h/db', to_timestamp(100), to_timestamp(101), 'succeeded',
                 'files=2 new=1 lines=30'),
                ('index', '', to_timestamp(200), NULL, 'failed', ''),
                ('index', '/x', to_timestamp(300), NULL, 'failed', 'files=1 bogus')
            """)
        let library = try PostgresLibrary(url: url)
        #expect(try PostgresMigrations.versions(connection) == [1, 2, 3, 4, 5])
        let jobs = try library.recentJobs(limit: 5)
        #expect(jobs.map(\.arguments) == [["/x"], [], ["/m", "--db", "postgresql://u:***@h/db"]])
        #expect(jobs.map(\.counts) == [["files": 1], [:], ["files": 2, "new": 1, "lines": 30]])
        #expect(jobs.map(\.startedAt.timeIntervalSince1970) == [300, 200, 100])
    }
}
