import Foundation
import SubCore
import TestSupport
import Testing

@testable import subfix

/// `render --every 0.001` over a long file would write hundreds of thousands of PNGs without a word (issue 16,
/// item 12): more than 10,000 frames are refused unless `--max-frames` raises the limit.
@Suite struct RenderLimitsTests: RunsSubfix {
    @Test func tooManyFramesAreRefusedBeforeAnyIsWritten() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-frames").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/long.srt"
        try Data("1\n00:09:59,000 --> 00:10:00,000\n字\n".utf8).write(to: URL(fileURLWithPath: input))
        let (status, stdout, stderr) = run(["render", input, "--every", "0.001", "--out-dir", folder + "/frames"])
        #expect(status == .someFailed)
        #expect(stdout == "")
        #expect(
            stderr
                == "subfix: error: \(input): would render 600000 frames, more than the limit of 10000 (use a longer"
                + " --every, or raise the limit with --max-frames 600000)\n")
        #expect(!FileManager.default.fileExists(atPath: folder + "/frames"))

        let (small, _, smallErrors) = run([
            "render", input, "--every", "200", "--max-frames", "3", "--size", "64x36", "--out-dir", folder + "/few",
        ])
        #expect(smallErrors == "")
        #expect(small == .success)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/few").count == 3)
        let (capped, _, cappedErrors) = run([
            "render", input, "--every", "200", "--max-frames", "2", "--size", "64x36", "--out-dir", folder + "/capped",
        ])
        #expect(capped == .someFailed)
        #expect(
            cappedErrors.hasSuffix(
                "would render 3 frames, more than the limit of 2 (use a longer --every, or"
                    + " raise the limit with --max-frames 3)\n"))
    }
}
