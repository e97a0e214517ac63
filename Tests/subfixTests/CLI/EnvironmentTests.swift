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
        #expect(Environment([:])["HOME"] == nil)
    }

    @Test func processVariablesAreReadWhenAsked() throws {
        let name = "SUBFIX_TEST_ENVIRONMENT_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_"))"
        #expect(Environment.process[name] == nil)
        setenv(name, "/srv/媒体", 1)
        defer { unsetenv(name) }
        #expect(Environment.process[name] == "/srv/媒体")
        #expect(Environment.process["PATH"] == ProcessInfo.processInfo.environment["PATH"])
    }

    /// A path that is not UTF-8 (`HOME` on an old Latin-1 system) keeps its bytes, as arguments do.
    @Test func bytesThatAreNotUTF8AreKept() throws {
        let name = "SUBFIX_TEST_ENVIRONMENT_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_"))"
        let bytes: [UInt8] = Array("/home/".utf8) + [0xE9, 0x74, 0xE9, 0xFF]
        let value = (bytes + [0]).map { CChar(bitPattern: $0) }
        #expect(value.withUnsafeBufferPointer { $0.baseAddress.map { setenv(name, $0, 1) } } == 0)
        defer { unsetenv(name) }
        let read = try #require(Environment.process[name])
        #expect(PathBytes.encode(read) == bytes)
    }
}
