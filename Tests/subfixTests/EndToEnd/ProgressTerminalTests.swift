import Foundation
import Testing

@testable import subfix

/// The progress line through the built binary: on a pseudo-terminal (util-linux `script`), a run longer than a
/// second shows `[done/total] verb... R files/s` on standard error and wipes it; `--quiet` and a pipe get none.
/// The run is made long by reading the Matroska sample at 30 kB/s (`--max-read-rate`), not by timing.
@Suite struct ProgressTerminalTests {
    /// Runs `command` (with `$SUBFIX` set) under `script`, standard output thrown away: what the terminal shows
    /// is standard error.
    static func onTerminal(_ command: String, in folder: String) throws -> SubfixBinary.Run {
        try SubfixBinary.shell("script -qec \"\(command) >/dev/null\" /dev/null", in: folder)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func aLongRunShowsProgressOnATerminalOnly() throws {
        let folder = try SubfixBinary.folder("progress")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["tram.mkv", "yahei-styles.ass"] {
            try FileManager.default.copyItem(atPath: SubfixBinary.samples + "/" + name, toPath: folder + "/" + name)
        }
        let fix = "$SUBFIX fix tram.mkv yahei-styles.ass --dry-run --jobs 1 --max-read-rate 30K"
        let terminal = try Self.onTerminal(fix, in: folder)
        #expect(terminal.status == 0, "\(terminal.stdout)")
        // With a media file in the run, the line counts its bytes too, while it is read.
        #expect(terminal.stdout.hasPrefix("\r\u{1B}[K[0/2] fixing... "), "\(terminal.stdout.debugDescription)")
        #expect(terminal.stdout.contains("[0/2] fixing... 67.2 of 67.2 kB, "))
        #expect(terminal.stdout.contains(" kB/s"))
        #expect(terminal.stdout.hasSuffix("\r\u{1B}[K"))

        let quiet = try Self.onTerminal(fix + " -q", in: folder)
        #expect(quiet.status == 0)
        #expect(!quiet.stdout.contains("[1/2]"), "\(quiet.stdout.debugDescription)")

        // One Matroska file remuxed: the line counts its bytes while it runs (67,203 bytes: 67.2 kB).
        let remux = try Self.onTerminal(
            "$SUBFIX fix tram.mkv --remux --out remuxed --max-read-rate 30K", in: folder)
        #expect(remux.status == 0, "\(remux.stdout)")
        #expect(remux.stdout.contains("[0/1] fixing... "), "\(remux.stdout.debugDescription)")
        #expect(remux.stdout.contains(" of 67.2 kB, "))
        #expect(remux.stdout.contains(" kB/s"))

        let piped = try SubfixBinary.shell(fix + " 2>&1 | cat", in: folder)
        #expect(piped.status == 0)
        #expect(!piped.stdout.contains("\r"))
        #expect(piped.stdout.contains("4 files: 4 changed"))  // the 3 tracks of tram.mkv and the .ass
    }
}

/// The byte counts of the progress line, in the unit that fits.
@Suite struct ProgressLineBytesTests {
    @Test func unitsFollowTheSizeAndTheRate() {
        #expect(
            ProgressLine.bytes(read: 12_345_678, of: 300_000_000, throughput: 4_100_000) == (
                "12.3 of 300 MB", "4.1 MB/s"
            ))
        #expect(ProgressLine.bytes(read: 70_000, of: 67_203, throughput: 31_000) == ("67.2 of 67.2 kB", "31.0 kB/s"))
        #expect(ProgressLine.bytes(read: 0, of: 2_500_000_000, throughput: nil) == ("0.0 of 2.5 GB", "... GB/s"))
    }

    @Test func filesPerSecondWithoutADetailAndNothingWhenQuiet() {
        let (io, output) = CommandIO.capturing(terminal: true, progressDelay: 0)
        var line = ProgressLine(io: io, total: 3, verb: "checking")
        line.show(done: 1)
        #expect(output.stderr.hasPrefix("\r\u{1B}[K[1/3] checking... "), "\(output.stderr.debugDescription)")
        #expect(output.stderr.hasSuffix(" files/s"))
        let (quietIO, quietOutput) = CommandIO.capturing(terminal: true, progressDelay: 0)
        var quiet = ProgressLine(io: quietIO, total: 3, verb: "checking", visible: false)
        quiet.show(done: 1)
        #expect(quietOutput.stderr.isEmpty)
    }
}

/// `report` works through its files with the one worker pool and its progress line; `index --quiet` and
/// `report --quiet` show none (issue 34, item 8; issue 32, item 3). In process, with standard error taken for a
/// terminal and no delay.
@Suite struct ReportAndIndexProgressTests {
    static func run(_ arguments: [String], quiet: Bool) throws -> String {
        let (io, output) = CommandIO.capturing(terminal: true, progressDelay: 0)
        _ = SubfixCLI.run(arguments + (quiet ? ["-q"] : []), io: io)
        return output.stderr
    }

    @Test func reportAndIndexShowProgressUnlessQuiet() throws {
        let folder = try SubfixBinary.folder("progress-report")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for index in 0..<4 {
            try FileManager.default.copyItem(
                atPath: SubfixBinary.samples + "/yahei-styles.ass", toPath: folder + "/s\(index).ass")
        }
        let report = ["report", folder, "--out", folder + "/r.html", "--jobs", "1", "--db", folder + "/l.sqlite"]
        #expect(try Self.run(report, quiet: false).contains("] inspecting... "))
        #expect(!(try Self.run(report, quiet: true)).contains("inspecting..."))
        // More files than one batch of the writer holds (256): the line shows between batches.
        try FileManager.default.createDirectory(atPath: folder + "/many", withIntermediateDirectories: false)
        for index in 0..<300 {
            try SubfixBinary.write("1\n00:00:01,000 --> 00:00:02,000\n第\(index)行\n", to: folder + "/many/\(index).srt")
        }
        let index = ["index", folder + "/many", "--db", folder + "/i.sqlite", "--jobs", "1"]
        #expect(try Self.run(index, quiet: false).contains("] indexing... "))
        try FileManager.default.removeItem(atPath: folder + "/i.sqlite")
        #expect(!(try Self.run(index, quiet: true)).contains("indexing..."))
    }
}
