import Foundation
import SubCore
import Testing

private let simHeiSRT = "1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好</font>\n"

/// Inputs a user can hand subfix by accident or on purpose, run through the built binary: none may hang, grow
/// without bound, or reach the terminal raw.
@Suite struct HostileInputTests {
    /// A FIFO blocked `open` forever (issue 16, item 1); every command now refuses it at once.
    @Test(arguments: [
        ["fix", "f.srt", "--out", "o"], ["fix", "f.srt", "--dry-run"], ["index", "f.srt", "--db", "l.sqlite"],
        ["check", "f.srt"], ["render", "f.srt", "--at", "1", "--out", "a.png"],
    ])
    func fifoIsRefusedNotWaitedOn(_ arguments: [String]) throws {
        let folder = try SubfixBinary.folder("fifo")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(mkfifo(folder + "/f.srt", 0o644) == 0)
        let run = try SubfixBinary.run(arguments, in: folder, limit: 30)
        #expect(!run.hung)
        #expect(run.status == 1)
        #expect(run.errorLines.contains("subfix: error: f.srt: cannot read: a FIFO (named pipe), not a regular file"))
    }

    /// A FIFO named like a font in `--fonts-dir` would block FreeType's open: it is skipped with a warning.
    @Test func fifoInTheFontsFolderIsSkipped() throws {
        let folder = try SubfixBinary.folder("fontfifo")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/fonts", withIntermediateDirectories: false)
        try #require(mkfifo(folder + "/fonts/x.ttf", 0o644) == 0)
        try SubfixBinary.write(simHeiSRT, to: folder + "/a.srt")
        for arguments in [
            ["check", "a.srt", "--no-system-fonts", "--fonts-dir", "fonts"],
            ["render", "a.srt", "--at", "1.5", "--out", "a.png", "--fonts-dir", "fonts"],
        ] {
            let run = try SubfixBinary.run(arguments, in: folder, limit: 60)
            #expect(!run.hung)
            #expect(
                run.errorLines.contains(
                    "subfix: warning: fonts/x.ttf: cannot read: a FIFO (named pipe), not a regular file"))
        }
    }

    /// `probe` on a FIFO, and on a folder: a plain cause, no avformat errno (items 1 and 10).
    @Test func probeRefusesFifosAndFolders() throws {
        let folder = try SubfixBinary.folder("probe")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(mkfifo(folder + "/f.mkv", 0o644) == 0)
        try FileManager.default.createDirectory(atPath: folder + "/d.mkv", withIntermediateDirectories: false)
        let run = try SubfixBinary.run(["probe", "f.mkv", "d.mkv"], in: folder, limit: 30)
        #expect(!run.hung)
        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                "subfix: error: f.mkv: cannot read: a FIFO (named pipe), not a regular file",
                "subfix: error: d.mkv: cannot read: a folder, not a regular file",
            ])
    }

    /// A symlink to /dev/zero was read until memory ran out (item 2); now it is refused as a device.
    @Test(arguments: [["fix", "z.srt", "--dry-run"], ["index", "z.srt", "--db", "l.sqlite"], ["check", "z.srt"]])
    func endlessDevicesAreRefused(_ arguments: [String]) throws {
        let folder = try SubfixBinary.folder("zero")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/z.srt", withDestinationPath: "/dev/zero")
        let run = try SubfixBinary.run(arguments, in: folder, limit: 30)
        #expect(!run.hung)
        #expect(run.status == 1)
        #expect(run.errorLines.contains("subfix: error: z.srt: cannot read: a character device, not a regular file"))
    }

    /// A subtitle over the size limit gets one line naming the limit and how to raise it (item 2).
    @Test func subtitlesOverTheLimitAreRefused() throws {
        let folder = try SubfixBinary.folder("limit")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SubfixBinary.write(String(repeating: simHeiSRT + "\n", count: 40), to: folder + "/big.srt")
        let refused = try SubfixBinary.run(
            ["fix", "big.srt", "--dry-run"], in: folder, environment: ["SUBFIX_MAX_INPUT_SIZE": "1K"])
        #expect(refused.status == 1)
        #expect(
            refused.errorLines == [
                "subfix: error: big.srt: cannot read: larger than the limit of 1 KiB (2680 bytes or more; raise it"
                    + " with SUBFIX_MAX_INPUT_SIZE)"
            ])
        let raised = try SubfixBinary.run(
            ["fix", "big.srt", "--dry-run"], in: folder, environment: ["SUBFIX_MAX_INPUT_SIZE": "1M"])
        #expect(raised.status == 0)
    }

    /// `fix` of a 1.98 GB subtitle peaked at 4.2 GB (issue 35, item 6): by default a subtitle over 256 MiB is
    /// refused with one line before anything is read (a sparse 300 MB file, in bounded memory).
    @Test func hugeSubtitlesAreRefusedByDefault() throws {
        let folder = try SubfixBinary.folder("huge")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try SubfixBinary.shell(
            "truncate -s 300M huge.ass && ulimit -v 800000 && \"$SUBFIX\" fix huge.ass --out o --db db.sqlite",
            in: folder)
        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                "subfix: error: huge.ass: cannot read: larger than the limit of 256 MiB (300 MiB or more; raise it"
                    + " with SUBFIX_MAX_INPUT_SIZE)"
            ])
        #expect(!FileManager.default.fileExists(atPath: folder + "/o/huge.ass"))
    }

    /// One 19 MB event: `check` took 2.6 GB and `report` wrote an 8 MB page that no browser opened, at 1.7 GB
    /// (issue 35, item 6). The event is checked by coverage without being laid out, and the report shows 500
    /// characters of it and "…", in bounded memory.
    @Test func aHugeEventIsCheckedAndReportedInBoundedMemory() throws {
        let folder = try SubfixBinary.folder("hugeevent")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let header =
            "[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour,"
            + " Bold, Italic, Alignment, MarginV\nStyle: Default,SimHei,40,&H00FFFFFF,0,0,2,20\n\n[Events]\nFormat:"
            + " Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
        let event = "Dialogue: 0,0:00:01.00,0:00:05.00,Default,,0,0,0,," + String(repeating: "测试文字", count: 1_600_000)
        try SubfixBinary.write(header + event + "\n", to: folder + "/one.ass")
        let check = try SubfixBinary.shell(
            "ulimit -v 1500000; \"$SUBFIX\" check one.ass --no-system-fonts --db db.sqlite", in: folder)
        #expect(check.signal == nil)
        #expect(check.status == 1)
        #expect(check.stdout.hasSuffix("…\"\none.ass: 1 event, 1 with missing glyphs\n"))
        #expect(check.stdout.utf8.count < 4_000)
        let report = try SubfixBinary.shell(
            "ulimit -v 1500000; \"$SUBFIX\" report one.ass --out page.html --db db.sqlite", in: folder)
        #expect(report.signal == nil)
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOfFile: folder + "/page.html", encoding: .utf8)
        #expect(page.utf8.count < 100_000)
        #expect(page.contains(String(repeating: "测试文字", count: 125) + "…"))
    }

    /// `search --limit 0` over a million hits took 718 MB (issue 35, item 6): hits are printed as they are read.
    /// 60,000 hits fit in 120 MB of address space (they needed over 150 MB when all were built first).
    @Test func everyHitIsPrintedInBoundedMemory() throws {
        let folder = try SubfixBinary.folder("manyhits")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/media", withIntermediateDirectories: false)
        var srt = ""
        for index in 0..<60_000 {
            let (hours, minutes, seconds) = (index / 3600, index / 60 % 60, index % 60)
            let time = String(format: "%02d:%02d:%02d", hours, minutes, seconds)
            srt += "\(index + 1)\n\(time),000 --> \(time),500\n这是第\(index)行字幕，内容很长很长很长很长很长很长很长很长 word\n\n"
        }
        try SubfixBinary.write(srt, to: folder + "/media/big.zh.srt")
        let index = try SubfixBinary.run(["index", "media", "--db", "l.sqlite"], in: folder, limit: 300)
        try #require(index.status == 0, "\(index.stderr)")
        let run = try SubfixBinary.shell(
            "ulimit -v 120000; \"$SUBFIX\" search word --limit 0 --db l.sqlite --json | wc -l", in: folder, limit: 300)
        #expect(run.stdout == "60000\n", "\(run.stderr)")
        #expect(run.stderr == "")
    }

    /// `--db FOLDER` said "disk I/O error"; a job log whose folder cannot be made printed Foundation's
    /// `NSCocoaErrorDomain` text (issue 35, item 7). Both are one plain line now.
    @Test func libraryPathsThatCannotBeLibrariesSaySo() throws {
        let folder = try SubfixBinary.folder("dbpaths")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/lib", withIntermediateDirectories: false)
        try SubfixBinary.write(simHeiSRT, to: folder + "/a.srt")
        try SubfixBinary.write("not a folder", to: folder + "/plain")
        let index = try SubfixBinary.run(["index", "a.srt", "--db", "lib"], in: folder)
        #expect(index.status == 1)
        #expect(
            index.errorLines == [
                "subfix: error: lib: a folder, not a library file (name a file, such as FOLDER/library.sqlite)"
            ])
        let search = try SubfixBinary.run(["search", "你好", "--db", "lib"], in: folder)
        #expect(search.errorLines == index.errorLines)
        let fix = try SubfixBinary.run(
            ["fix", "a.srt", "--out", "o"], in: folder, environment: ["XDG_DATA_HOME": folder + "/plain/data"])
        #expect(fix.status == 0)
        #expect(
            fix.errorLines == [
                "subfix: warning: \(folder)/plain/data/subfix/library.sqlite: cannot record the job: cannot create its"
                    + " folder \(folder)/plain/data/subfix: Not a directory"
            ])
    }

    /// ESC sequences in a malformed timestamp reached the terminal raw (item 6): now escaped, on one line.
    @Test func controlCharactersInMessagesAreEscaped() throws {
        let folder = try SubfixBinary.folder("escape")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SubfixBinary.write(
            "1\n00:00:01,000 --> 00:0\u{1B}]0;pwned\u{07}\u{1B}[31m\u{0C}x\u{2028}y\n\nhi\n", to: folder + "/e.srt")
        try SubfixBinary.write("1\nbroken\n", to: folder + "/a\u{2028}b\u{1B}[2J.srt")
        let run = try SubfixBinary.run(["fix", ".", "--dry-run"], in: folder)
        #expect(run.status == 1)
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{2028}") && !run.stderr.contains("\u{0C}"))
        #expect(!run.stdout.contains("\u{1B}") && !run.stdout.contains("\u{2028}"))
        #expect(
            run.errorLines.contains(
                "subfix: error: ./e.srt:2:18: malformed timestamp '00:0\\x1b]0;pwned\\x07\\x1b[31m\\x0cx\\u{2028}y'"
                    + " (expected HH:MM:SS,mmm)"))
        #expect(run.stdout.contains("failed    ./a\\u{2028}b\\x1b[2J.srt\n"))
    }

    /// A name that is not UTF-8 could not be opened, and `index` skipped it (item 8): paths are bytes now, and
    /// print escaped.
    @Test func namesThatAreNotUTF8AreReadAndPrintedEscaped() throws {
        let folder = try SubfixBinary.folder("bytes")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: false)
        let name = PathBytes.decode(Array("in/bad".utf8) + [0xFF, 0xFE] + Array(".srt".utf8))
        let descriptor = PathBytes.withCString(folder + "/" + name) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        try #require(descriptor >= 0)
        _ = simHeiSRT.utf8CString.dropLast().withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)

        let fixed = try SubfixBinary.shell(
            "\"$SUBFIX\" fix \"$(printf 'in/bad\\377\\376.srt')\" --out out", in: folder)
        #expect(fixed.stderr == "")
        #expect(fixed.status == 0)
        #expect(fixed.stdout.hasPrefix("changed   in/bad\\xff\\xfe.srt -> out/bad\\xff\\xfe.srt "))
        let written = PathBytes.decode(Array("out/bad".utf8) + [0xFF, 0xFE] + Array(".srt".utf8))
        #expect(PathBytes.withCString(folder + "/" + written) { access($0, R_OK) } == 0)

        let indexed = try SubfixBinary.run(["index", "in", "--db", "l.sqlite"], in: folder)
        #expect(indexed.status == 0)
        #expect(indexed.stdout.contains("1 new"))
        let found = try SubfixBinary.run(["search", "你好", "--db", "l.sqlite"], in: folder)
        #expect(found.status == 0)
        #expect(found.stdout.hasPrefix("in/bad\\xff\\xfe.srt 00:00:01.000 --> 00:00:02.000"))
    }

    /// `check` on a folder printed "NSCocoaErrorDomain error 256" (item 10): folders are walked as `fix` walks
    /// them.
    @Test func checkAndRenderWalkFolders() throws {
        let folder = try SubfixBinary.folder("walk")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/d.srt", withIntermediateDirectories: false)
        try SubfixBinary.write(simHeiSRT, to: folder + "/d.srt/a.srt")
        try SubfixBinary.write(simHeiSRT, to: folder + "/d.srt/b.srt")
        let checked = try SubfixBinary.run(["check", "d.srt/"], in: folder)
        #expect(!checked.stderr.contains("NSCocoaErrorDomain"))
        #expect(checked.stdout.contains("d.srt/a.srt: 1 event, "))
        #expect(checked.stdout.contains("d.srt/b.srt: 1 event, "))
        let rendered = try SubfixBinary.run(["render", "d.srt", "--at", "1.5", "--out-dir", "frames"], in: folder)
        #expect(rendered.stderr == "")
        #expect(rendered.status == 0)
        let frames = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").sorted()
        #expect(frames == ["a-00-00-01.500.png", "b-00-00-01.500.png"])
    }
}
