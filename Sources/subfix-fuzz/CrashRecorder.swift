import Foundation

/// Keeps the input being run where a signal handler can reach it, and writes it to the crash file when the
/// run traps (SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS), then lets the signal kill the process. The handler
/// only calls `write`, `close` and `signal`/`raise`, which are async-signal-safe.
enum CrashRecorder {
    /// The crash file, opened when the first crash happens would not be safe: it is opened (and emptied) lazily
    /// by path at install, kept as a C string.
    nonisolated(unsafe) static var crashPath: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) static var current: UnsafeMutableRawBufferPointer?

    static func install(path: String) {
        crashPath = strdup(path)
        for signalNumber in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS] {
            signal(signalNumber) { number in
                if let path = CrashRecorder.crashPath, let input = CrashRecorder.current {
                    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                    if descriptor >= 0 {
                        _ = write(descriptor, input.baseAddress, input.count)
                        close(descriptor)
                    }
                }
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    /// Runs one input with it recorded for the handler.
    static func run(_ input: [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(input.count, 1), alignment: 1)
        input.withUnsafeBytes { buffer.copyMemory(from: $0) }
        current = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<input.count])
        FuzzTarget.run(input)
        current = nil
        buffer.deallocate()
    }
}
