import Foundation
import SubfixLibrary
import SubfixPostgres
import TestSupport
import Testing

@testable import subfix

/// `search --count` and `--files-with-matches` on `--db postgresql://…`: the same output and exit status as on
/// SQLite, against a real server.
@Suite struct PostgresSearchCountTests {
    @Test func countAndFilesWithMatchesPrintTheSameOnBothBackends() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let fixture = try IndexFixture()
        try fixture.srt("a.zh.srt", ["你好，世界", "你好", "the tram is late", "世界"])
        try fixture.srt("b.ja.srt", ["こんにちは世界", "你，好"])
        // A name with a line break and an escape character: printed escaped, the same way on both.
        try fixture.srt("c\n\u{1B}[31m.zh.srt", ["你好 你好", "再见"])
        let media = fixture.path + "/media"
        #expect(fixture.run(["index", media, "--db", fixture.db]).0 == .success)
        #expect(fixture.run(["index", media, "--db", url]).0 == .success)
        var matched = 0
        for query in ["你好", "世界", "tram", "好 -你", "世界 OR 再见", "nothing", "。"] {
            for mode in [
                ["--count"], ["--files-with-matches"], ["--count", "--json"], ["--files-with-matches", "--json"],
            ] {
                for extra in [[], ["--lang", "ja"], ["--path", "*a.zh*"], ["--limit", "1"]] {
                    let arguments = ["search", query] + mode + extra
                    let fromSQLite = fixture.run(arguments + ["--db", fixture.db])
                    let fromPostgres = fixture.run(arguments + ["--db", url])
                    #expect(fromSQLite.0 == fromPostgres.0, "\(arguments)")
                    #expect(fromSQLite.1 == fromPostgres.1, "\(arguments)")
                    #expect(fromSQLite.2 == fromPostgres.2, "\(arguments)")
                    if fromPostgres.0 == .success { matched += 1 }
                }
            }
        }
        #expect(matched > 20)
        // Every match counts, beyond the default limit of 20 hits and the rank window.
        let count = fixture.run(["search", "你好", "--count", "--path", "*a.zh*", "--db", url])
        #expect(count.0 == .success)
        #expect(count.1.hasSuffix("a.zh.srt:2\n"))
        let nothing = fixture.run(["search", "nothing", "--count", "--db", url])
        #expect(nothing.0 == .someFailed)
        #expect(nothing.1.isEmpty && nothing.2.isEmpty)
    }

    @Test func countingAnEmptyLibraryOrABadQueryIsAnErrorWithExit2() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let fixture = try IndexFixture()
        let empty = fixture.run(["search", "你好", "--count", "--db", url])
        #expect(empty.0 == .usage)
        #expect(empty.2.hasPrefix("subfix: error: "))
        #expect(empty.2.split(separator: "\n").count == 1)
        #expect(!empty.2.contains(PostgresTestServer.password))
        let badQuery = fixture.run(["search", "-", "--files-with-matches", "--db", url])
        #expect(badQuery.0 == .usage)
        #expect(badQuery.2 == fixture.run(["search", "-", "--files-with-matches", "--db", fixture.db]).2)
        let wrong = fixture.run(
            ["search", "你好", "--count", "--db", server.url(database: "postgres", password: "Hunter2-wrong")])
        #expect(wrong.0 == .usage)
        #expect(wrong.2.contains("password authentication failed") && !wrong.2.contains("Hunter2"))
    }
}

/// `subfix fonts --db postgresql://…` keeps the catalog in the PostgreSQL library, as it does in SQLite.
@Suite struct PostgresFontsCommandTests {
    @Test func fontsStoresTheSameCatalogOnBothBackendsAndForgetsVanishedFiles() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let folder = try TestFiles.temporaryDirectory("subfix-pgfonts")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fonts = folder.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        for name in ["subfix-test-sans.otf", "subfix-test-sans.ttc"] {
            try FileManager.default.copyItem(
                at: FontCatalogStoreTests.fixtures.appendingPathComponent(name), to: fonts.appendingPathComponent(name))
        }
        // Not a font: skipped with a warning by the catalog, the same on both backends.
        try Data("not a font".utf8).write(to: fonts.appendingPathComponent("broken.ttf"))
        let database = folder.appendingPathComponent("library.sqlite").path
        _ = try LibraryDatabase(path: database, mode: .create)
        let listing = ["fonts", "--no-system-fonts", "--fonts-dir", fonts.path]
        let (sqliteIO, sqliteOutput) = CommandIO.capturing()
        #expect(SubfixCLI.run(listing + ["--db", database], io: sqliteIO) == .success)
        let (postgresIO, postgresOutput) = CommandIO.capturing()
        #expect(SubfixCLI.run(listing + ["--db", url], io: postgresIO) == .success)
        #expect(sqliteOutput.stdout == postgresOutput.stdout)
        #expect(sqliteOutput.stderr == postgresOutput.stderr)
        let library = try PostgresLibrary(url: PostgresURL(url))
        func withoutIds(_ faces: [FontFaceRecord]) -> [FontFaceRecord] {
            faces.map { face in
                var face = face
                face.id = nil
                return face
            }
        }
        let stored = try library.fontFaces()
        #expect(stored.count >= 2)
        #expect(withoutIds(stored) == withoutIds(try LibraryDatabase(path: database, mode: .readOnly).fontFaces()))

        // SUBFIX_DB names the PostgreSQL library too; a font that went away is forgotten.
        try FileManager.default.removeItem(at: fonts.appendingPathComponent("subfix-test-sans.ttc"))
        let (io, _) = CommandIO.capturing(environment: ["SUBFIX_DB": url])
        #expect(SubfixCLI.run(listing, io: io) == .success)
        #expect(try library.fontFaces().map(\.file) == [fonts.appendingPathComponent("subfix-test-sans.otf").path])
    }

    @Test func anUnreachableServerIsOneWarningWithoutThePassword() throws {
        let server = try PostgresTestServer.shared()
        let (io, output) = CommandIO.capturing()
        let status = SubfixCLI.run(
            [
                "fonts", "--no-system-fonts", "--fonts-dir", FontCatalogStoreTests.fixtures.path, "--db",
                server.url(database: "postgres", password: "Hunter2-wrong"),
            ], io: io)
        #expect(status == .success)
        #expect(!output.stdout.isEmpty)
        #expect(output.stderr.hasPrefix("subfix: warning: cannot store the font catalog: cannot connect to "))
        #expect(output.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!output.stderr.contains("Hunter2"))
    }
}
