import Foundation
import SubCore
import Testing

@testable import subfix

/// `Environment`: the process's variables read one by one, or a fixed set for tests.
@Suite struct EnvironmentTests {
    @Test func fixedVariablesAreTheOnlyOnes() {
        let environment: Environment = ["HOME": "/h", "SUBFIX_DB": ""]
        #expect(environment["HOME"] == "/h")
        #expect(environment["SUBFIX_DB"] == "")
        #expect(environment["PATH"] == nil)
        let empty: Environment = [:]
        #expect(empty["HOME"] == nil)
    }

    /// No setenv here: it would race with the other suites' getenv calls.
    @Test func processVariablesAreReadWhenAsked() {
        #expect(Environment.process["PATH"] == ProcessInfo.processInfo.environment["PATH"])
        #expect(Environment.process["SUBFIX_TEST_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_"))"] == nil)
    }

    /// A value that is not UTF-8 keeps its bytes, as arguments do. SQLite opens files by UTF-8 name, so such a
    /// library path (from `SUBFIX_DB` or `--db`) is a usage error naming it, not a library made under another name.
    @Test func aLibraryPathThatIsNotUTF8IsAUsageError() throws {
        let folder = try SubfixBinary.folder("environment-bytes")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SubfixBinary.write("1\n00:00:01,000 --> 00:00:02,000\n你好\n", to: folder + "/a.srt")
        for script in [
            "SUBFIX_DB=$'\(folder)/bibliot\\xe8que.sqlite' \"$SUBFIX\" index a.srt",
            "\"$SUBFIX\" index a.srt --db $'\(folder)/bibliot\\xe8que.sqlite'",
        ] {
            let run = try SubfixBinary.shell(script, in: folder)
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.hasPrefix("subfix: error: "), "\(run.stderr)")
            #expect(run.stderr.contains("bibliot\\xe8que.sqlite"), "\(run.stderr)")
            #expect(run.stderr.contains("UTF-8"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.srt"])
        }
    }
}
