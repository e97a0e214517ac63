import Foundation
import SubCore
import Synchronization

/// Where a command writes: standard output for results, standard error for errors and progress.
///
/// Tests make one with `CommandIO.capturing()` and read back what was written.
final class CommandIO: Sendable {
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress lines are shown only then).
    let stderrIsTerminal: Bool
    /// Whether standard output is a terminal (colours and bold only then).
    let stdoutIsTerminal: Bool
    /// The width of the terminal standard output is, nil when it is none (`--help` is wrapped to it).
    let terminalColumns: Int?
    /// The environment commands read defaults from (`XDG_DATA_HOME`, ...).
    let environment: Environment
    /// How long a run goes before it shows a progress line on a terminal (tests shorten it).
    let progressDelay: TimeInterval
    /// Reads all of standard input (a list of paths given as `-`).
    let readInput: @Sendable () -> [UInt8]
    /// Whether each error line is also written to standard output as a JSON `error` object (under `--json`, so a
    /// script reading standard output sees every input accounted for).
    let errorsAsJSON: Bool

    init(
        stdout: @escaping @Sendable (String) -> Void, stderr: @escaping @Sendable (String) -> Void,
        stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false, terminalColumns: Int? = nil,
        environment: Environment = .process, progressDelay: TimeInterval = 1,
        readInput: @escaping @Sendable () -> [UInt8] = { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) },
        errorsAsJSON: Bool = false
    ) {
        self.writeOut = stdout
        self.writeErr = stderr
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.terminalColumns = terminalColumns
        self.environment = environment
        self.progressDelay = progressDelay
        self.readInput = readInput
        self.errorsAsJSON = errorsAsJSON
    }

    /// The same IO, with every error also printed as a JSON `error` object on standard output (`--json`).
    func reportingErrorsAsJSON() -> CommandIO {
        CommandIO(
            stdout: writeOut, stderr: writeErr, stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal,
            terminalColumns: terminalColumns, environment: environment, progressDelay: progressDelay,
            readInput: readInput, errorsAsJSON: true)
    }

    /// The process's own standard output and error.
    static func standard() -> CommandIO {
        CommandIO(
            stdout: { writeAll($0, to: STDOUT_FILENO) },
            stderr: { writeAll($0, to: STDERR_FILENO) },
            stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
            stderrIsTerminal: isatty(STDERR_FILENO) == 1, terminalColumns: columns(of: STDOUT_FILENO))
    }

    /// The columns of the terminal `descriptor` is, nil when it is not one. The corresponding C call is
    /// `ioctl(TIOCGWINSZ)`.
    private static func columns(of descriptor: Int32) -> Int? {
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes all of `text` to `descriptor` with `write(2)`, retrying interrupted and partial writes, and waiting
    /// when the descriptor is non-blocking and full (a parent may share such a pipe). Another error ends it
    /// quietly: a closed pipe (`subfix ... | head`) is not a failure, and SIGPIPE is ignored.
    private static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count, let base = bytes.baseAddress {
                let count = write(descriptor, base + done, bytes.count - done)
                if count > 0 {
                    done += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                } else {
                    return
                }
            }
        }
    }

    /// An IO that keeps what is written, for tests; `terminal` makes standard error count as a terminal, with
    /// progress lines shown after `progressDelay`.
    static func capturing(
        environment: Environment = [:], terminal: Bool = false, progressDelay: TimeInterval = 1,
        input: [UInt8] = []
    ) -> (CommandIO, CapturedOutput) {
        let captured = CapturedOutput()
        let io = CommandIO(
            stdout: { captured.appendOut($0) }, stderr: { captured.appendErr($0) }, stderrIsTerminal: terminal,
            environment: environment, progressDelay: progressDelay, readInput: { input })
        return (io, captured)
    }

    /// Writes a line to standard output.
    func print(_ line: String) { writeOut(line + "\n") }
    /// Writes several lines to standard output with one write (a file's report line and its details: 5,000
    /// small files made 130,000 writes, one per line).
    func print(lines: [String]) {
        guard !lines.isEmpty else { return }
        writeOut(lines.joined(separator: "\n") + "\n")
    }
    /// Writes one report line to standard output with control characters and raw file-name bytes escaped
    /// (`MessageText`): for lines that carry names or text from files.
    func printLine(_ line: String) { writeOut(MessageText.escaped(line) + "\n") }
    /// Writes one JSON object as one line to standard output.
    func printJSON(_ value: JSON) { writeOut(value.serialized() + "\n") }
    /// Writes a line to standard error.
    func printError(_ line: String) { writeErr(line + "\n") }
    /// Prints `error` as `subfix: error: <file>:<position>: <cause>` (the parts it has; `file` when it names
    /// none) to standard error, as one line: control characters and raw file-name bytes are escaped
    /// (`MessageText`). The one place an error becomes text.
    func error(_ error: any Error, file: String? = nil) {
        let failure = CommandFailure(error, file: file)
        printError("subfix: error: " + MessageText.escaped(failure.description))
        if errorsAsJSON {
            printJSON(.typed("error", [("file", .optional(failure.file)), ("error", .string(failure.detail))]))
        }
    }
    /// Prints `subfix: error: <file>: <cause>` (or without the file), as `error(_:file:)` prints an error.
    func error(_ cause: String, file: String? = nil) {
        error(CommandFailure(file: file, cause: cause))
    }
    /// Prints `subfix: warning: <file>: <cause>` to standard error, escaped as `error` is.
    func warning(_ cause: String, file: String? = nil) {
        printError("subfix: warning: " + MessageText.escaped((file.map { "\($0): " } ?? "") + cause))
    }
    /// Writes raw text to standard error without a newline (progress lines use `\r`).
    func progress(_ text: String) { writeErr(text) }
}

/// What a capturing `CommandIO` has received.
final class CapturedOutput: Sendable {
    private let state = Mutex<(out: String, err: String)>((out: "", err: ""))
    var stdout: String { state.withLock { $0.out } }
    var stderr: String { state.withLock { $0.err } }
    func appendOut(_ text: String) { state.withLock { $0.out += text } }
    func appendErr(_ text: String) { state.withLock { $0.err += text } }
}
