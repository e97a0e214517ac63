import Foundation

/// Runs a program and collects what it printed, for tests that compare against the ffmpeg/ffprobe CLIs or run
/// the built `subfix` as a child process.
public enum ProcessRunner {
    /// What a finished program left behind.
    public struct Outcome: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        /// Standard output as UTF-8 text.
        public var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `program` (looked up on `PATH` when it has no slash) with `arguments`; `environment` entries are
    /// added to (or, when nil, removed from) the current environment.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String?] = [:]
    ) throws -> Outcome {
        let process = Process()
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
        }
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes concurrently so that neither fills up and blocks the child.
        final class Box: @unchecked Sendable {  // written by the reader, read after group.wait()
            var data = Data()
        }
        let box = Box()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { box.data = errors.fileHandleForReading.readDataToEndOfFile() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errorData = box.data
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: outputData, stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// `ffmpeg -i INPUT -map 0:v -map 0:a -f framemd5 -c copy -` without its comment lines: one line per packet
    /// of the video and audio streams (timestamps, size, MD5 of the bytes).
    public static func framemd5(_ input: String) throws -> String {
        let outcome = try run(
            "ffmpeg",
            ["-nostdin", "-v", "error", "-i", input, "-map", "0:v", "-map", "0:a", "-f", "framemd5", "-c", "copy", "-"])
        return outcome.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
    }
}

/// Whether this process may mount a tmpfs (root, and a kernel that allows it): tried once, for the tests that
/// fill a small disk. A test that needs it says so with `.enabled(if: Tmpfs.canMount)`.
public enum Tmpfs {
    public static let canMount: Bool = {
        guard getuid() == 0,
            let folder = try? FileManager.default.url(
                for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: URL(fileURLWithPath: "/tmp"),
                create: true)
        else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        guard (try? ProcessRunner.run("mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", folder.path]))?.status == 0
        else { return false }
        _ = try? ProcessRunner.run("umount", [folder.path])
        return true
    }()
}
