import Foundation
import SubDB
import SubfixLibrary
import Testing

@testable import subfix

/// A temporary folder with subtitle files and a library path, for the index/search/jobs command tests.
struct IndexFixture: RunsSubfix {
    let directory: URL
    var path: String { directory.path }
    var db: String { directory.appendingPathComponent("lib/library.sqlite").path }

    init() throws {
        directory = try MediaCLIFixtures.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("media"), withIntermediateDirectories: true)
    }

    /// Writes `media/a.ass`, an ASS script whose \\fn run names SimHei, and returns its path.
    @discardableResult
    func writeSimHeiScript() throws -> String {
        let input = path + "/media/a.ass"
        try Data(
            """
            [Script Info]
            ScriptType: v4.00+

            [V4+ Styles]
            Format: Name, Fontname, Fontsize
            Style: Default,Arial,20

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\fnSimHei}你好

            """.utf8
        ).write(to: URL(fileURLWithPath: input))
        return input
    }

    /// Writes an SRT file below `media/` with one cue per text, a second apart, and returns its path.
    @discardableResult
    func srt(_ name: String, _ texts: [String]) throws -> String {
        let body = texts.enumerated().map { index, text in
            "\(index + 1)\n00:00:0\(index),000 --> 00:00:0\(index),500\n\(text)\n"
        }.joined(separator: "\n")
        let url = directory.appendingPathComponent("media/" + name)
        try Data(body.utf8).write(to: url)
        return url.path
    }

    /// Runs subfix and returns exit status, stdout and stderr.
}

@Suite struct IndexCommandTests {
    @Test func skipsUnchangedReplacesChangedAndPrunesVanishedFiles() throws {
        let fixture = try IndexFixture()
        let a = try fixture.srt("a.srt", ["你好", "再见"])
        let b = try fixture.srt("b.zh.srt", ["电视"])
        let media = fixture.path + "/media"
        var (status, out, err) = fixture.run(["index", media, "--db", fixture.db])
        #expect(status == .success)
        #expect(err == "")
        #expect(out == "2 files: 2 new, 0 updated, 0 unchanged, 0 removed, 0 failed; 3 lines stored\n")
        (status, out, err) = fixture.run(["index", media, "--db", fixture.db])
        #expect(out == "2 files: 0 new, 0 updated, 2 unchanged, 0 removed, 0 failed; 0 lines stored\n")
        try fixture.srt("a.srt", ["你好吗", "谢谢", "不客气"])
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 10)], ofItemAtPath: a)
        try FileManager.default.removeItem(atPath: b)
        (status, out, err) = fixture.run(["index", media, "--db", fixture.db])
        #expect(out == "1 file: 0 new, 1 updated, 0 unchanged, 0 removed, 0 failed; 3 lines stored\n")
        (status, out, err) = fixture.run(["index", media, "--db", fixture.db, "--prune", "--json"])
        #expect(status == .success)
        #expect(
            out == """
                {"type":"file","file":"\(b)","status":"removed","sources":0,"lines":0,"error":null}
                {"type":"file","file":"\(a)","status":"unchanged","sources":0,"lines":0,"error":null}
                {"type":"summary","files":2,"new":0,"updated":0,"unchanged":1,"removed":1,"failed":0,"lines":0}

                """)
        (status, out, err) = fixture.run(["search", "你", "--db", fixture.db, "--brackets"])
        #expect(out == "\(a) 00:00:00.000 --> 00:00:00.500  [你]好吗\n")
        (status, out, err) = fixture.run(["search", "电视", "--db", fixture.db])
        #expect(status == .someFailed && out == "" && err == "")  // nothing matched: exit 1, as grep
    }

    @Test func aBrokenFileIsReportedWhileTheOthersAreIndexed() throws {
        let fixture = try IndexFixture()
        let good = try fixture.srt("good.srt", ["好的"])
        let broken = fixture.path + "/media/broken.srt"
        try Data("1\n00:00:01,000 --> 00:0x:02,000\nbad\n".utf8).write(to: URL(fileURLWithPath: broken))
        let empty = fixture.path + "/media/empty.ass"
        try Data().write(to: URL(fileURLWithPath: empty))
        let tiny = try MediaCLIFixtures.copy(
            MediaCLIFixtures.mkv, to: fixture.directory.appendingPathComponent("media"), as: "tiny.mkv", fraction: 0.003
        )
        let (status, out, err) = fixture.run([
            "index", fixture.path + "/media", fixture.path + "/notes.txt", "--db", fixture.db,
        ])
        #expect(status == .someFailed)
        #expect(out == "5 files: 1 new, 0 updated, 0 unchanged, 0 removed, 4 failed; 1 lines stored\n")
        #expect(
            err == """
                subfix: error: \(fixture.path)/notes.txt: cannot read: No such file or directory
                subfix: error: \(broken):2:18: malformed timestamp '00:0x:02,000' (expected HH:MM:SS,mmm)
                subfix: error: \(empty): empty file (0 bytes), not a subtitle
                subfix: error: \(tiny): not a media file libavformat can read (avformat_open_input: Input/output error)

                """)
        let (_, found, _) = fixture.run(["search", "好", "--db", fixture.db, "--brackets"])
        #expect(found == "\(good) 00:00:00.000 --> 00:00:00.500  [好]的\n")
    }

    /// A file updated in place (the same number of cues) and then truncated: the run names it in one error line,
    /// exits 1, and the library keeps its last good version, until a good one comes again.
    @Test func aTruncatedFileKeepsItsLastIndexedVersion() throws {
        let fixture = try IndexFixture()
        let a = try fixture.srt("a.srt", ["你好", "再见"])
        let media = fixture.path + "/media"
        let later = { (seconds: Double) in
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: seconds)], ofItemAtPath: a)
        }
        _ = fixture.run(["index", media, "--db", fixture.db])
        try fixture.srt("a.srt", ["你好", "再会"])
        try later(10)
        var (status, out, err) = fixture.run(["index", media, "--db", fixture.db])
        #expect(status == .success && err == "")
        #expect(out == "1 file: 0 new, 1 updated, 0 unchanged, 0 removed, 0 failed; 2 lines stored\n")
        let whole = try Data(contentsOf: URL(fileURLWithPath: a))
        try whole.prefix(whole.count - 12).write(to: URL(fileURLWithPath: a))
        try later(20)
        (status, out, err) = fixture.run(["index", media, "--db", fixture.db])
        #expect(status == .someFailed)
        #expect(err.split(separator: "\n").count == 1 && err.hasPrefix("subfix: error: \(a):"), "\(err)")
        (status, out, err) = fixture.run(["search", "再会", "--db", fixture.db, "--brackets"])
        #expect(out == "\(a) 00:00:01.000 --> 00:00:01.500  [再会]\n")
        try fixture.srt("a.srt", ["你好", "明天见"])
        try later(30)
        (status, out, err) = fixture.run(["index", media, "--db", fixture.db])
        #expect(status == .success && err == "")
        (status, out, err) = fixture.run(["search", "再会 OR 明天", "--db", fixture.db, "--brackets"])
        #expect(out == "\(a) 00:00:01.000 --> 00:00:01.500  [明天]见\n")
    }

    @Test func mediaTracksAreIndexedAndATruncatedFileKeepsWhatWasReadable() throws {
        let fixture = try IndexFixture()
        let folder = fixture.directory.appendingPathComponent("media")
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: folder, as: "tram.mkv")
        var (status, out, err) = fixture.run(["index", mkv, "--db", fixture.db])
        #expect(status == .success && err == "")
        (status, out, err) = fixture.run(["search", "終電", "--db", fixture.db, "--lang", "ja", "--json"])
        #expect(
            out == """
                {"type":"hit","file":"\(mkv)","track":3,"language":"jpn","start":"00:00:00.200","end":"00:00:01.400",\
                "text":"終電は十分後に出ます。","snippet":"[終電]は十分後に出ます。","rank":\(try rank(out))}

                """)
        let cut = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: folder, as: "cut.mkv", fraction: 40_000 / 67_203)
        (status, out, err) = fixture.run(["index", cut, "--db", fixture.db])
        #expect(status == .success)
        #expect(
            err == "subfix: warning: \(cut): reading stopped at 0:00:01.500 of 0:00:05.000 (File ended prematurely); "
                + "indexed what was readable\n")
        (status, out, err) = fixture.run(["search", "tram", "--db", fixture.db, "--path", "*/cut.mkv", "--brackets"])
        #expect(out == "\(cut) [track 2, eng] 00:00:00.200 --> 00:00:01.400  The last [tram] leaves in ten minutes.\n")
    }

    func rank(_ json: String) throws -> String {
        let range = try #require(json.range(of: #""rank":"#))
        return String(json[range.upperBound...].prefix { $0 != "}" })
    }

    @Test func foldingCannotChangeOnAnExistingIndex() throws {
        let fixture = try IndexFixture()
        try fixture.srt("a.srt", ["電視"])
        var (status, out, err) = fixture.run(["index", fixture.path + "/media", "--db", fixture.db, "--fold-chinese"])
        #expect(status == .success)
        (status, out, err) = fixture.run(["search", "电视", "--db", fixture.db, "--brackets"])
        #expect(out == "\(fixture.path)/media/a.srt 00:00:00.000 --> 00:00:00.500  [電視]\n")
        (status, out, err) = fixture.run(["index", fixture.path + "/media", "--db", fixture.db])
        #expect(status == .someFailed)
        #expect(out == "")
        #expect(
            err == "subfix: error: \(fixture.db): the dialogue index was built with --fold-chinese and cannot be "
                + "updated without it; rebuild it: delete \(fixture.db) and run `subfix index` again\n")
    }
}
