import Foundation
import TestSupport
import Testing

/// The end-to-end tier: tests that run the built `subfix` executable as a user does, through a shell when the
/// case needs one (pipes into `head`, non-UTF-8 arguments), and look at what a user sees: the exit status or the
/// signal, standard output, standard error, and the files left behind. The in-process tests call `SubfixCLI.run`
/// instead; these catch what only a real process shows (signals, SIGPIPE, blocking opens, `argv` bytes).
enum SubfixBinary {
    /// The `subfix` executable built next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("subfix")
    }

    /// The repository's Samples folder.
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples").path

    /// What one run gave.
    struct Run {
        /// The exit status, or nil when a signal ended the process.
        var status: Int32?
        /// The signal that ended the process, if one did.
        var signal: Int32?
        var stdout: String
        var stderr: String
        /// Whether the run was still going after the safety limit and was killed (a hang).
        var hung: Bool
        /// Standard error as lines.
        var errorLines: [String] {
            stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// A started process, for tests that signal it while it runs.
    final class Running {
        let process: Process
        let folder: URL
        init(process: Process, folder: URL) {
            self.process = process
            self.folder = folder
        }

        /// What has been written to standard output so far.
        var stdoutSoFar: String {
            (try? String(contentsOf: folder.appendingPathComponent("stdout"), encoding: .utf8)) ?? ""
        }

        /// Waits for the process (killing it after `limit` seconds: a hang) and collects what it wrote.
        func finish(limit: Double = 120) -> Run {
            var waited = 0.0
            while process.isRunning, waited < limit {
                usleep(20_000)
                waited += 0.02
            }
            let hung = process.isRunning
            if hung {
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            let stdout = (try? Data(contentsOf: folder.appendingPathComponent("stdout"))) ?? Data()
            let stderr = (try? Data(contentsOf: folder.appendingPathComponent("stderr"))) ?? Data()
            try? FileManager.default.removeItem(at: folder)
            let signaled = process.terminationReason == .uncaughtSignal
            return Run(
                status: signaled ? nil : process.terminationStatus,
                signal: signaled ? process.terminationStatus : nil,
                stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
                hung: hung)
        }
    }

    /// The environment of every run: the job log's database in the run's own scratch folder (never the user's, and
    /// not among the files a test lists), no terminal.
    static func environment(home: String, extra: [String: String]) -> [String: String] {
        var environment = ["PATH": "/usr/bin:/bin", "HOME": home, "XDG_DATA_HOME": home + "/data", "LANG": "C.UTF-8"]
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Starts `subfix ARGUMENTS` in `directory` with standard input from /dev/null.
    static func start(
        _ arguments: [String], in directory: String, environment extra: [String: String] = [:],
        executable: URL = SubfixBinary.executable
    ) throws -> Running {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("subfix-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("stdout").path, contents: nil)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("stderr").path, contents: nil)
        let process = Process()
        process.executableURL = executable
        // The test server's URLs carry its password; a user is told to keep it out of the arguments (issue 35,
        // item 2), so the binary gets it the recommended way, through PGPASSWORD (PasswordLeakTests runs the
        // password-in-the-URL case itself).
        let secret = ":" + PostgresTestServer.password + "@"
        var extra = extra
        if arguments.contains(where: { $0.contains(secret) }) { extra["PGPASSWORD"] = PostgresTestServer.password }
        process.arguments = arguments.map { $0.replacingOccurrences(of: secret, with: "@") }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment(home: folder.path, extra: extra)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: folder.appendingPathComponent("stdout"))
        process.standardError = try FileHandle(forWritingTo: folder.appendingPathComponent("stderr"))
        try process.run()
        return Running(process: process, folder: folder)
    }

    /// Runs `subfix ARGUMENTS` in `directory` to its end (killed after `limit` seconds and marked hung).
    static func run(
        _ arguments: [String], in directory: String, environment: [String: String] = [:], limit: Double = 120
    ) throws -> Run {
        try start(arguments, in: directory, environment: environment).finish(limit: limit)
    }

    /// Runs a bash script in `directory` with `$SUBFIX` set to the executable (for pipes and raw-byte names).
    static func shell(_ script: String, in directory: String, limit: Double = 120) throws -> Run {
        try start(
            ["-c", script], in: directory, environment: ["SUBFIX": executable.path],
            executable: URL(fileURLWithPath: "/bin/bash")
        ).finish(limit: limit)
    }

    /// A fresh folder for one test.
    static func folder(_ name: String = "e2e") throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("subfix-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Writes `text` to `path`.
    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
