import Foundation

/// Files and folders for tests, shared by every test target.
public enum TestFiles {
    /// A fresh empty folder under the system's temporary folder, named `<prefix>-<UUID>`.
    public static func temporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The first `fraction` of `path`'s bytes, written to `name` in `directory` (a truncated copy).
    public static func truncatedCopy(of path: String, fraction: Double, as name: String, in directory: URL) throws
        -> String
    {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let output = directory.appendingPathComponent(name)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: output)
        return output.path
    }
}

/// The ffmpeg CLI, the oracle media and rendering tests compare against.
public enum FFmpegCLI {
    /// Why an ffmpeg run failed: its arguments and what it printed on standard error.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `ffmpeg -nostdin -hide_banner -loglevel error -y ARGS`; throws with its standard error when it fails.
    public static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "ffmpeg \(arguments.joined(separator: " ")): " + String(decoding: message, as: UTF8.self))
        }
    }
}

/// What `subfix fix` prints, without the indented lines under each report line that say which face each
/// reference got and why (tests of other behaviour compare the report lines alone).
public func reportLinesOnly(_ stdout: String) -> String {
    let details = ["  style ", "  \\fn", "  <font face>", "  font-family", "  embedded ", "  note: "]
    return stdout.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { line in !details.contains { line.hasPrefix($0) } }
        .joined(separator: "\n")
}

/// A fresh temporary directory per test, removed when the value is released.
public final class TemporaryDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("subdb-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
