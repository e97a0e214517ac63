import Foundation
import TestSupport
import Testing

@testable import subfix

/// `subfix fix` given media files: every text track extracted in one pass and fixed into a sidecar.
@Suite struct FixMediaTests {
    private func run(_ arguments: [String]) -> (subfix.ExitStatus, String, String) {
        let (io, output) = CommandIO.capturing()
        let status = SubfixCLI.run(arguments, io: io)
        return (status, reportLinesOnly(output.stdout), output.stderr)
    }

    private func data(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Every file below `folder`, relative, sorted.
    private func tree(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func inPlaceWritesThreeSidecarsNextToTheMediaAndLeavesItAlone() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: directory, as: "movie.mkv")
        let dir = directory.path
        let (status, stdout, stderr) = run(["fix", mkv, "--in-place"])
        #expect(status == subfix.ExitStatus.success)
        #expect(stderr == "")
        #expect(
            stdout == """
                changed   \(mkv) track 1 = 0:s:0 = stream 2 (ass, chi) -> \(dir)/movie.0.chi.ass (styles 2, \\fn 1, font tags 0; UTF-8)
                changed   \(mkv) track 2 = 0:s:1 = stream 3 (subrip, eng) -> \(dir)/movie.1.eng.srt (styles 0, \\fn 0, font tags 1; UTF-8)
                changed   \(mkv) track 3 = 0:s:2 = stream 4 (ass, jpn) -> \(dir)/movie.2.jpn.ass (styles 2, \\fn 1, font tags 0; UTF-8)
                3 files: 3 changed, 0 unchanged, 0 failed

                """)
        #expect(tree(directory) == ["movie.0.chi.ass", "movie.1.eng.srt", "movie.2.jpn.ass", "movie.mkv"])
        #expect(try data(mkv) == data(MediaCLIFixtures.mkv))
        // By default each track gets the face of its own language.
        let chinese = try String(contentsOfFile: dir + "/movie.0.chi.ass", encoding: .utf8)
        let japanese = try String(contentsOfFile: dir + "/movie.2.jpn.ass", encoding: .utf8)
        #expect(chinese.contains("\nStyle: Default,Noto Sans CJK SC,") && !chinese.contains("Noto Sans CJK JP"))
        #expect(japanese.contains("\nStyle: Default,Noto Sans CJK JP,") && !japanese.contains("Noto Sans CJK SC"))
        // The sidecars are what `extract --fix` writes.
        let extracted = directory.appendingPathComponent("extracted").path
        #expect(run(["extract", mkv, "--all", "--fix", "--out", extracted]).0 == subfix.ExitStatus.success)
        for name in ["movie.0.chi.ass", "movie.1.eng.srt", "movie.2.jpn.ass"] {
            #expect(try data(dir + "/" + name) == data(extracted + "/" + name), "\(name)")
        }
        // A second run finds the sidecars (as subtitle files of their own) and the media: nothing changes.
        try FileManager.default.removeItem(atPath: extracted)
        let (again, againOut, againErr) = run(["fix", dir, "--in-place"])
        #expect(again == subfix.ExitStatus.success)
        #expect(againErr == "")
        #expect(
            againOut.split(separator: "\n").map { String($0.prefix(10)) } == [
                "unchanged ", "unchanged ", "unchanged ", "skipped   ", "skipped   ", "skipped   ", "6 files: 0",
            ])
        #expect(
            againOut.contains(
                "skipped   \(mkv): track 1: '\(dir)/movie.0.chi.ass' is also the output of '\(dir)/movie.0.chi.ass',"
                    + " which is fixed instead\n"))
        #expect(tree(directory) == ["movie.0.chi.ass", "movie.1.eng.srt", "movie.2.jpn.ass", "movie.mkv"])
    }

    @Test func outMirrorsRelativePathsAndJSONNamesTheTracks() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("in")
        let season = input.appendingPathComponent("season 1")
        try FileManager.default.createDirectory(at: season, withIntermediateDirectories: true)
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: season, as: "e01.MKV")
        let out = directory.appendingPathComponent("out").path
        let (status, stdout, stderr) = run(["fix", input.path, "--out", out, "--json", "--policy", "cjk"])
        #expect(status == subfix.ExitStatus.success)
        #expect(stderr == "")
        let lines = stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        let first: String =
            #"{"type":"file","file":"\#(mkv)","track":1,"subtitleIndex":0,"stream":2,"output":"\#(out)/season 1/e01.0.chi.ass","#
            + #""status":"changed","encoding":"UTF-8","runnerUp":null,"outputEncoding":"UTF-8","#
            + #""styles":2,"fnTags":1,"fontTags":0,"unknownFonts":[],"#
            + #""faces":[{"kind":"style","style":"Default","font":"微软雅黑","face":"Noto Sans CJK SC","#
            + #""language":"zh-Hans","reason":"known CJK font; Simplified-only characters in its style's text","#
            + #""count":1},{"kind":"style","style":"Sign","font":"SimHei","face":"Noto Sans CJK SC","#
            + #""language":"zh-Hans","reason":"known CJK font; Simplified-only characters in its style's text; bold:"#
            + #" the family's bold face","#
            + #""count":1},{"kind":"fn","style":null,"font":"SimHei","face":"Noto Sans CJK SC","language":"zh-Hans","#
            + #""reason":"known CJK font; Simplified-only characters in the run","count":1}],"#
            + #""embedded":[],"error":null,"note":null}"#
        #expect(lines.first == first)
        // The Japanese track gets the Japanese face: by its kana, or by its track title where a style draws none.
        let japanese: String =
            #""faces":[{"kind":"style","style":"Default","font":"MS Gothic","face":"Noto Sans CJK JP","#
            + #""language":"ja","reason":"known CJK font; kana in its style's text","count":1},"#
            + #"{"kind":"style","style":"Note","font":"@微软雅黑","face":"@Noto Sans CJK JP","language":"ja","#
            + #""reason":"known CJK font; tagged Japanese (track title and file name)","count":1},"#
            + #"{"kind":"fn","style":null,"font":"SimHei","face":"Noto Sans CJK JP","language":"ja","#
            + #""reason":"known CJK font; kana in the run","count":1}],"embedded":[],"#
        let third = lines.dropFirst(2).first ?? ""
        #expect(third.hasPrefix(#"{"type":"file","file":"\#(mkv)","track":3,"#) && third.contains(japanese))
        #expect(
            lines.last?.hasPrefix(#"{"type":"summary","files":3,"changed":3,"unchanged":0,"failed":0,"skipped":0,"#)
                == true)
        #expect(
            tree(URL(fileURLWithPath: out)) == [
                "season 1", "season 1/e01.0.chi.ass", "season 1/e01.1.eng.srt", "season 1/e01.2.jpn.ass",
            ])
        #expect(tree(input) == ["season 1", "season 1/e01.MKV"])
    }

    @Test func dryRunWritesNothingAndDiffsAgainstTheExtractedText() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: directory, as: "tram.mkv")
        let (status, stdout, stderr) = run(["fix", mkv, "--dry-run", "--diff"])
        #expect(status == subfix.ExitStatus.success)
        #expect(stderr == "")
        #expect(
            stdout.hasPrefix(
                "changed   \(mkv) track 1 = 0:s:0 = stream 2 (ass, chi) (styles 2, \\fn 1, font tags 0; UTF-8)\n"
                    + "--- \(mkv) track 1 (extracted)\n+++ tram.0.chi.ass\n@@ -10,13 +10,13 @@\n"))
        #expect(stdout.contains("-Style: Sign,SimHei,14,"))
        #expect(stdout.contains("+Style: Sign,Noto Sans CJK SC,14,"))
        #expect(
            stdout.contains(
                "--- \(mkv) track 2 (extracted)\n+++ tram.1.eng.srt\n@@ -13,5 +13,5 @@\n \n 4\n"
                    + " 00:00:04,200 --> 00:00:04,900\n-<font face=\"SimHei\">Thank you.</font>\n"
                    + "+<font face=\"Noto Sans CJK SC\">Thank you.</font>\n"))
        #expect(stdout.hasSuffix("3 files: 3 changed, 0 unchanged, 0 failed\n"))
        #expect(tree(directory) == ["tram.mkv"])
    }

    /// A truncated MKV and a text file named .mkv fail alone (nothing written for them); a subtitle file and a
    /// good MKV next to them are fixed; a media file without subtitles is skipped, which is no failure.
    @Test func brokenMediaFailsAloneAndOthersAreFixed() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let half = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: input, as: "half.mkv", fraction: 0.5)
        let good = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: input, as: "tram.mkv")
        let notes = input.appendingPathComponent("notes.mkv").path
        try Data("WEBVTT? no, just notes\n".utf8).write(to: URL(fileURLWithPath: notes))
        let srt = input.appendingPathComponent("a.srt").path
        try Data("1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好</font>\n".utf8)
            .write(to: URL(fileURLWithPath: srt))
        let out = directory.appendingPathComponent("out").path
        let (status, stdout, stderr) = run(["fix", input.path, "--out", out])
        #expect(status == subfix.ExitStatus.someFailed)
        #expect(
            stderr == """
                subfix: error: \(half): reading stopped at 0:00:00.640 of 0:00:05.000 (File ended prematurely)
                subfix: error: \(notes): not a media file libavformat can read (avformat_open_input: Invalid data found when processing input)

                """)
        #expect(
            stdout == """
                changed   \(srt) -> \(out)/a.srt (styles 0, \\fn 0, font tags 1; UTF-8)
                failed    \(half)
                failed    \(notes)
                changed   \(good) track 1 = 0:s:0 = stream 2 (ass, chi) -> \(out)/tram.0.chi.ass (styles 2, \\fn 1, font tags 0; UTF-8)
                changed   \(good) track 2 = 0:s:1 = stream 3 (subrip, eng) -> \(out)/tram.1.eng.srt (styles 0, \\fn 0, font tags 1; UTF-8)
                changed   \(good) track 3 = 0:s:2 = stream 4 (ass, jpn) -> \(out)/tram.2.jpn.ass (styles 2, \\fn 1, font tags 0; UTF-8)
                6 files: 4 changed, 0 unchanged, 2 failed

                """)
        #expect(
            tree(URL(fileURLWithPath: out)) == ["a.srt", "tram.0.chi.ass", "tram.1.eng.srt", "tram.2.jpn.ass"])
    }

    @Test func mediaWithoutSubtitlesIsSkippedNotFailed() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = directory.appendingPathComponent("silent.mkv").path
        try MediaCLIFixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x36:rate=5:duration=1", "-c:v", "mpeg4", mkv])
        let (status, stdout, stderr) = run(["fix", mkv, "--in-place"])
        #expect(status == subfix.ExitStatus.success)
        #expect(stderr == "")
        #expect(
            stdout == """
                skipped   \(mkv): the file has no subtitle tracks
                1 file: 0 changed, 0 unchanged, 0 failed, 1 skipped

                """)
        let (_, json, _) = run(["fix", mkv, "--dry-run", "--json"])
        let expected: String =
            #"{"type":"file","file":"\#(mkv)","track":null,"subtitleIndex":null,"stream":null,"output":null,"#
            + #""status":"skipped","encoding":null,"runnerUp":null,"outputEncoding":null,"#
            + #""styles":0,"fnTags":0,"fontTags":0,"unknownFonts":[],"#
            + #""faces":[],"embedded":[],"error":null,"note":"the file has no subtitle tracks"}"#
        #expect(json.split(separator: "\n").first.map(String.init) == expected)
        #expect(tree(directory) == ["silent.mkv"])
    }

    @Test func bitmapTracksAreSkippedWithTheOCRReason() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let pgs = try MediaCLIFixtures.pgsOnlyMKV(in: directory)
        let (status, stdout, stderr) = run(["fix", pgs, "--in-place"])
        #expect(status == subfix.ExitStatus.success)
        #expect(stderr == "")
        #expect(
            stdout == """
                skipped   \(pgs): track 1 is PGS (bitmap): text extraction needs OCR (subfix extract --ocr)
                1 file: 0 changed, 0 unchanged, 0 failed, 1 skipped

                """)
        #expect(tree(directory) == ["pgs.mkv", "pgs.sup"])
    }

    /// --in-place never loses a sidecar that is already there and differs: it is kept as a backup, and an
    /// existing backup is never overwritten.
    @Test func inPlaceKeepsADifferentSidecarAsABackup() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: directory, as: "tram.mkv")
        let sidecar = directory.appendingPathComponent("tram.1.eng.srt").path
        try Data("hand-made\n".utf8).write(to: URL(fileURLWithPath: sidecar + ".orig"))
        try Data("1\n00:00:01,000 --> 00:00:02,000\nmine\n".utf8).write(to: URL(fileURLWithPath: sidecar))
        // Only the media file is named, so the sidecar is not an input of its own.
        let (status, stdout, stderr) = run(["fix", mkv, "--in-place"])
        #expect(status == subfix.ExitStatus.someFailed)
        #expect(
            stderr == "subfix: error: \(mkv): track 2: backup '\(sidecar).orig' already exists; not overwriting it"
                + " (move it away or choose another --backup-suffix)\n")
        #expect(stdout.contains("\nfailed    \(mkv) track 2 = 0:s:1 = stream 3 (subrip, eng)\n"))
        #expect(try data(sidecar) == Data("1\n00:00:01,000 --> 00:00:02,000\nmine\n".utf8))
        let (second, _, _) = run(["fix", mkv, "--in-place", "--backup-suffix", ".bak"])
        #expect(second == subfix.ExitStatus.success)
        #expect(try data(sidecar + ".bak") == Data("1\n00:00:01,000 --> 00:00:02,000\nmine\n".utf8))
        #expect(try String(contentsOfFile: sidecar, encoding: .utf8).contains("Noto Sans CJK SC"))
    }

    /// Two media files whose sidecars would have the same names: the second one's tracks fail, never overwriting
    /// the first one's (with --jobs 1 the order is the walk's name order).
    @Test func sidecarsOfTwoMediaFilesNeverOverwriteEachOther() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let first = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: input, as: "x.mks")
        let second = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: input, as: "x.mkv")
        let out = directory.appendingPathComponent("out").path
        let (status, stdout, stderr) = run(["fix", input.path, "--out", out, "--jobs", "1"])
        #expect(status == subfix.ExitStatus.someFailed)
        #expect(
            stderr == """
                subfix: error: \(second): track 1: output '\(out)/x.0.chi.ass' is also the output of '\(first)'
                subfix: error: \(second): track 2: output '\(out)/x.1.eng.srt' is also the output of '\(first)'
                subfix: error: \(second): track 3: output '\(out)/x.2.jpn.ass' is also the output of '\(first)'

                """)
        #expect(
            stdout.hasSuffix(
                "\nfailed    \(second) track 3 = 0:s:2 = stream 4 (ass, jpn)\n6 files: 3 changed, 0 unchanged, 3 failed\n"
            ))
        #expect(tree(URL(fileURLWithPath: out)) == ["x.0.chi.ass", "x.1.eng.srt", "x.2.jpn.ass"])
    }
}
