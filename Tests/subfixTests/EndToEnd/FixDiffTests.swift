import Foundation
import TestSupport
import Testing

@testable import subfix

/// `fix --diff` (issue 35, item 7): the diff of a CRLF file applies with the real `patch`, `-q --diff` prints the
/// diffs, and on a terminal the file's control characters and line separators are escaped.
@Suite struct FixDiffTests {
    static let crlf = "1\r\n00:00:01,000 --> 00:00:02,000\r\n<font face=\"SimHei\">你好</font>\r\n"

    /// The last line's CR was dropped, so `patch` rejected the hunk: the patched file now equals `fix --out`'s.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/patch")))
    func aCRLFDiffAppliesWithPatch() throws {
        let folder = try SubfixBinary.folder("diffcrlf")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SubfixBinary.write(Self.crlf, to: folder + "/a.srt")
        try SubfixBinary.write(Self.crlf, to: folder + "/b.srt")
        let run = try SubfixBinary.shell(
            "\"$SUBFIX\" fix a.srt --dry-run --diff -q --db l.sqlite > d.txt && patch b.srt < d.txt"
                + " && \"$SUBFIX\" fix a.srt --out o -q --db l.sqlite >/dev/null && cmp b.srt o/a.srt && echo same",
            in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("same\n"))
        let diff = try String(contentsOfFile: folder + "/d.txt", encoding: .utf8)
        #expect(diff.hasPrefix("--- a.srt\n+++ a.srt\n@@ -1,3 +1,3 @@\n"), "\(diff)")
    }

    /// On a terminal, ESC and U+2028 from the file are shown escaped; in a pipe the diff keeps every byte.
    @Test func controlsAreEscapedOnATerminalOnly() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-diffterm").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = "1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你\u{1B}[2J好\u{2028}</font>\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/a.srt"))
        for terminal in [true, false] {
            let captured = CapturedOutput()
            let io = CommandIO(
                stdout: { captured.appendOut($0) }, stderr: { captured.appendErr($0) }, stdoutIsTerminal: terminal,
                environment: [:])
            let status = SubfixCLI.run(
                ["fix", folder + "/a.srt", "--dry-run", "--diff", "--db", folder + "/l.sqlite"], io: io)
            #expect(status == .success)
            if terminal {
                #expect(captured.stdout.contains("+<font face=\"Noto Sans CJK SC\">你\\x1b[2J好\\u{2028}</font>\n"))
                #expect(!captured.stdout.contains("\u{1B}"))
            } else {
                #expect(captured.stdout.contains("+<font face=\"Noto Sans CJK SC\">你\u{1B}[2J好\u{2028}</font>\n"))
            }
        }
    }
}
