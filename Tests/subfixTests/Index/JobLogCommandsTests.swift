import Foundation
import SubDB
import SubfixLibrary
import Testing

@testable import subfix

/// `extract`, `render` and `check` record their runs with `--db`, and `subfix jobs` lists them.
@Suite struct JobLogCommandsTests {
    static let demo = RenderCommandsTests.demo
    static let fonts = RenderCommandsTests.fonts

    /// The newest job of `db` as `subfix jobs --json` prints it, and its file records.
    func newestJob(_ fixture: IndexFixture) throws -> (json: String, files: [JobFileRecord]) {
        let (status, out, err) = fixture.run(["jobs", "--db", fixture.db, "--json", "--limit", "1"])
        #expect(status == .success && err == "")
        let library = try LibraryDatabase(path: fixture.db, mode: .existing)
        let job = try #require(try library.recentJobs(limit: 1).first)
        return (out, try library.files(ofJob: try #require(job.id)))
    }

    @Test func extractRecordsEachWrittenTrackAndAttachment() throws {
        let fixture = try IndexFixture()
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: fixture.directory, as: "movie.mkv")
        let fonts = fixture.path + "/fonts"
        let (status, _, err) = fixture.run([
            "extract", mkv, "--all", "--format", "srt", "--attachments", fonts, "--db", fixture.db,
        ])
        #expect(status == .success && err == "")
        let (json, files) = try newestJob(fixture)
        #expect(
            json.hasPrefix(
                #"{"type":"job","id":1,"command":"extract","arguments":["\#(mkv)","--all","--format","srt","--attachments","#
                    + #""\#(fonts)","--db","\#(fixture.db)"],"started":"#))
        #expect(json.hasSuffix(#""status":"succeeded","counts":{"attachments":1,"files":1,"tracks":3}}"# + "\n"))
        #expect(files.map(\.path) == Array(repeating: mkv, count: 4))
        #expect(
            files.map(\.output) == [
                fixture.path + "/movie.0.chi.srt", fixture.path + "/movie.1.eng.srt",
                fixture.path + "/movie.2.jpn.srt", fonts + "/NotoSansCJKsc-Sample.otf",
            ])
        #expect(files.map(\.status) == [.extracted, .extracted, .extracted, .attachment])
        #expect(files.allSatisfy { $0.error == nil })
    }

    @Test func extractOfAFileThatIsNotMediaIsRecordedAsFailed() throws {
        let fixture = try IndexFixture()
        let bogus = fixture.path + "/notes.mkv"
        try Data("WEBVTT? no, just notes\n".utf8).write(to: URL(fileURLWithPath: bogus))
        let (status, _, err) = fixture.run(["extract", bogus, "--all", "--db", fixture.db])
        #expect(status == .someFailed)
        let cause =
            "not a media file libavformat can read (avformat_open_input: Invalid data found when processing input)"
        #expect(err == "subfix: error: \(bogus): \(cause)\n")
        let (json, files) = try newestJob(fixture)
        #expect(json.hasSuffix(#""status":"failed","counts":{"attachments":0,"files":1,"tracks":0}}"# + "\n"))
        #expect(files == [JobFileRecord(id: files.first?.id, jobId: 1, path: bogus, status: .failed, error: cause)])
    }

    @Test func renderRecordsEachFrameWrittenAndTheSheet() throws {
        let fixture = try IndexFixture()
        // render and check log only to a library that exists: they never make one.
        _ = try LibraryDatabase(path: fixture.db, mode: .create)
        let frames = fixture.path + "/frames"
        let sheet = fixture.path + "/sheet.png"
        let (status, _, err) = fixture.run([
            "render", Self.demo, "--at", "1", "--at", "4.5", "--size", "64x36", "--no-system-fonts", "--fonts-dir",
            Self.fonts, "--out-dir", frames, "--sheet", sheet, "--db", fixture.db,
        ])
        #expect(status == .success && err == "")
        let (json, files) = try newestJob(fixture)
        #expect(
            json.contains(
                #"{"type":"job","id":1,"command":"render","arguments":["\#(Self.demo)","--at","1","--at","4.5","#))
        #expect(json.hasSuffix(#""status":"succeeded","counts":{"files":3,"frames":2}}"# + "\n"))
        #expect(
            files.map(\.output) == [
                frames + "/render-demo-00-00-01.000.png", frames + "/render-demo-00-00-04.500.png", sheet,
            ])
        #expect(files.map(\.status) == [.written, .written, .sheet])
        #expect(files.allSatisfy { $0.path == Self.demo && $0.error == nil })
        for file in files { #expect(FileManager.default.fileExists(atPath: try #require(file.output))) }
    }

    @Test func renderOfAMissingInputIsRecordedAsFailed() throws {
        let fixture = try IndexFixture()
        // render and check log only to a library that exists: they never make one.
        _ = try LibraryDatabase(path: fixture.db, mode: .create)
        let missing = fixture.path + "/missing.ass"
        let (status, _, err) = fixture.run([
            "render", missing, "--at", "1", "--out", fixture.path + "/a.png", "--db", fixture.db,
        ])
        #expect(status == .someFailed)
        let (json, files) = try newestJob(fixture)
        #expect(json.hasSuffix(#""status":"failed","counts":{"files":0,"frames":0}}"# + "\n"))
        let file = try #require(files.first)
        #expect(files.count == 1 && file.path == missing && file.status == .failed)
        #expect(file.error == "\(missing): no such file")
        #expect(err == "subfix: error: \(missing): no such file\n")
    }

    @Test func checkRecordsEachInputWithItsEventCounts() throws {
        let fixture = try IndexFixture()
        // render and check log only to a library that exists: they never make one.
        _ = try LibraryDatabase(path: fixture.db, mode: .create)
        let empty = fixture.path + "/media"
        let missing = fixture.path + "/missing.srt"
        let (status, _, err) = fixture.run([
            "check", Self.demo, missing, "--no-system-fonts", "--fonts-dir", empty, "--db", fixture.db,
        ])
        #expect(status == .someFailed)
        let (json, files) = try newestJob(fixture)
        #expect(
            json.hasSuffix(
                #""status":"failed","counts":{"events":3,"eventsWithMissingGlyphs":3,"failed":1,"files":2}}"# + "\n"))
        #expect(files.map(\.path) == [Self.demo, missing])
        #expect(files.map(\.status) == [.missing, .failed])
        #expect(files.first?.counts == ["events": 3, "eventsWithMissingGlyphs": 3])
        #expect(files.last?.error == "\(missing): no such file")
        #expect(err == "subfix: error: \(missing): no such file\n")

        let (okStatus, _, okErr) = fixture.run([
            "check", Self.demo, "--fonts-dir", Self.fonts, "--db", fixture.db, "--json",
        ])
        #expect(okStatus == .success && okErr == "")
        let (okJSON, okFiles) = try newestJob(fixture)
        #expect(okJSON.hasPrefix(#"{"type":"job","id":2,"command":"check","#))
        #expect(
            okJSON.hasSuffix(
                #""status":"succeeded","counts":{"events":3,"eventsWithMissingGlyphs":0,"failed":0,"files":1}}"#
                    + "\n"))
        #expect(okFiles.map(\.status) == [.covered])

        let (_, text, _) = fixture.run(["jobs", "--db", fixture.db])
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        let line = String(try #require(lines.last))
        #expect(line.hasPrefix("#1 ") && line.contains(" check failed "))
        #expect(
            line.hasSuffix(
                " s: events 3, eventsWithMissingGlyphs 3, failed 1, files 2 -- check \(Self.demo) \(missing)"
                    + " --fonts-dir \(empty) --no-system-fonts --db \(fixture.db)"))
    }

    /// A library below a regular file cannot be created: for extract a warning, and the command's own exit
    /// status; render and check, which only read their inputs, never create a library, so they say nothing.
    @Test(arguments: ["extract", "render", "check"])
    func anUnusableDatabaseIsOnlyAWarning(command: String) throws {
        let fixture = try IndexFixture()
        let blocker = try fixture.srt("a.srt", ["你好"])
        let blocked = blocker + "/library.sqlite"
        // Each run writes to its own place (`o1`, `o2`): a second extraction into one folder would number its files.
        func arguments(_ place: String) -> [String] {
            switch command {
            case "extract":
                ["extract", MediaCLIFixtures.mkv, "--track", "1", "--out", fixture.path + "/" + place]
            case "render":
                [
                    "render", Self.demo, "--at", "1", "--size", "64x36", "--no-system-fonts", "--fonts-dir",
                    Self.fonts, "--out", fixture.path + "/" + place + ".png",
                ]
            default:
                ["check", Self.demo, "--no-system-fonts", "--fonts-dir", fixture.path + "/media"]
            }
        }
        let (plainStatus, plainOut, plainErr) = fixture.run(arguments("o1"))
        let (status, out, err) = fixture.run(arguments("o2") + ["--db", blocked])
        #expect(status == plainStatus)
        #expect(out == plainOut.replacingOccurrences(of: "/o1", with: "/o2"))
        if command == "extract" {
            #expect(err.hasPrefix(plainErr + "subfix: warning: \(blocked): cannot record the job: "))
            #expect(err.split(separator: "\n").count == plainErr.split(separator: "\n").count + 1)
        } else {
            #expect(err == plainErr)
        }
        #expect(!FileManager.default.fileExists(atPath: blocked))
    }
}
