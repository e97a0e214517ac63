import Foundation
import SubCore

/// A failure of one file, carrying the cause printed after `subfix: error: <file>: `.
struct FixFailure: Error, Sendable, Equatable {
    var cause: String
}

/// The file operations `subfix fix` needs, each failure turned into a `FixFailure` with the C message.
/// The corresponding C calls are `open`, `read`, `fstat`, `mkstemp`, `write`, `sync_file_range`, `fchmod`,
/// `fsync` and `rename`.
enum FixFileSystem {
    /// The message for an errno value.
    static func message(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The whole content of the file at `path`, refusing FIFOs, devices and folders and anything over the size
    /// limit (`InputFile`).
    static func read(_ path: String) throws(FixFailure) -> (bytes: [UInt8], mode: mode_t) {
        do {
            return try InputFile.read(path)
        } catch {
            throw FixFailure(cause: error.description)
        }
    }

    /// Writes `original` to `backup` atomically, unless a file is there already: a backup holding exactly
    /// `original` is what a run killed between the backup and the rewrite left, and is kept as it is (the rerun
    /// goes on); any other file there is never overwritten.
    static func keepBackup(_ original: [UInt8], at backup: String, mode: mode_t) throws(FixFailure) {
        if exists(backup) {
            if let held = try? read(backup).bytes, held == original { return }
            throw FixFailure(
                cause: "backup '\(backup)' already exists; not overwriting it"
                    + " (move it away or choose another --backup-suffix)")
        }
        try writeAtomically(original, to: backup, mode: mode)
    }

    /// Writes `bytes` to `path` atomically: a temporary file in the same folder, `fsync`, then `rename` over the
    /// path. The temporary file is removed on any failure.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) throws(FixFailure) {
        try writeAtomically(to: path, mode: mode) { sink in sink.write(bytes[...]) }
    }

    /// Writes what `produce` hands its sink to `path` atomically (temporary file in the same folder, `fsync`,
    /// `rename`), through a 1 MB buffer so that large outputs are never held whole in memory.
    static func writeAtomically(
        to path: String, mode: mode_t, _ produce: (inout FixFileSink) -> Void
    ) throws(FixFailure) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        TemporaryFiles.removeStale(in: folder)
        var template =
            PathBytes.encode(folder + "/." + name + TemporaryFiles.marker + "XXXXXX").map {
                CChar(bitPattern: $0)
            } + [0]
        let descriptor = TemporaryFiles.withFolderLock(folder, exclusive: false) {
            let created = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return -1 }
                return mkstemp(base)
            }
            // Held until the descriptor closes: a later run sees the file as in use, not as left by a dead subfix.
            if created >= 0 { flock(created, LOCK_EX) }
            return created
        }
        guard descriptor >= 0 else { throw FixFailure(cause: "cannot write '\(path)': \(message(errno))") }
        let temporary = PathBytes.decode(template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        var sink = FixFileSink(descriptor: descriptor)
        produce(&sink)
        sink.flush()
        var failure = sink.errorCode.map { FixFailure(cause: "cannot write '\(path)': \(message($0))") }
        if failure == nil, fchmod(descriptor, mode) != 0 {
            failure = FixFailure(cause: "cannot set the permissions of '\(path)': \(message(errno))")
        }
        if failure == nil, fsync(descriptor) != 0 {
            failure = FixFailure(cause: "cannot write '\(path)': \(message(errno))")
        }
        close(descriptor)
        if failure == nil,
            PathBytes.withCString(temporary, { from in PathBytes.withCString(path) { rename(from, $0) } }) != 0
        {
            failure = FixFailure(cause: "cannot write '\(path)': \(message(errno))")
        }
        if let failure {
            PathBytes.withCString(temporary) { _ = unlink($0) }
            throw failure
        }
    }

    /// Creates `path` and its parents as folders.
    static func makeFolders(_ path: String) throws(FixFailure) {
        if let info = status(path), info.st_mode & S_IFMT == S_IFDIR { return }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if PathBytes.withCString(current, { mkdir($0, 0o755) }) != 0 && errno != EEXIST {
                throw FixFailure(cause: "cannot create output folder '\(path)': \(message(errno))")
            }
        }
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else {
            throw FixFailure(cause: "cannot create output folder '\(path)': \(message(errno))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw FixFailure(cause: "cannot create output folder '\(path)': \(message(ENOTDIR))")
        }
    }

    /// The path with every symlink resolved (`realpath`), or nil when it cannot be resolved.
    static func resolved(_ path: String) -> String? {
        guard let pointer = PathBytes.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(pointer) }
        return PathBytes.decode(cString: pointer)
    }

    /// `stat` following symlinks; nil when it fails.
    static func status(_ path: String) -> stat? {
        var info = stat()
        return PathBytes.withCString(path) { stat($0, &info) } == 0 ? info : nil
    }

    /// `lstat`: whether anything (even a dangling symlink) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return PathBytes.withCString(path) { lstat($0, &info) } == 0
    }
}

/// A buffered writer to a file descriptor that remembers the first error.
struct FixFileSink {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private(set) var errorCode: Int32?
    /// Bytes written to the descriptor so far, and how many of them the kernel was asked to write back.
    private var written: Int64 = 0
    private var writebackStarted: Int64 = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 20)
    }

    /// Appends bytes, flushing when the buffer is full.
    mutating func write(_ bytes: ArraySlice<UInt8>) {
        if buffer.count + bytes.count > 1 << 20 { flush() }
        if bytes.count >= 1 << 20 {
            writeOut(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Writes out what is buffered.
    mutating func flush() {
        if !buffer.isEmpty { writeOut(buffer[...]) }
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func writeOut(_ bytes: ArraySlice<UInt8>) {
        guard errorCode == nil else { return }
        defer { startWriteback() }
        bytes.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                let count = Glibc.write(descriptor, raw.baseAddress.map { $0 + written }, raw.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    errorCode = errno
                    return
                }
                written += count
            }
            self.written += Int64(raw.count)
        }
    }

    /// Lets the kernel start writing what was written so far while the rest is produced, so the final `fsync`
    /// waits for little (a 20 MB output: ~10 ms less). Only a hint: an error here is left to `fsync` to report.
    private mutating func startWriteback() {
        guard written - writebackStarted >= 1 << 20 else { return }
        Writeback.start(descriptor: descriptor, offset: writebackStarted, length: written - writebackStarted)
        writebackStarted = written
    }
}
