import Foundation
import SubDB
import SubfixLibrary
import Testing

@testable import subfix

@Suite struct JobsCommandTests {
    @Test func fixAndIndexRunsAreLogged() throws {
        let fixture = try IndexFixture()
        let input = try fixture.writeSimHeiScript()
        let missing = fixture.path + "/media/missing.srt"
        // A dry run never creates a library: with none there yet, nothing is logged and no file appears.
        var (status, _, _) = fixture.run(["fix", "--dry-run", "--db", fixture.db, input, missing])
        #expect(status == .someFailed)
        #expect(!FileManager.default.fileExists(atPath: fixture.db))
        (status, _, _) = fixture.run(["index", fixture.path + "/media", "--db", fixture.db])
        #expect(status == .success)
        // In a library that exists, it is logged and marked as a dry run.
        (status, _, _) = fixture.run(["fix", "--dry-run", "--db", fixture.db, input, missing])
        #expect(status == .someFailed)

        let library = try LibraryDatabase(path: fixture.db, mode: .existing)
        let jobs = try library.recentJobs(limit: 10)
        #expect(jobs.map(\.command) == ["fix", "index"])
        let fix = try #require(jobs.first)
        #expect(fix.arguments == [input, missing, "--dry-run", "--db", fixture.db])
        #expect(fix.status == .failed)
        #expect(fix.counts == ["files": 2, "changed": 1, "unchanged": 0, "failed": 1, "dryRun": 1])
        let files = try library.files(ofJob: try #require(fix.id))
        #expect(files.map(\.path) == [input, missing])
        #expect(files.map(\.status) == [.changed, .failed])
        // The default policy (text) keeps Arial: the style draws no text of its own (the \fn run covers it all).
        #expect(files.first?.counts == ["styles": 0, "fnTags": 1, "fontTags": 0])
        #expect(files.last?.error == "cannot read: No such file or directory")

        let (jobsStatus, out, err) = fixture.run(["jobs", "--db", fixture.db, "--json", "--limit", "2"])
        #expect(jobsStatus == .success && err == "")
        #expect(
            out.contains(
                #"{"type":"job","id":1,"command":"index","arguments":["\#(fixture.path)/media","--db","\#(fixture.db)"],"started":"#
            )
        )
        #expect(
            out.hasSuffix(
                #""status":"succeeded","counts":{"failed":0,"files":1,"lines":1,"new":1,"removed":0,"unchanged":0,"updated":0}}"#
                    + "\n"))
        let (_, text, _) = fixture.run(["jobs", "--db", fixture.db])
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("#2 ") == true)
        #expect(
            lines.first?.hasSuffix(
                ": changed 1, dryRun 1, failed 1, files 2, unchanged 0 -- fix \(input) \(missing) --dry-run --db"
                    + " \(fixture.db)") == true)
    }

    /// Listing fonts stores the catalog in a library that exists, and never creates one.
    @Test func listingFontsCreatesNoLibrary() throws {
        let fixture = try IndexFixture()
        let fonts = ["fonts", "--no-system-fonts", "--fonts-dir", RenderCommandsTests.fonts, "--db", fixture.db]
        var (status, out, err) = fixture.run(fonts)
        #expect(status == .success && err == "" && out.contains("Noto Sans CJK SC"))
        #expect(!FileManager.default.fileExists(atPath: fixture.db))
        (status, _, _) = fixture.run(["index", try fixture.srt("a.srt", ["你好"]), "--db", fixture.db])
        #expect(status == .success)
        (status, _, err) = fixture.run(fonts)
        #expect(status == .success && err == "")
        let library = try LibraryDatabase(path: fixture.db, mode: .existing)
        #expect(try library.fontFaces().contains { $0.families.contains("Noto Sans CJK SC") })
    }

    @Test func aDatabaseThatCannotBeOpenedIsOnlyAWarningForFix() throws {
        let fixture = try IndexFixture()
        let input = try fixture.srt("a.srt", ["你好"])
        let blocked = fixture.path + "/media/a.srt/library.sqlite"  // below a file: cannot be created
        let (status, out, err) = fixture.run(["fix", "--out", fixture.path + "/out", "--db", blocked, input])
        #expect(status == .success)
        #expect(out.hasSuffix("1 file: 0 changed, 1 unchanged, 0 failed\n"))
        #expect(err.hasPrefix("subfix: warning: \(blocked): cannot record the job: "))
        #expect(err.split(separator: "\n").count == 1)
    }
}
