import Foundation

/// Why an input file was refused before or while reading it: not a regular file (a FIFO would block forever,
/// `/dev/zero` never ends), larger than the size limit, or a failed system call (with the C message).
public struct InputFileError: Equatable, FileError {
    /// What was wrong with the file.
    public enum Problem: Sendable, Equatable {
        /// A folder, FIFO, socket or device; `kind` is the plain word (`a folder`, `a FIFO`, ...).
        case notRegular(kind: String)
        /// Larger than `limit` bytes (`size` is what `fstat` reported or what was read before stopping).
        case tooLarge(size: Int64, limit: Int64)
        /// `open`, `fstat` or `read` failed with `code` (errno).
        case system(function: String, code: Int32)

        /// The problem in plain words (a system error as `strerror` words it).
        public var reason: String {
            switch self {
            case .notRegular(let kind): return "\(kind), not a regular file"
            case .tooLarge(let size, let limit):
                return "larger than the limit of \(InputFile.describe(bytes: limit))"
                    + " (\(InputFile.describe(bytes: size)) or more; raise it with \(InputFile.limitVariable))"
            case .system(_, let code): return String(cString: strerror(code))
            }
        }
    }

    /// The file, as the caller named it; nil for a bare descriptor.
    public var file: String?
    /// What was wrong with it.
    public var problem: Problem

    /// An error about `file`.
    public init(file: String?, problem: Problem) {
        self.file = file
        self.problem = problem
    }

    public var cause: String { "cannot read: " + problem.reason }
}

/// Opens input files without the ways a hostile path can hang or exhaust subfix: the open never blocks
/// (`O_NONBLOCK`, so a FIFO with no writer returns at once), anything but a regular file is refused after
/// `fstat` on the opened descriptor, and reading stops at a size limit (2 GiB unless `SUBFIX_MAX_INPUT_SIZE`
/// says otherwise). The corresponding C calls are `open`, `fstat`, `fcntl` and `read`.
///
///     let descriptor = try InputFile.open("movie.srt")          // throws for a FIFO, /dev/zero, a folder
///     let bytes = try InputFile.read("movie.srt")               // the whole file, at most the limit
public enum InputFile {
    /// The default limit: subtitles are megabytes (a 200,000-event karaoke script is 20 MB), and a file read
    /// whole is held about twice while it is fixed, so 256 MiB bounds a run's memory near half a gigabyte.
    public static let defaultLimit: Int64 = 256 << 20
    /// The environment variable that overrides the limit (`SUBFIX_MAX_INPUT_SIZE=4G`, `=500M`, `=1000`).
    public static let limitVariable = "SUBFIX_MAX_INPUT_SIZE"

    /// The limit in force: `SUBFIX_MAX_INPUT_SIZE` from the process environment when it parses, else 256 MiB
    /// (read once per process).
    public static let limit: Int64 =
        ProcessInfo.processInfo.environment[limitVariable].flatMap(parseSize) ?? defaultLimit

    /// `1234`, `500K`, `20M`, `4G` (powers of 1024) as bytes; nil for anything else or zero.
    public static func parseSize(_ text: String) -> Int64? {
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        var scale: Int64 = 1
        if let last = digits.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][last.uppercased()] {
            scale = Int64(1) << (10 * power)
            digits = digits.dropLast()
        }
        guard let value = Int64(digits), value > 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow ? nil : bytes
    }

    /// `2 GiB`, `512 MiB`, `1000 bytes`: the largest binary unit that divides `bytes`, or bytes.
    static func describe(bytes: Int64) -> String {
        for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
            let size = Int64(1) << shift
            if bytes >= size && bytes % size == 0 { return "\(bytes / size) \(unit)" }
        }
        return "\(bytes) bytes"
    }

    /// The plain word for the kind of file `mode` describes.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a file"
        }
    }

    /// Opens `path` for reading without blocking, checks it is a regular file no larger than `limit`, and returns
    /// the descriptor (blocking again, close-on-exec; the caller closes it) with its `fstat`.
    public static func open(_ path: String, limit: Int64 = InputFile.limit) throws(InputFileError)
        -> (descriptor: Int32, info: stat)
    {
        func failure(_ problem: InputFileError.Problem) -> InputFileError {
            InputFileError(file: path, problem: problem)
        }
        let descriptor = PathBytes.withCString(path) { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { throw failure(.system(function: "open", code: errno)) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw failure(.system(function: "fstat", code: code))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw failure(.notRegular(kind: kind(info.st_mode)))
        }
        guard Int64(info.st_size) <= limit else {
            close(descriptor)
            throw failure(.tooLarge(size: Int64(info.st_size), limit: limit))
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return (descriptor, info)
    }

    /// Checks that `path` is a regular file within `limit` without reading it (for media files that another
    /// library opens by name).
    public static func check(_ path: String, limit: Int64 = Int64.max) throws(InputFileError) {
        let (descriptor, _) = try open(path, limit: limit)
        close(descriptor)
    }

    /// The whole content of the file at `path` (at most `limit` bytes), and its permission bits.
    public static func read(_ path: String, limit: Int64 = InputFile.limit) throws(InputFileError)
        -> (bytes: [UInt8], mode: mode_t)
    {
        let (descriptor, info) = try open(path, limit: limit)
        defer { close(descriptor) }
        do {
            let bytes = try read(descriptor: descriptor, expected: Int(info.st_size), limit: limit)
            return (bytes, info.st_mode & 0o7777)
        } catch {
            throw InputFileError(file: path, problem: error.problem)
        }
    }

    /// Reads `descriptor` to its end: `expected` bytes (plus one, so that a full buffer means the file grew), then
    /// in chunks while it keeps growing, failing once more than `limit` bytes have come (an error naming no file).
    public static func read(descriptor: Int32, expected: Int, limit: Int64) throws(InputFileError) -> [UInt8] {
        func failure(_ problem: InputFileError.Problem) -> InputFileError {
            InputFileError(file: nil, problem: problem)
        }
        let capacity = Int(min(Int64(max(expected, 0)), limit)) + 1
        var failed: Int32?
        var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            while initialized < buffer.count {
                let count = Glibc.read(
                    descriptor, buffer.baseAddress.map { $0 + initialized }, buffer.count - initialized)
                if count < 0 {
                    if errno == EINTR { continue }
                    failed = errno
                    return
                }
                if count == 0 { return }
                initialized += count
            }
        }
        if let failed { throw failure(.system(function: "read", code: failed)) }
        guard bytes.count == capacity else { return bytes }
        // The file grew while being read (or fstat said 0, as /proc files do): read on in chunks, up to the limit.
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if Int64(bytes.count) > limit { throw failure(.tooLarge(size: Int64(bytes.count), limit: limit)) }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(.system(function: "read", code: errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        if Int64(bytes.count) > limit { throw failure(.tooLarge(size: Int64(bytes.count), limit: limit)) }
        return bytes
    }

    /// Asks for transparent huge pages on a large buffer about to be filled: one page fault per 2 MB instead of
    /// one per 4 kB (a fifth of the time of fixing a 20 MB file went to page faults). The corresponding C call is
    /// `madvise`; where huge pages are off it changes nothing.
    static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        let huge = 2 << 20
        guard buffer.count >= 2 * huge, let base = buffer.baseAddress else { return }
        let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    }
}
