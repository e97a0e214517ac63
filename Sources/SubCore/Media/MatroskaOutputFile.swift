internal import CFFmpeg
import Foundation

/// Where a remuxed file goes once it is complete.
public enum RemuxPlacement: Sendable, Equatable {
    /// Renamed over the destination (`--out`): whatever was there is replaced in one step.
    case replace
    /// Over the original itself (`--in-place`): the original gets a second name, `backup`, first (a hard link,
    /// so the path always holds either the original or the new file, never neither), then the new file is
    /// renamed over the path. An existing backup is never replaced.
    case keepingOriginal(backup: String)
}

/// The file a Matroska remux writes: a temporary file next to the destination (`.<name>.subfix-XXXXXX`),
/// written through an `AVIOContext` whose write and seek callbacks go straight to the descriptor (the muxer
/// seeks back to fill in sizes, cues and the duration), flushed with `fsync` and only then put in place
/// (`RemuxPlacement`). Until `place` succeeds, `deinit` removes the temporary file: a failed or interrupted
/// remux leaves nothing behind but, after a `kill -9`, that hidden temporary file. The corresponding C calls
/// are `mkstemp`, `pwrite`, `sync_file_range`, `fsync`, `link`, `rename` and `avio_alloc_context` /
/// `avio_context_free`.
final class MatroskaOutputFile {
    /// The path the file is for.
    let destination: String
    /// The temporary file being written.
    let temporary: String
    private let descriptor: Int32
    /// The first errno a write or seek met (ENOSPC for a full disk), 0 while all is well.
    private(set) var errorCode: Int32 = 0
    private var position: Int64 = 0
    private var end: Int64 = 0
    /// The size of the file written so far.
    var size: Int64 { end }
    private var writebackStarted: Int64 = 0
    private var closed = false
    private var placed = false
    /// The I/O context the muxer writes through; owned here.
    private(set) var io: UnsafeMutablePointer<AVIOContext>?

    /// The muxer's buffer size: each full buffer is one `pwrite`.
    private static let bufferSize: Int32 = 1 << 20

    /// Creates the temporary file next to `destination` with permissions `mode`.
    init(destination: String, mode: UInt32) throws {
        self.destination = destination
        let slash = destination.lastIndex(of: "/")
        let folder = slash.map { String(destination[..<$0]) } ?? "."
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        var template = Array((folder + "/." + name + ".subfix-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else {
            throw MediaError.write(
                file: destination, cause: "cannot create a temporary file in \(folder): \(Self.message(errno))")
        }
        self.descriptor = descriptor
        self.temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if fchmod(descriptor, mode & 0o7777) != 0 {
            throw MediaError.write(file: destination, cause: "cannot set permissions: \(Self.message(errno))")
        }
        try FFmpegLibraries.load(file: destination)
        guard let buffer = av_malloc(Int(Self.bufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw MediaError.library("av_malloc", cffmpeg_averror_enomem(), file: destination)
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        let context = avio_alloc_context(
            buffer, Self.bufferSize, 1, opaque, nil,
            { opaque, bytes, size in
                guard let opaque, let bytes else { return -EINVAL }
                let file = Unmanaged<MatroskaOutputFile>.fromOpaque(opaque).takeUnretainedValue()
                return file.write(bytes, count: Int(size))
            },
            { opaque, offset, whence in
                guard let opaque else { return Int64(-EINVAL) }
                let file = Unmanaged<MatroskaOutputFile>.fromOpaque(opaque).takeUnretainedValue()
                return file.seek(offset, whence: whence)
            })
        guard let context else {
            av_free(buffer)
            throw MediaError.library("avio_alloc_context", cffmpeg_averror_enomem(), file: destination)
        }
        context.pointee.seekable = AVIO_SEEKABLE_NORMAL
        io = context
    }

    deinit {
        releaseContext()
        if !closed { close(descriptor) }
        if !placed { unlink(temporary) }
    }

    /// Frees the I/O context and its buffer (the muxer may have replaced the buffer: free the current one).
    private func releaseContext() {
        guard let context = io else { return }
        io = nil
        av_free(context.pointee.buffer)
        context.pointee.buffer = nil
        var doomed: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&doomed)
    }

    /// The write callback: all of `count` bytes at the current position, or a negative AVERROR.
    private func write(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        guard errorCode == 0 else { return -errorCode }
        var done = 0
        while done < count {
            let written = pwrite(descriptor, bytes + done, count - done, off_t(position) + off_t(done))
            if written < 0 {
                if errno == EINTR { continue }
                errorCode = errno
                return -errorCode
            }
            if written == 0 {
                errorCode = ENOSPC
                return -errorCode
            }
            done += written
        }
        position += Int64(count)
        end = max(end, position)
        // Let the kernel write back what is done while the rest is produced: the final fsync waits for little.
        if end - writebackStarted >= 8 << 20 {
            Writeback.start(descriptor: descriptor, offset: writebackStarted, length: end - writebackStarted)
            writebackStarted = end
        }
        return Int32(count)
    }

    /// The seek callback (`AVSEEK_SIZE` asks for the size).
    private func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let base = whence & ~Int32(AVSEEK_FORCE)
        if base == AVSEEK_SIZE { return end }
        let target: Int64
        switch base {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END: target = end + offset
        default: return Int64(-EINVAL)
        }
        guard target >= 0 else { return Int64(-EINVAL) }
        position = target
        return target
    }

    /// Frees the I/O context, then flushes the file to disk and closes it; throws the first write error.
    func finish() throws {
        releaseContext()
        if errorCode != 0 {
            throw MediaError.write(file: destination, cause: "cannot write: \(Self.message(errorCode))")
        }
        if fsync(descriptor) != 0 {
            throw MediaError.write(file: destination, cause: "cannot write: \(Self.message(errno))")
        }
        closed = true
        if close(descriptor) != 0 {
            throw MediaError.write(file: destination, cause: "cannot write: \(Self.message(errno))")
        }
    }

    /// Puts the finished file at `destination` as `placement` says, then flushes the folder.
    func place(_ placement: RemuxPlacement) throws {
        switch placement {
        case .replace:
            break
        case .keepingOriginal(let backup):
            if link(destination, backup) != 0 {
                let code = errno
                if code == EEXIST {
                    throw MediaError.write(
                        file: destination, cause: "backup '\(backup)' already exists; not overwriting it")
                }
                // A file system without hard links: rename, as the brief sequence goes (a short window
                // where only the backup holds the original).
                guard code == EPERM || code == ENOTSUP || code == EXDEV || code == EMLINK,
                    access(backup, F_OK) != 0, rename(destination, backup) == 0
                else {
                    throw MediaError.write(
                        file: destination, cause: "cannot keep the original as '\(backup)': \(Self.message(code))")
                }
            }
        }
        if rename(temporary, destination) != 0 {
            throw MediaError.write(file: destination, cause: "cannot rename into place: \(Self.message(errno))")
        }
        placed = true
        let slash = destination.lastIndex(of: "/")
        let folder = slash.map { String(destination[..<$0]) } ?? "."
        let directory = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    private static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}
