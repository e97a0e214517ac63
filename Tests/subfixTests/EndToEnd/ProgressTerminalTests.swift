import Foundation
import Testing

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
        #expect(terminal.stdout.hasPrefix("\r\u{1B}[K[1/2] fixing... "), "\(terminal.stdout.debugDescription)")
        #expect(terminal.stdout.contains(" files/s"))
        #expect(terminal.stdout.hasSuffix("\r\u{1B}[K"))

        let quiet = try Self.onTerminal(fix + " -q", in: folder)
        #expect(quiet.status == 0)
        #expect(!quiet.stdout.contains("[1/2]"), "\(quiet.stdout.debugDescription)")

        let piped = try SubfixBinary.shell(fix + " 2>&1 | cat", in: folder)
        #expect(piped.status == 0)
        #expect(!piped.stdout.contains("\r"))
        #expect(piped.stdout.contains("4 files: 4 changed"))  // the 3 tracks of tram.mkv and the .ass
    }
}
