import Foundation
import Testing

@testable import subfix

/// `--max-read-rate`: a bad rate is a usage error before anything is read; a rate makes `extract` and `fix`
/// read through the metered input and write exactly what they write without it.
@Suite struct ReadRateOptionTests {
    @Test(arguments: ["0", "fast", "-1M", "5MM", ""])
    func badRateIsAUsageError(rate: String) throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        for command in [
            ["extract", MediaCLIFixtures.mkv, "--all", "--out", directory.path],
            ["fix", MediaCLIFixtures.mkv, "--out", directory.path],
        ] {
            let (io, output) = CommandIO.capturing()
            #expect(SubfixCLI.run(command + ["--max-read-rate", rate], io: io) == .usage)
            #expect(output.stderr.contains("--max-read-rate"))
            #expect(output.stderr.split(separator: "\n").count >= 1)
            #expect(output.stdout == "")
            #expect(try MediaCLIFixtures.listing(directory) == [])
        }
    }

    @Test func limitedRunsWriteWhatUnlimitedRunsWrite() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        for (name, extra) in [("plain", [String]()), ("limited", ["--max-read-rate", "1G"])] {
            let (io, output) = CommandIO.capturing()
            let extract = directory.appendingPathComponent("extract-" + name).path
            #expect(
                SubfixCLI.run(["extract", MediaCLIFixtures.mkv, "--all", "--out", extract] + extra, io: io)
                    == .success)
            let fix = directory.appendingPathComponent("fix-" + name).path
            #expect(SubfixCLI.run(["fix", MediaCLIFixtures.mkv, "--out", fix] + extra, io: io) == .success)
            #expect(output.stderr == "")
        }
        for kind in ["extract", "fix"] {
            let plain = directory.appendingPathComponent(kind + "-plain")
            let limited = directory.appendingPathComponent(kind + "-limited")
            let names = try files(under: plain)
            #expect(!names.isEmpty)
            #expect(try files(under: limited) == names)
            for name in names {
                #expect(
                    try Data(contentsOf: plain.appendingPathComponent(name))
                        == Data(contentsOf: limited.appendingPathComponent(name)))
            }
        }
    }

    /// `fix -v` ends with what was read from media files (the whole sample here), and the limit when one is set;
    /// without `-v`, or with only subtitle files, there is no such line.
    @Test func verboseSaysHowMuchMediaWasRead() throws {
        func lastLine(_ arguments: [String]) -> String {
            let (io, output) = CommandIO.capturing()
            #expect(SubfixCLI.run(["fix", "--dry-run"] + arguments, io: io) == .success)
            return String(output.stdout.split(separator: "\n").last ?? "")
        }
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: MediaCLIFixtures.mkv)[.size] as? Int)
        let plain = lastLine([MediaCLIFixtures.mkv, "-v"])
        #expect(plain.hasPrefix("media read: "))
        let megabytes = try #require(Double(plain.dropFirst("media read: ".count).prefix { $0 != " " }))
        #expect(megabytes * 1e6 >= Double(size) / 2)
        #expect(!plain.contains("limit"))
        #expect(
            lastLine([MediaCLIFixtures.mkv, "-v", "--max-read-rate", "1G"]).contains("(limit 1000.0 MB/s; waited "))
        #expect(!lastLine([MediaCLIFixtures.mkv]).hasPrefix("media read"))
        let subtitle = MediaCLIFixtures.samples.appendingPathComponent("yahei-styles.ass").path
        #expect(!lastLine([subtitle, "-v"]).hasPrefix("media read"))
    }

    /// The regular files below `folder`, as sorted relative paths.
    private func files(under folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }.sorted()
    }
}
