import Foundation
import Testing

@testable import subfix

/// `-q/--quiet` on the commands that print a line per file (only the failures and the summary), and
/// `fix -v/--verbose` (how the encoding was decided, the policy and target, every reference kept).
@Suite struct QuietVerboseTests: RunsSubfix {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples").path

    /// A folder with a GBK file, an ASS file with a Latin-only style, and a file that is not text.
    private func inputs() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("subfix-qv-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        for name in ["gbk.srt", "yahei-styles.ass"] {
            try FileManager.default.copyItem(atPath: Self.samples + "/" + name, toPath: folder + "/in/" + name)
        }
        try Data([0x31, 0x0A, 0x00, 0x00]).write(to: URL(fileURLWithPath: folder + "/in/zz-broken.srt"))
        return folder
    }

    @Test func verboseSaysTheEncodingsBasisThePolicyAndEveryKeptReference() throws {
        let folder = try inputs()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (status, out, _) = run(["fix", folder + "/in", "--dry-run", "--verbose", "--db", folder + "/l.sqlite"])
        #expect(status == .someFailed)
        let lines = out.split(separator: "\n").map(String.init)
        let gbkLine = "changed   \(folder)/in/gbk.srt"
        guard let gbk = lines.firstIndex(where: { $0.hasPrefix(gbkLine) }), gbk + 2 < lines.count else {
            Issue.record("no line for gbk.srt: \(out)")
            return
        }
        #expect(
            lines[gbk + 1].hasPrefix("  encoding: GB18030 -> UTF-8 (read best of every candidate encoding; runner-up "))
        #expect(lines[gbk + 2] == "  policy text, font auto (a face for the language of each style's text)")
        #expect(lines.contains("  encoding: UTF-8 (valid UTF-8)"))
        #expect(lines.contains("  style Credits: Arial kept: draws no CJK text"))
        // Without -v, kept references and the encoding's basis are not shown.
        let (_, plain, _) = run(["fix", folder + "/in", "--dry-run", "--db", folder + "/l.sqlite"])
        #expect(!plain.contains("kept:") && !plain.contains("  encoding:") && !plain.contains("  policy "))

        let (_, json, _) = run(["fix", folder + "/in/gbk.srt", "--dry-run", "-v", "--json", "--policy", "cjk"])
        #expect(json.contains(#""encodingBasis":"weighed","policy":"cjk","target":"auto","decisions":[{"kind":"font""#))
    }

    @Test func quietAndVerboseTogetherAreAUsageError() {
        let (status, _, err) = run(["fix", "x.srt", "--dry-run", "-q", "-v"])
        #expect(status == .usage)
        #expect(err == "subfix: error: options '--quiet', '--verbose' cannot be used together\n")
    }

    @Test func quietLeavesOnlyFailuresAndSummaries() throws {
        let folder = try inputs()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library: String = folder + "/l.sqlite"
        let db: [String] = ["--db", library]
        let fontFolder: String = Self.samples + "/media-src"
        let fonts: [String] = ["--no-system-fonts", "--fonts-dir", fontFolder]
        let yahei: String = folder + "/in/yahei-styles.ass"
        let input: String = folder + "/in"

        // check: nothing for a file whose characters are all covered; the file with missing glyphs stays.
        let covered = folder + "/covered.srt"
        try Data("1\n00:00:01,000 --> 00:00:02,000\nhello\n".utf8).write(to: URL(fileURLWithPath: covered))
        let (_, loud, _) = run(["check", covered] + fonts + db)
        #expect(loud.contains("all characters covered"))
        let (_, quietCheck, _) = run(["check", covered, yahei, "-q"] + fonts + db)
        #expect(!quietCheck.contains(covered) && quietCheck.contains("yahei-styles.ass"))

        // index --json -q: the failed file's object and the summary.
        let (indexStatus, indexed, _) = run(["index", input, "--json", "-q"] + db)
        #expect(indexStatus == .someFailed)
        let objects: [String] = indexed.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix(#"{"type":"file""#)
        }
        #expect(objects.count == 1)
        #expect(objects.first?.contains("zz-broken.srt") == true)
        #expect(indexed.contains(#"{"type":"summary","files":3,"#))

        // extract and render -q: no line per written file.
        let (extractStatus, extracted, _) = run(
            ["extract", Self.samples + "/tram.mkv", "--all", "--out", folder + "/tracks", "-q"] + db)
        #expect(extractStatus == .success && extracted == "")
        #expect(FileManager.default.fileExists(atPath: folder + "/tracks/tram.0.chi.ass"))
        let (renderStatus, rendered, _) = run(
            [
                "render", Self.samples + "/render-demo.ass", "--at", "1", "--size", "64x36", "--out",
                folder + "/f.png", "-q",
            ] + db)
        #expect(renderStatus == .success && rendered == "")
        #expect(FileManager.default.fileExists(atPath: folder + "/f.png"))

        // report -q: the failed file and the summary line.
        let (_, reported, _) = run(
            ["report", folder + "/in/gbk.srt", folder + "/in/zz-broken.srt", "--out", folder + "/r.html", "-q"] + db)
        let reportLines = reported.split(separator: "\n")
        #expect(reportLines.count == 2)
        #expect(reportLines.first?.hasSuffix("zz-broken.srt: failed") == true)
        #expect(reportLines.last?.hasPrefix("2 files:") == true)
    }
}
