import Foundation
import SubfixLibrary
import SubfixPostgres
import TestSupport
import Testing

@testable import subfix

/// `subfix index` and `subfix search` on `--db postgresql://…` against a real server, compared with the SQLite
/// library; URL and password failures.
@Suite struct PostgresCommandTests {
    static func run(_ arguments: [String], environment: Environment = [:]) -> (subfix.ExitStatus, String, String) {
        let (io, output) = CommandIO.capturing(environment: environment)
        let status = SubfixCLI.run(arguments, io: io)
        return (status, output.stdout, output.stderr)
    }

    @Test func indexAndSearchPrintTheSameOnBothBackends() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let fixture = try IndexFixture()
        try fixture.srt("a.zh.srt", ["你好，世界", "电视机坏了", "the tram is late"])
        try fixture.srt("b.ja.srt", ["こんにちは世界", "カタナ", "你，好"])
        try Data("not a subtitle {".utf8).write(to: URL(fileURLWithPath: fixture.path + "/media/c.srt"))
        let media = fixture.path + "/media"
        let sqliteIndex = Self.run(["index", media, "--db", fixture.db, "--jobs", "2"])
        let postgresIndex = Self.run(["index", media, "--db", url, "--jobs", "2"])
        #expect(sqliteIndex.0 == postgresIndex.0)
        #expect(sqliteIndex.1 == postgresIndex.1)
        #expect(sqliteIndex.2 == postgresIndex.2)
        // Unchanged files are skipped the second time, as on SQLite.
        #expect(Self.run(["index", media, "--db", url]).1 == Self.run(["index", media, "--db", fixture.db]).1)
        for query in ["你好", "世界", "电视", "tram", "\"the tram\"", "好 -你", "世界 OR カタナ", "nothing", "。"] {
            for extra in [[], ["--context", "1"], ["--lang", "ja"], ["--path", "*a.zh*"]] {
                let fromSQLite = Self.run(["search", query, "--db", fixture.db] + extra)
                let fromPostgres = Self.run(["search", query, "--db", url] + extra)
                #expect(fromSQLite.0 == fromPostgres.0, "\(query) \(extra)")
                #expect(
                    Set(fromSQLite.1.split(separator: "\n")) == Set(fromPostgres.1.split(separator: "\n")),
                    "\(query) \(extra)")
                #expect(fromSQLite.2 == fromPostgres.2, "\(query) \(extra)")
            }
        }
        // The job log keeps the command line without the password.
        let log = try PostgresConnection(url: PostgresURL(url)).execute("SELECT arguments FROM job ORDER BY id")
        #expect(log.count == 2)
        #expect(log.text(0, 0)?.contains("subfix:***@127.0.0.1") == true)
        #expect(log.text(0, 0)?.contains(PostgresTestServer.password) == false)
        // SUBFIX_DB stands for --db.
        let fromEnvironment = Self.run(["search", "你好", "--brackets"], environment: ["SUBFIX_DB": url])
        #expect(fromEnvironment.0 == .success)
        #expect(fromEnvironment.1.contains("[你好]，世界"))
        #expect(!fromEnvironment.1.contains("你，好"))
    }

    @Test func aWrongPasswordIsOneLineAndExit1WithoutThePassword() throws {
        let server = try PostgresTestServer.shared()
        _ = try server.makeDatabase()
        let wrong = server.url(database: "postgres", password: "Hunter2-wrong")
        for arguments in [
            ["search", "你好", "--db", wrong], ["index", "/nonexistent", "--db", wrong],
            ["queue", "status", "--db", wrong], ["worker", "--db", wrong],
        ] {
            let (status, stdout, stderr) = Self.run(arguments)
            // search exits 2 on an error, as grep does; the other commands 1.
            #expect(status == (arguments[0] == "search" ? .usage : .someFailed), "\(arguments[0])")
            #expect(stdout.isEmpty)
            #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
            #expect(stderr.hasPrefix("subfix: error: "))
            #expect(stderr.contains("password authentication failed"))
            #expect(!stderr.contains("Hunter2"))
        }
        let noDatabase = Self.run(["search", "x", "--db", server.url(database: "no_such_db")])
        #expect(noDatabase.0 == .usage)
        #expect(noDatabase.2.contains("no_such_db") && !noDatabase.2.contains(PostgresTestServer.password))
    }

    @Test(arguments: [
        "postgresql://u:Secret9@h/db?bogus=1", "postgresql://u:Secret9@h:notaport/db", "postgres://u:Secret9@[::1/db",
    ])
    func aMalformedURLIsAUsageError(url: String) {
        let (status, _, stderr) = Self.run(["search", "x", "--db", url])
        #expect(status == .usage, "\(stderr)")
        #expect(!stderr.contains("Secret9"), "\(stderr)")
        #expect(stderr.split(separator: "\n").count <= 2)
    }

    @Test func theQueueNeedsAPostgresURL() {
        let (status, _, stderr) = Self.run(["queue", "status", "--db", "/tmp/library.sqlite"])
        #expect(status == .usage)
        #expect(stderr.contains("postgresql://"))
    }
}

/// `--db postgresql://…` where a SQLite path is asked for, and `SUBFIX_DB` as a SQLite path.
@Suite struct PostgresLocationTests {
    @Test func aURLWhereASQLitePathIsAskedForIsAUsageErrorWithoutThePassword() {
        let (io, _) = CommandIO.capturing()
        #expect(throws: UsageError.self) {
            try LibraryLocation.path(
                ParsedArguments(command: "jobs", values: ["db": ["postgresql://u:Pw77@h/db"]]), io: io)
        }
        let message = PostgresBackend.sqliteOnly("postgresql://u:Pw77@h/db").message
        #expect(message.contains("every subfix command takes postgresql:// URLs") && !message.contains("Pw77"))
    }

    @Test func theJobLogGoesWhereTheURLSays() throws {
        let arguments = ParsedArguments(command: "fix")
        let fromEnvironment = CommandIO.capturing(environment: ["SUBFIX_DB": "postgresql://u:pw@h/db", "HOME": "/h"]).0
        #expect(
            try LibraryLocation.jobLog(arguments, io: fromEnvironment)
                == .postgres(try PostgresURL("postgresql://u:pw@h/db"), creating: true))
        let sqlite = CommandIO.capturing(environment: ["HOME": "/h"]).0
        #expect(
            try LibraryLocation.jobLog(arguments, io: sqlite) == .sqlite(path: "/h/.local/share/subfix/library.sqlite"))
        #expect(try LibraryLocation.jobLog(arguments, io: CommandIO.capturing().0) == nil)
    }

    @Test func subfixDBNamesTheSQLiteLibraryAndAURLThereIsIgnoredByOtherCommands() throws {
        let fixture = try IndexFixture()
        try fixture.srt("a.srt", ["你好"])
        let (io, _) = CommandIO.capturing(environment: ["SUBFIX_DB": fixture.db])
        #expect(SubfixCLI.run(["index", fixture.path + "/media"], io: io) == .success)
        #expect(FileManager.default.fileExists(atPath: fixture.db))
        let environment: Environment = ["SUBFIX_DB": "postgresql://u:pw@h/db", "HOME": fixture.path]
        let path = try LibraryLocation.path(
            ParsedArguments(command: "jobs"), io: CommandIO.capturing(environment: environment).0)
        #expect(path?.hasPrefix(fixture.path) == true)
    }
}
