import Foundation
import SubCore
import TestSupport
import Testing

@testable import subfix

/// Faults of `fix` found trying it as a new user would (issue 16), run in process.
@Suite struct FixFaultTests: RunsSubfix {
    /// `--out` equal to the input folder printed "0 files" and exited 0 (item 7); it is refused as the
    /// single-file case is, through any spelling of the folder.
    @Test func outFolderThatIsTheInputFolderIsRefused() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-fault").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">x</font>\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/a.srt"))
        let (status, stdout, stderr) = run(["fix", folder, "--out", folder + "/."])
        #expect(status == .someFailed)
        #expect(stdout == "")
        #expect(
            stderr
                == "subfix: error: \(folder): the --out folder '\(folder)/.' is this input folder itself (use --in-place"
                + " to rewrite files in place)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.srt"])
    }

    /// `--diff` dropped carriage returns and the missing final newline, so `patch` could not apply it (item 9).
    /// The diff now carries the lines as they are, and GNU patch turns the input into the fixed file.
    @Test func diffAppliesWithPatch() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-diff").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text = ""
        for index in 1...12 {
            let face = index == 2 || index == 12 ? "SimHei" : "Arial Unicode"
            text +=
                "\(index)\r\n00:00:0\(index % 10),000 --> 00:00:0\(index % 10),500\r\n<font face=\"\(face)\">字</font>"
            if index < 12 { text += "\r\n\r\n" }
        }
        let input = folder + "/a.srt"
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        let (status, stdout, _) = run(["fix", input, "--dry-run", "--diff", "--policy", "cjk"])
        #expect(status == .success)
        // The report line, the diff, then the summary line.
        let summary = "1 file: 1 changed, 0 unchanged, 0 failed\n"
        #expect(stdout.hasSuffix(summary))
        let diff = String((stdout.split(separator: "\n", maxSplits: 1).last ?? "").dropLast(summary.count))
        #expect(diff.contains("-<font face=\"SimHei\">字</font>\r\n"))
        #expect(diff.hasSuffix("+<font face=\"Noto Sans CJK SC\">字</font>\n\\ No newline at end of file\n"))
        try Data(diff.utf8).write(to: URL(fileURLWithPath: folder + "/a.diff"))
        let patch = Process()
        patch.executableURL = URL(fileURLWithPath: "/usr/bin/patch")
        patch.arguments = ["--quiet", "--batch", input, folder + "/a.diff"]
        patch.standardOutput = FileHandle.nullDevice
        try patch.run()
        patch.waitUntilExit()
        #expect(patch.terminationStatus == 0)
        let expected = text.replacingOccurrences(of: "\"SimHei\"", with: "\"Noto Sans CJK SC\"")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == Data(expected.utf8))
    }
}
