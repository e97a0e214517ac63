import Foundation

/// Crash-safe file writes for extracted tracks and attachments: the bytes go to a temporary file in the target
/// folder, are flushed with `fsync`, then moved into place with `rename` (replacing) or `link` (never
/// replacing). Temporary files are removed when anything fails.
enum MediaOutputFile {
    /// A written-but-not-yet-placed temporary file.
    struct Pending {
        var temporary: URL
        var destination: URL
    }

    /// Writes `data` to a new temporary file next to `destination` and flushes it to disk.
    static func stage(_ data: Data, for destination: URL) throws -> Pending {
        let directory = destination.deletingLastPathComponent()
        let pattern = directory.appendingPathComponent(".subfix-\(destination.lastPathComponent).XXXXXX").path
        var template = PathBytes.encode(pattern).map { CChar(bitPattern: $0) } + [0]
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw MediaError.write(
                file: destination.path,
                cause: "cannot create a temporary file in "
                    + "\(directory.path): \(String(cString: strerror(errno)))")
        }
        let temporaryPath = PathBytes.decode(template.dropLast().map { UInt8(bitPattern: $0) })
        let temporary = URL(fileURLWithPath: temporaryPath)
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = Glibc.write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        // mkstemp creates 0600 files; a new output gets the mode any other new file would get.
        if failure == 0, fchmod(descriptor, FileCreationMode.newFile) != 0 { failure = errno }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure != 0 {
            remove(temporary)
            throw MediaError.write(file: destination.path, cause: "cannot write: \(String(cString: strerror(failure)))")
        }
        return Pending(temporary: temporary, destination: destination)
    }

    /// Moves a staged file into place, replacing whatever is there.
    static func commitReplacing(_ pending: Pending) throws {
        if PathBytes.withCString(
            pending.temporary.path, { from in PathBytes.withCString(pending.destination.path) { rename(from, $0) } })
            != 0
        {
            let cause = String(cString: strerror(errno))
            remove(pending.temporary)
            throw MediaError.write(file: pending.destination.path, cause: "cannot rename into place: \(cause)")
        }
        syncDirectory(pending.destination.deletingLastPathComponent())
    }

    /// Moves a staged file into place under `destination`, or, when that name exists, the first free name of
    /// `alternatives`; never replaces a file. Returns the name used.
    static func commitWithoutReplacing(_ pending: Pending, alternatives: (Int) -> URL) throws -> URL {
        defer { remove(pending.temporary) }
        var candidate = pending.destination
        var attempt = 0
        while true {
            if PathBytes.withCString(
                pending.temporary.path, { from in PathBytes.withCString(candidate.path) { link(from, $0) } }) == 0
            {
                syncDirectory(candidate.deletingLastPathComponent())
                return candidate
            }
            guard errno == EEXIST, attempt < 10_000 else {
                throw MediaError.write(
                    file: candidate.path, cause: "cannot create: \(String(cString: strerror(errno)))")
            }
            attempt += 1
            candidate = alternatives(attempt)
        }
    }

    /// Removes a staged file that will not be used.
    static func discard(_ pending: Pending) {
        remove(pending.temporary)
    }

    /// Unlinks a file by its path's bytes (`PathBytes`).
    private static func remove(_ url: URL) {
        PathBytes.withCString(url.path) { _ = unlink($0) }
    }

    /// Makes a rename durable by flushing the folder.
    private static func syncDirectory(_ directory: URL) {
        let descriptor = PathBytes.withCString(directory.path) { open($0, O_RDONLY | O_DIRECTORY) }
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
