import Foundation
import SubCore
import Synchronization
import TestSupport
import Testing

@testable import subfix

/// A fresh temporary folder for one test.
private func temporaryFolder() throws -> String { try TestFiles.temporaryDirectory("subfix-fix").path }

private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples").path

private func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

private func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

/// Every file below `folder`, relative, sorted (temporary files would show up here).
private func listing(_ folder: String) -> [String] {
    (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
}

private typealias Status = subfix.ExitStatus

private func run(_ arguments: [String]) -> (Status, String, String) {
    let (io, output) = CommandIO.capturing()
    let status = SubfixCLI.run(arguments, io: io)
    return (status, reportLinesOnly(output.stdout), output.stderr)
}

private let srt = "1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好</font>\n"
private let fixedSRT = "1\n00:00:01,000 --> 00:00:02,000\n<font face=\"Noto Sans CJK SC\">你好</font>\n"

@Suite struct FixCommandTests {
    /// A file's report line and its detail lines reach standard output in one write, not one write per line.
    @Test func eachFilesReportIsOneWrite() throws {
        let folder = try temporaryFolder()
        let cue = "<font face=\"SimHei\">你好</font> <font face=\"MS Gothic\">こんにちは</font>"
        for name in ["a", "b"] {
            try write("1\n00:00:01,000 --> 00:00:02,000\n\(cue)\n", to: folder + "/\(name).srt")
        }
        let writes = Mutex<[String]>([])
        let io = CommandIO(stdout: { text in writes.withLock { $0.append(text) } }, stderr: { _ in })
        let status = SubfixCLI.run(
            ["fix", folder + "/a.srt", folder + "/b.srt", "--dry-run", "--db", folder + "/l"], io: io)
        #expect(status == .success)
        let reports = writes.withLock { $0 }.filter { $0.hasPrefix("changed") }
        #expect(reports.count == 2)
        // The report line, then one detail line for each of the two tags, in the same write.
        #expect(reports.allSatisfy { $0.split(separator: "\n").count == 3 && $0.hasSuffix("\n") })
    }

    @Test func outMirrorsRelativePaths() throws {
        let folder = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/in/season 1", withIntermediateDirectories: true)
        try write(srt, to: folder + "/in/season 1/e01.SRT")
        try write("ignored", to: folder + "/in/notes.txt")
        try write(fixedSRT, to: folder + "/in/done.srt")
        let (status, stdout, stderr) = run(["fix", folder + "/in", "--out", folder + "/out"])
        #expect(status == .success)
        #expect(stderr == "")
        #expect(
            stdout == """
                unchanged \(folder)/in/done.srt -> \(folder)/out/done.srt (styles 0, \\fn 0, font tags 0; UTF-8)
                changed   \(folder)/in/season 1/e01.SRT -> \(folder)/out/season 1/e01.SRT (styles 0, \\fn 0, font tags 1; UTF-8)
                2 files: 1 changed, 1 unchanged, 0 failed

                """)
        #expect(try bytes(folder + "/out/season 1/e01.SRT") == Array(fixedSRT.utf8))
        #expect(try bytes(folder + "/in/season 1/e01.SRT") == Array(srt.utf8))
        #expect(listing(folder + "/out") == ["done.srt", "season 1", "season 1/e01.SRT"])
        // A file argument lands at DIR/<its name>.
        let (again, _, _) = run(["fix", folder + "/in/season 1/e01.SRT", "--out", folder + "/single"])
        #expect(again == .success)
        #expect(listing(folder + "/single") == ["e01.SRT"])
    }

    @Test func progressLineOnlyOnATerminal() throws {
        let folder = try temporaryFolder()
        for name in ["a.srt", "b.srt", "c.srt"] { try write(srt, to: folder + "/" + name) }
        let arguments = ["fix", folder, "--dry-run", "--jobs", "1"]
        // Not a terminal (a pipe, a log file): never a progress line.
        let (plainIO, plain) = CommandIO.capturing(progressDelay: 0)
        #expect(SubfixCLI.run(arguments, io: plainIO) == .success)
        #expect(plain.stderr == "")
        // A terminal, once the run has taken longer than the delay: "[done/total] fixing..." on one line that
        // is rewritten in place and cleared before results and at the end.
        let (terminalIO, terminal) = CommandIO.capturing(terminal: true, progressDelay: 0)
        #expect(SubfixCLI.run(arguments, io: terminalIO) == .success)
        #expect(terminal.stderr.hasPrefix("\r\u{1B}[K[1/3] fixing..."))
        #expect(terminal.stderr.hasSuffix("\r\u{1B}[K"))
        #expect(!terminal.stderr.contains("\n"))
        #expect(!terminal.stderr.contains("[3/3]"))
        #expect(terminal.stdout == plain.stdout)
    }

    /// `-q` prints the failures and the summary only; the files are fixed all the same.
    @Test func quietPrintsOnlyFailuresAndTheSummary() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(srt, to: folder + "/a.srt")
        try write("", to: folder + "/empty.srt")
        let (status, out, err) = run(["fix", folder + "/a.srt", folder + "/empty.srt", "--out", folder + "/o", "-q"])
        #expect(status == .someFailed)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("failed") == true && lines.first?.contains("empty.srt") == true)
        #expect(lines.last?.hasPrefix("2 files: 1 changed, 0 unchanged, 1 failed") == true)
        #expect(err.split(separator: "\n").count == 1)
        #expect(FileManager.default.fileExists(atPath: folder + "/o/a.srt"))
    }

    @Test func inPlaceKeepsABackupAndPermissions() throws {
        let folder = try temporaryFolder()
        let path = folder + "/a.srt"
        try write(srt, to: path)
        chmod(path, 0o640)
        let (status, stdout, _) = run(["fix", path, "--in-place"])
        #expect(status == .success)
        #expect(stdout.hasPrefix("changed   \(path) (styles 0, \\fn 0, font tags 1; UTF-8)\n"))
        #expect(try bytes(path) == Array(fixedSRT.utf8))
        #expect(try bytes(path + ".orig") == Array(srt.utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
        // Fixing the fixed file changes nothing and writes nothing.
        let (second, secondOut, _) = run(["fix", path, "--in-place", "--backup-suffix", ".bak"])
        #expect(second == .success)
        #expect(secondOut.hasPrefix("unchanged \(path) (styles 0"))
        #expect(listing(folder) == ["a.srt", "a.srt.orig"])
    }

    @Test func inPlaceThroughASymlinkRewritesItsTarget() throws {
        let folder = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
        try write(srt, to: folder + "/real/a.srt")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.srt", withDestinationPath: "real/a.srt")
        #expect(run(["fix", folder + "/link.srt", "--in-place"]).0 == Status.success)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.srt") == "real/a.srt")
        #expect(try bytes(folder + "/real/a.srt") == Array(fixedSRT.utf8))
        #expect(try bytes(folder + "/link.srt.orig") == Array(srt.utf8))
        #expect(listing(folder) == ["link.srt", "link.srt.orig", "real", "real/a.srt"])
    }

    @Test func existingBackupIsNeverOverwritten() throws {
        let folder = try temporaryFolder()
        try write(srt, to: folder + "/a.srt")
        try write("precious", to: folder + "/a.srt.orig")
        let (status, stdout, stderr) = run(["fix", folder + "/a.srt", "--in-place"])
        #expect(status == .someFailed)
        #expect(
            stderr == "subfix: error: \(folder)/a.srt: backup '\(folder)/a.srt.orig' already exists; not"
                + " overwriting it (move it away or choose another --backup-suffix)\n")
        #expect(stdout == "failed    \(folder)/a.srt\n1 file: 0 changed, 0 unchanged, 1 failed\n")
        #expect(try bytes(folder + "/a.srt") == Array(srt.utf8))
        #expect(try bytes(folder + "/a.srt.orig") == Array("precious".utf8))
        #expect(listing(folder) == ["a.srt", "a.srt.orig"])
    }

    /// Bad inputs: each fails with its message, the others are still fixed, nothing is left behind.
    /// Tests run as root, so an unreadable input cannot be made with chmod 000: a dangling symlink and a symlink
    /// loop stand in for it.
    @Test func badInputsFailAloneAndLeaveNothingBehind() throws {
        let folder = try temporaryFolder()
        let input = folder + "/in"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try Data([0x5B, 0x53, 0x00, 0xFF, 0x10]).write(to: URL(fileURLWithPath: input + "/binary.ass"))
        try Data().write(to: URL(fileURLWithPath: input + "/empty.srt"))
        try Data([0xFF, 0xFE, 0x31, 0x00, 0x0A]).write(to: URL(fileURLWithPath: input + "/truncated.srt"))
        try FileManager.default.createSymbolicLink(atPath: input + "/gone.srt", withDestinationPath: input + "/missing")
        try FileManager.default.createSymbolicLink(
            atPath: input + "/loop.srt", withDestinationPath: input + "/loop.srt")
        try write(srt, to: input + "/good.srt")
        let (status, stdout, stderr) = run(["fix", input, "--out", folder + "/out"])
        #expect(status == .someFailed)
        #expect(
            stderr == """
                subfix: error: \(input)/binary.ass: binary data, not text (NUL byte at offset 2)
                subfix: error: \(input)/empty.srt: empty file (0 bytes), not a subtitle
                subfix: error: \(input)/gone.srt: cannot read: No such file or directory
                subfix: error: \(input)/loop.srt: cannot read: Too many levels of symbolic links
                subfix: error: \(input)/truncated.srt: truncated UTF-16LE text: incomplete character at byte offset 4

                """)
        #expect(
            stdout.split(separator: "\n").map { String($0.prefix(10)) } == [
                "failed    ", "failed    ", "failed    ", "changed   ", "failed    ", "failed    ", "6 files: 1",
            ])
        #expect(listing(folder + "/out") == ["good.srt"])
        #expect(try bytes(input + "/binary.ass") == [0x5B, 0x53, 0x00, 0xFF, 0x10])

        let (dirStatus, _, dirError) = run([
            "fix", input + "/good.srt", input + "/missing.vtt", folder + "/notes.txt", "--dry-run",
        ])
        #expect(dirStatus == .someFailed)
        #expect(
            dirError == """
                subfix: error: \(input)/missing.vtt: cannot read: No such file or directory
                subfix: error: \(folder)/notes.txt: not a subtitle or media file (expected .ass, .ssa, .srt, .vtt or a media file such as .mkv or .mp4)

                """)
    }

    @Test func unwritableOutputFolderAndOutputEqualToInput() throws {
        let folder = try temporaryFolder()
        try write(srt, to: folder + "/a.srt")
        try write("a regular file", to: folder + "/file")
        let (status, _, stderr) = run(["fix", folder + "/a.srt", "--out", folder + "/file/out"])
        #expect(status == .someFailed)
        #expect(
            stderr
                == "subfix: error: \(folder)/a.srt: cannot create output folder '\(folder)/file/out': Not a directory\n"
        )
        let (same, _, sameError) = run(["fix", folder + "/a.srt", "--out", folder])
        #expect(same == .someFailed)
        #expect(
            sameError == "subfix: error: \(folder)/a.srt: output '\(folder)/a.srt' is the input itself"
                + " (use --in-place to rewrite files in place)\n")
        #expect(try bytes(folder + "/a.srt") == Array(srt.utf8))
        #expect(listing(folder) == ["a.srt", "file"])
    }

    @Test func commandLineForTheJobLog() throws {
        let parsed = try parse(
            tokenize([
                "a.srt", "--also", "X", "--dry-run", "--also=Y", "/b", "--json", "--jobs", "1", "--jobs=2", "--db",
                "postgresql://me:secret@host/lib",
            ]), for: FixCommand.spec)
        let here = FileManager.default.currentDirectoryPath
        // Table order, paths made absolute, the last --jobs only, no password.
        #expect(
            FixCommand.commandLine(parsed) == [
                "fix", here + "/a.srt", "/b", "--dry-run", "--also", "X", "--also", "Y", "--jobs", "2", "--json",
                "--db", "postgresql://me:***@host/lib",
            ])
    }

    @Test func usageErrors() {
        #expect(
            run(["fix", "x.srt"]) == (
                Status.usage, "",
                "subfix: error: 'fix' needs one of '--out', '--in-place', '--dry-run'\n"
            ))
        #expect(
            run(["fix", "x.srt", "--dry-run", "--in-place"]) == (
                Status.usage, "",
                "subfix: error: options '--in-place', '--dry-run' cannot be used together\n"
            ))
        #expect(
            run(["fix", "x.srt", "--dry-run", "--policy", "some"]) == (
                Status.usage, "",
                "subfix: error: invalid value 'some' for '--policy' (expected text, all, cjk, missing)\n"
            ))
        #expect(run(["fix", "x.srt", "--dry-run", "--encoding-hint", "klingon"]).0 == Status.usage)
        #expect(run(["fix", "x.srt", "--dry-run", "--jobs", "0"]).0 == Status.usage)
        #expect(
            run(["fix", "x.srt", "--dry-run", "--font", "A,B"]) == (
                Status.usage, "",
                "subfix: error: invalid value 'A,B' for '--font' (expected auto, or a font family name without outer blanks"
                    + " and without , { } \\ < > \" ')\n"
            ))
        #expect(run(["fix", "--dry-run"]) == (Status.usage, "", "subfix: error: 'fix' needs PATH\n"))
    }

    @Test func jsonAndEncodings() throws {
        let folder = try temporaryFolder()
        let (status, stdout, _) = run([
            "fix", samples + "/gbk.srt", samples + "/legacy.ssa", "--out", folder,
            "--policy", "cjk", "--json", "--jobs", "2",
        ])
        #expect(status == .success)
        let lines = stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let first: String =
            #"{"type":"file","file":"\#(samples)/gbk.srt","output":"\#(folder)/gbk.srt","status":"changed","#
        let runnerUp = try TextDecoder.decode(bytes(samples + "/gbk.srt"), file: "gbk.srt").runnerUp?.name ?? "?"
        let rest: String =
            #""encoding":"GB18030","runnerUp":"\#(runnerUp)","outputEncoding":"UTF-8","styles":0,"fnTags":0,"fontTags":1,"unknownFonts":[],"#
            + #""faces":[{"kind":"font","style":null,"font":"黑体","face":"Noto Sans CJK SC","language":"zh-Hans","#
            + #""reason":"known CJK font; Simplified-only characters in the run","count":1}],"#
            + #""embedded":[],"error":null}"#
        #expect(lines[0] == first + rest)
        #expect(lines[1].contains(#""styles":2,"fnTags":2,"fontTags":0"#))
        #expect(
            lines[2].hasPrefix(
                #"{"type":"summary","files":2,"changed":2,"unchanged":0,"failed":0,"skipped":0,"seconds":"#))
        let fixed = String(decoding: try bytes(folder + "/gbk.srt"), as: UTF8.self)
        #expect(fixed.contains("<font face=\"Noto Sans CJK SC\">简体中文的字幕文件，编码是 GBK。</font>\r\n"))
        #expect(fixed.contains("{\\an8}仓库旧称“倉庫”，峽谷不是{括号}。"))

        // --encoding keep writes GBK back; the UTF-16 sample keeps its BOM in UTF-8.
        let (keep, _, _) = run([
            "fix", samples + "/gbk.srt", samples + "/utf16le-bom.srt", "--out", folder + "/keep",
            "--encoding", "keep",
        ])
        #expect(keep == .success)
        let original = try bytes(samples + "/gbk.srt")
        let kept = try bytes(folder + "/keep/gbk.srt")
        #expect(try TextDecoder.decode(kept, as: .gb18030, file: "k").utf8 == Array(fixed.utf8))
        #expect(kept.count == original.count + "Noto Sans CJK SC".utf8.count - 4)
        #expect(try bytes(folder + "/keep/utf16le-bom.srt").starts(with: [0xFF, 0xFE]))
        try FileManager.default.removeItem(atPath: folder + "/keep")
        let (utf8, _, _) = run(["fix", samples + "/utf16le-bom.srt", "--out", folder + "/u"])
        #expect(utf8 == .success)
        #expect(try bytes(folder + "/u/utf16le-bom.srt").starts(with: [0xEF, 0xBB, 0xBF, 0x31, 0x0D, 0x0A]))
    }

    @Test func cjkPolicyReportsWhatItLeftAlone() throws {
        let folder = try temporaryFolder()
        let script = "[V4+ Styles]\nFormat: Name, Fontname\nStyle: A,Arial\nStyle: B,SimHei\nStyle: C,My Font\n"
        try write(script, to: folder + "/a.ass")
        let (status, stdout, stderr) = run([
            "fix", folder + "/a.ass", "--dry-run", "--policy", "cjk", "--also", "my font", "--font", "Custom Sans",
        ])
        #expect(status == .success)
        // No face named Custom Sans exists here: the name is still written, and a warning says so.
        #expect(
            stderr == "subfix: warning: no font named 'Custom Sans' is available here: the name written will not"
                + " resolve on this machine (players need it installed, or use --embed with a face that is)\n")
        #expect(
            stdout == """
                changed   \(folder)/a.ass (styles 2, \\fn 0, font tags 0; UTF-8); left alone: Arial
                1 file: 1 changed, 0 unchanged, 0 failed

                """)
        let (_, json, _) = run(["fix", folder + "/a.ass", "--dry-run", "--policy", "cjk", "--json"])
        let head =
            #"{"type":"file","file":"\#(folder)/a.ass","output":null,"status":"changed","encoding":"UTF-8","runnerUp":null,"#
            + #""outputEncoding":"UTF-8","styles":1,"#
        let tail =
            #""fnTags":0,"fontTags":0,"unknownFonts":["Arial","My Font"],"faces":[{"kind":"style","style":"B","#
            + #""font":"SimHei","face":"Noto Sans CJK SC","language":"zh-Hans","#
            + #""reason":"known CJK font; no CJK text, Simplified Chinese by default","count":1}],"embedded":[],"#
            + #""error":null}"#
        #expect(String(json.split(separator: "\n").first ?? "") == head + tail)
        // The default policy (text) and font (auto): the known CJK name and the --also name are rewritten to the
        // face chosen for their text (none here: Simplified Chinese), the Latin font is left alone, and the lines
        // under the report say which face each reference got and why.
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["fix", folder + "/a.ass", "--dry-run", "--also", "my font"], io: io) == .success)
        #expect(output.stderr == "")
        #expect(
            output.stdout == """
                changed   \(folder)/a.ass (styles 2, \\fn 0, font tags 0; UTF-8); left alone: Arial
                  style B: SimHei -> Noto Sans CJK SC: known CJK font; no CJK text, Simplified Chinese by default
                  style C: My Font -> Noto Sans CJK SC: on the also list; no CJK text, Simplified Chinese by default
                1 file: 1 changed, 0 unchanged, 0 failed

                """)
        #expect(try bytes(folder + "/a.ass") == Array(script.utf8))
    }

    @Test func outputFolderInsideTheInputIsNotWalked() throws {
        let folder = try temporaryFolder()
        try write(srt, to: folder + "/a.srt")
        #expect(run(["fix", folder, "--out", folder + "/fixed"]).0 == Status.success)
        let (status, stdout, _) = run(["fix", folder, "--out", folder + "/fixed"])
        #expect(status == .success)
        #expect(stdout.hasSuffix("1 file: 1 changed, 0 unchanged, 0 failed\n"))
        #expect(listing(folder) == ["a.srt", "fixed", "fixed/a.srt"])
    }

    @Test func diffAndSymlinkLoops() throws {
        let folder = try temporaryFolder()
        try write(srt, to: folder + "/a.srt")
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop", withDestinationPath: folder)
        let (status, stdout, _) = run(["fix", folder, "--dry-run", "--diff"])
        #expect(status == .success)
        #expect(
            stdout == """
                changed   \(folder)/a.srt (styles 0, \\fn 0, font tags 1; UTF-8)
                --- \(folder)/a.srt
                +++ \(folder)/a.srt
                @@ -1,3 +1,3 @@
                 1
                 00:00:01,000 --> 00:00:02,000
                -<font face="SimHei">你好</font>
                +<font face="Noto Sans CJK SC">你好</font>
                1 file: 1 changed, 0 unchanged, 0 failed

                """)
        #expect(try bytes(folder + "/a.srt") == Array(srt.utf8))
    }

    @Test func fixAllSamplesThenAgainIsUnchanged() throws {
        let folder = try temporaryFolder()
        let (status, stdout, _) = run(["fix", samples, "--out", folder + "/once"])
        #expect(status == .success)
        #expect(stdout.split(separator: "\n").dropLast().allSatisfy { $0.hasPrefix("changed ") })
        let (again, againOut, _) = run(["fix", folder + "/once", "--out", folder + "/twice"])
        #expect(again == .success)
        #expect(againOut.split(separator: "\n").dropLast().allSatisfy { $0.hasPrefix("unchanged ") })
        // Samples/ holds subtitle files and media files (fixed into sidecars), some in a subfolder.
        #expect(listing(folder + "/once").contains("tram.0.chi.ass"))
        let files = listing(folder + "/once").filter { name in
            FixFileSystem.status(folder + "/once/" + name).map { $0.st_mode & S_IFMT == S_IFREG } ?? false
        }
        for name in files {
            #expect(try bytes(folder + "/once/" + name) == bytes(folder + "/twice/" + name))
        }
    }
}
