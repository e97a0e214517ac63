import SubCore
import SubDB
import SubfixLibrary
import Testing

@testable import subfix

@Suite struct VersionTests {
    /// Every C library links and reports a version of the form major.minor.patch.
    @Test func everyLinkedLibraryReportsItsVersion() throws {
        let libraries = LinkedLibraries.all
        #expect(
            libraries.map(\.name) == [
                "libavformat", "libavcodec", "libavutil", "libswscale", "libass", "FreeType", "fontconfig",
            ])
        let named = libraries.map { ($0.name, $0.version) } + [("SQLite", SQLiteLibrary.version)]
        for (name, version) in named {
            let parts = version.split(separator: ".")
            #expect(parts.count == 3, "\(name) \(version)")
            #expect(parts.allSatisfy { Int($0) != nil }, "\(name) \(version)")
            #expect(version != "0.0.0", "\(name)")
        }
        #expect(SQLiteLibrary.versionNumber >= 3_035_000)
    }

    @Test func versionCommandPrintsEveryLibrary() {
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["--version"], io: io) == .success)
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.first == "subfix \(SubfixCLI.version)")
        #expect(lines.count == 9)
        #expect(lines.contains { $0.hasPrefix("SQLite 3.") })
        #expect(lines.contains { $0.hasPrefix("libass 0.") })
    }
}
