import Foundation
import SubCore
import TestSupport
import Testing

@testable import subfix

/// `subfix report` in process: statuses, JSON, the one-line errors, usage errors, and the page's content and
/// escaping.
@Suite struct ReportCommandTests: RunsSubfix {
    /// The sample folder and the page written for it (`--json`), with the run's status, stdout and stderr.
    func report(_ extra: [String] = []) throws -> (
        folder: URL, status: subfix.ExitStatus, out: String, err: String, page: String
    ) {
        let folder = try TestFiles.temporaryDirectory("subfix-report")
        try ReportSamples.write(into: folder)
        let page = folder.appendingPathComponent("out/report.html")
        try FileManager.default.createDirectory(
            at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        let (status, out, err) = run(
            ["report", folder.path, "--out", page.path, "--json"] + ReportSamples.fontOptions + extra)
        let html = (try? String(contentsOf: page, encoding: .utf8)) ?? ""
        return (folder, status, out, err, html)
    }

    @Test func everyFileGetsItsStatusAndTheSummaryCountsThem() throws {
        let (folder, status, out, err, _) = try report()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.path
        #expect(status == .someFailed)
        #expect(
            err == """
                subfix: error: \(base)/binary.srt: binary data, not subtitle text
                subfix: error: \(base)/broken.srt:2:18: malformed timestamp 'garbage' (expected HH:MM:SS,mmm)
                subfix: error: \(base)/movie.mkv: not a media file libavformat can read (avformat_open_input: \
                Invalid data found when processing input)

                """)
        let objects = out.split(separator: "\n").map(String.init)
        let statuses = objects.compactMap { line -> String? in
            guard let file = field("file", in: line), let status = field("status", in: line) else { return nil }
            return "\(file.dropFirst(base.count + 1)) \(status)"
        }
        #expect(
            statuses == [
                "binary.srt failed", "broken.srt failed", "fixed/hostile.ass fixed", "hostile.ass needs-fixing",
                "movie.mkv failed", "movie.zh.ass needs-fixing",
                "\(jsonEscaped(ReportSamples.hostileName)) needs-fixing",
                "plain.srt missing-glyphs",
            ])
        // Each error line is also an error object (--json); every other object but the summary is a file.
        let errors = objects.filter { $0.hasPrefix("{\"type\":\"error\",") }
        #expect(errors.count == 3)
        #expect(
            objects.dropLast().filter { !errors.contains($0) }.allSatisfy { $0.hasPrefix("{\"type\":\"file\",") })
        #expect(
            objects.last
                == "{\"type\":\"summary\",\"files\":8,\"needsFixing\":3,\"fixed\":1,\"missingGlyphs\":1,\"failed\":3,"
                + "\"skipped\":0,\"output\":\"\(base)/out/report.html\"}")
        let plain = try #require(objects.first { $0.contains("plain.srt\"") })
        #expect(plain.contains("\"missingBefore\":\"你好\",\"missingAfter\":\"你好\""))
        #expect(plain.contains("SRT cannot carry fonts"))
        let hostile = try #require(objects.first { $0.contains("/hostile.ass\",\"status\":\"needs-fixing\"") })
        #expect(hostile.contains("\"missingBefore\":\"你好再见\",\"missingAfter\":\"\""))
        #expect(hostile.contains("\"frameTime\":\"00:00:02.000\""))
        let movie = try #require(objects.first { $0.hasPrefix("{\"type\":\"file\"") && $0.contains("movie.mkv\"") })
        #expect(movie.contains("\"related\":[\"\(base)/movie.zh.ass\"]"))
    }

    @Test func parallelRunsGiveTheSamePageAndLinesInTheSameOrder() throws {
        let (folder, _, out, err, page) = try report(["--jobs", "1"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let pageURL = folder.appendingPathComponent("out/report.html")
        let (_, parallelOut, parallelErr) = run(
            ["report", folder.path, "--out", pageURL.path, "--json", "--jobs", "3"] + ReportSamples.fontOptions)
        #expect(parallelOut == out)
        #expect(parallelErr == err)
        #expect(try String(contentsOf: pageURL, encoding: .utf8) == page)
    }

    @Test func thePageShowsCountsStatusesFramesAndLinks() throws {
        let (folder, _, _, _, page) = try report()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (id, count) in [
            ("files", 8), ("needs-fixing", 3), ("fixed", 1), ("missing-glyphs", 1), ("failed", 3),
        ] {
            #expect(page.contains("id=\"count-\(id)\"><span class=\"count\">\(count)</span>"), "count \(id)")
        }
        #expect(page.components(separatedBy: "<section class=\"file ").count == 9)
        // Frames: before and after for the three needs-fixing files and the fixed one (SRT text too: plain.srt).
        let images = page.components(separatedBy: "src=\"data:image/png;base64,").dropFirst()
        #expect(images.count == 10)
        for image in images {
            let base64 = String(image.prefix { $0 != "\"" })
            let png = try #require(Data(base64Encoded: base64))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        }
        #expect(page.contains("<a href=\"../broken.srt\">\(HTMLText.escaped(folder.path))/broken.srt</a>"))
        #expect(page.contains("<p class=\"related\">Sidecars: <a href=\"../movie.zh.ass\">"))
        #expect(page.contains("<p class=\"related\">Sidecar of: <a href=\"../movie.mkv\">"))
        #expect(
            page.contains(
                "<p class=\"error\">\(HTMLText.escaped(folder.path))/broken.srt:2:18: malformed timestamp &#39;garbage&#39;"
            ))
        #expect(page.contains("Blank on the player as it is: <span class=\"chars\">你好再见</span>"))
        #expect(page.contains("Still blank after the fix: all of them."))
    }

    @Test func hostileTextNamesAndFontsAreEscapedAndThePageCanRunNoScript() throws {
        let (folder, _, _, _, page) = try report()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The page itself has no script, no event handler and nothing to fetch; its policy forbids scripts.
        #expect(!page.lowercased().contains("<script"))
        #expect(!page.contains("<img src=x"))
        #expect(!page.contains(" onerror=\""))
        #expect(
            page.contains(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:;"
                    + " style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">"))
        #expect(!page.contains("http://") && !page.contains("https://"))
        // What the file holds shows as text.
        #expect(page.contains("<li>你好&lt;script&gt;document.title=&#39;pwned&#39;;"))
        #expect(page.contains("<li>&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;;"))
        #expect(page.contains("&lt;/li&gt;&lt;script&gt;document.title"))
        #expect(page.contains(">\(HTMLText.escaped(folder.path))/name&quot;&lt;img src=x onerror=&#39;"))
        // The hostile name in a link is percent-encoded: no quote can end the attribute.
        #expect(
            page.contains(
                "<a href=\"../name%22%3Cimg%20src%3Dx%20onerror%3D%27document.title%3D%27pwned%27%3Bdo%27%3E.ass\">"))
    }

    @Test func thePageIsReplacedAtomicallyAndAMissingFolderFailsInOneLine() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-report-write")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("a.ass")
        try Data(ReportSamples.ass(font: "SimHei", lines: ["你好"]).utf8).write(to: input)
        let page = folder.appendingPathComponent("page.html")
        try Data("old".utf8).write(to: page)
        let (status, out, err) = run(["report", input.path, "--out", page.path] + ReportSamples.fontOptions)
        #expect(status == .success)
        #expect(err == "")
        #expect(
            out == "\(input.path): needs fixing (2 CJK characters render blank as it is)\n"
                + "1 file: 1 need fixing, 0 fixed, 0 with missing glyphs, 0 failed, 0 skipped; report written to"
                + " \(page.path)\n")
        #expect(try String(contentsOf: page, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.ass", "page.html"])

        // An input named as the page is never overwritten.
        let text = folder.appendingPathComponent("notes.txt")
        try Data("keep".utf8).write(to: text)
        let (refused, _, refusedErr) = run(["report", text.path, "--out", text.path])
        #expect(refused == .someFailed)
        #expect(refusedErr == "subfix: error: \(text.path): the page would replace the input '\(text.path)'\n")
        #expect(try String(contentsOf: text, encoding: .utf8) == "keep")
        try FileManager.default.removeItem(at: text)

        let missing = folder.appendingPathComponent("no/such/page.html").path
        let (failed, _, failedErr) = run(["report", input.path, "--out", missing] + ReportSamples.fontOptions)
        #expect(failed == .someFailed)
        #expect(failedErr == "subfix: error: \(missing): cannot write: No such file or directory\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.ass", "page.html"])
    }

    @Test func aFIFOOrADeviceFailsAtOnceWithOneLine() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-report-fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.srt").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let page = folder.appendingPathComponent("page.html").path
        let (status, out, err) = run(["report", fifo, "/dev/zero", "--out", page])
        #expect(status == .someFailed)
        #expect(
            err == "subfix: error: \(fifo): cannot read: a FIFO (named pipe), not a regular file\n"
                + "subfix: error: /dev/zero: not a subtitle or media file (expected .ass, .ssa, .srt, .vtt or a media"
                + " file such as .mkv or .mp4)\n")
        #expect(
            out.hasSuffix(
                "2 files: 0 need fixing, 0 fixed, 0 with missing glyphs, 2 failed, 0 skipped; report written to \(page)\n"
            ))
    }

    @Test func theLibraryOptionReportsTheIndexedFiles() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-report-library")
        defer { try? FileManager.default.removeItem(at: folder) }
        let subtitles = folder.appendingPathComponent("subs")
        try FileManager.default.createDirectory(at: subtitles, withIntermediateDirectories: true)
        try Data(ReportSamples.ass(font: "SimHei", lines: ["你好"]).utf8).write(
            to: subtitles.appendingPathComponent("a.ass"))
        try Data("1\n00:00:01,000 --> 00:00:02,000\n再见\n".utf8).write(to: subtitles.appendingPathComponent("b.srt"))
        let database = folder.appendingPathComponent("library.sqlite").path
        let (indexed, _, indexErr) = run(["index", subtitles.path, "--db", database])
        #expect(indexed == .success, "\(indexErr)")
        let page = folder.appendingPathComponent("page.html").path
        let (status, out, err) = run(
            ["report", "--library", "--db", database, "--out", page, "--json"] + ReportSamples.fontOptions)
        #expect(status == .success)
        #expect(err == "")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(
            lines[0].hasPrefix("{\"type\":\"file\",\"file\":\"\(subtitles.path)/a.ass\",\"status\":\"needs-fixing\""))
        #expect(
            lines[1].hasPrefix("{\"type\":\"file\",\"file\":\"\(subtitles.path)/b.srt\",\"status\":\"missing-glyphs\""))

        let (missing, _, missingErr) = run(
            ["report", "--library", "--db", folder.appendingPathComponent("none.sqlite").path, "--out", page])
        #expect(missing == .someFailed)
        #expect(missingErr.hasPrefix("subfix: error: \(folder.path)/none.sqlite: no library database"))
    }

    @Test func mediaWithoutTextSubtitlesIsSkippedNotFailed() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-report-media")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bare = folder.appendingPathComponent("bare.mkv").path
        try MediaCLIFixtures.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:duration=1", "-c:v", "mpeg4", bare,
        ])
        let pgs = try MediaCLIFixtures.pgsOnlyMKV(in: folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("pgs.sup"))
        let tram = try MediaCLIFixtures.copy(
            MediaCLIFixtures.samples.appendingPathComponent("tram.mkv").path, to: folder, as: "tram.mkv")
        let page = folder.appendingPathComponent("page.html").path
        let (status, out, err) = run(["report", folder.path, "--out", page] + ReportSamples.fontOptions)
        #expect(status == .success)
        #expect(err == "")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("\(bare): skipped (there is no track 1; "))
        #expect(lines[1].hasPrefix("\(pgs): skipped ("))
        #expect(lines[2] == "\(tram): needs fixing (37 CJK characters render blank as it is)")
        #expect(
            lines[3]
                == "3 files: 1 need fixing, 0 fixed, 0 with missing glyphs, 0 failed, 2 skipped; report written to \(page)"
        )
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("id=\"count-skipped\"><span class=\"count\">2</span>"))
        #expect(html.components(separatedBy: "src=\"data:image/png;base64,").count == 3)
    }

    @Test(arguments: [
        (["report", "x.ass"], "subfix: error: 'report' needs one of '--out'\n"),
        (
            ["report", "x.ass", "--out", "-"],
            "subfix: error: invalid value '-' for '--out' (expected a path for the HTML file)\n"
        ),
        (
            ["report", "x.ass", "--out", ""],
            "subfix: error: invalid value '' for '--out' (expected a path for the HTML file)\n"
        ),
        (
            ["report", "x.ass", "--out", "/tmp"],
            "subfix: error: invalid value '/tmp' for '--out' (expected a file path, not a folder)\n"
        ),
        (["report", "--out", "a.html"], "subfix: error: 'report' needs PATH\n"),
        (
            ["report", "x.ass", "--out", "x.ASS"],
            "subfix: error: invalid value 'x.ASS' for '--out' (expected a path for the HTML file, not a subtitle or"
                + " media file)\n"
        ),
        (["report", "x.ass", "--out", "a.html", "--embed"], "subfix: error: unknown option '--embed' for 'report'\n"),
    ])
    func usageErrorsExitTwo(_ arguments: [String], _ expected: String) {
        let (status, out, err) = run(arguments)
        #expect(status == .usage)
        #expect(out == "")
        #expect(err == expected)
    }

    @Test func helpNamesTheOptions() {
        let (status, out, _) = run(["report", "--help"])
        #expect(status == .success)
        for option in [
            "--out FILE.html", "--player-fonts-dir DIR", "--font", "--policy", "--json", "--no-system-fonts",
        ] {
            #expect(out.contains(option), "\(option)")
        }
        #expect(!out.contains("\n  --embed"))
    }

    /// The string value of `key` in a one-line JSON object (escapes left as they are).
    func field(_ key: String, in line: String) -> String? {
        guard let start = line.range(of: "\"\(key)\":\"") else { return nil }
        var value = ""
        var escaped = false
        for character in line[start.upperBound...] {
            if escaped {
                value.append(character)
                escaped = false
            } else if character == "\\" {
                value.append(character)
                escaped = true
            } else if character == "\"" {
                return value
            } else {
                value.append(character)
            }
        }
        return nil
    }

    func jsonEscaped(_ text: String) -> String {
        JSON.string(text).serialized().dropFirst().dropLast().description
    }
}
