internal import CFFmpeg
import Foundation

/// The file a Matroska remux writes: an `AtomicFile` next to the destination, written through an `AVIOContext`
/// whose write and seek callbacks go straight to its descriptor (the muxer seeks back to fill in sizes, cues and
/// the duration), and put in place by `AtomicFile.commit` once the muxer is done. A failed or interrupted remux
/// leaves nothing behind but, after a `kill -9`, the hidden temporary file. The corresponding C calls are
/// `avio_alloc_context` / `avio_context_free`.
final class MatroskaOutputFile {
    /// The path the file is for.
    var destination: String { file.destination }
    private let file: AtomicFile
    /// The first errno a write met (ENOSPC for a full disk), 0 while all is well.
    var errorCode: Int32 { file.errorCode }
    private var position: Int64 = 0
    /// The size of the file written so far.
    var size: Int64 { file.size }
    /// The I/O context the muxer writes through; owned here.
    private(set) var io: UnsafeMutablePointer<AVIOContext>?

    /// The muxer's buffer size: each full buffer is one `pwrite`.
    private static let bufferSize: Int32 = 1 << 20

    /// Creates the temporary file next to `destination` with permissions `mode`.
    init(destination: String, mode: UInt32) throws {
        do {
            file = try AtomicFile(destination: destination, mode: mode)
        } catch {
            throw MediaError.write(file: destination, cause: error.cause)
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
    }

    /// Frees the I/O context and its buffer (the muxer may have replaced the buffer: free the current one).
    private func releaseContext() {
        guard let context = io else { return }
        io = nil
        freeIOContext(context)
    }

    /// The write callback: all of `count` bytes at the current position, or a negative AVERROR.
    private func write(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        let code = file.write(UnsafeRawBufferPointer(start: bytes, count: count), at: position)
        if code != 0 { return -code }
        position += Int64(count)
        return Int32(count)
    }

    /// The seek callback (`AVSEEK_SIZE` asks for the size).
    private func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let base = whence & ~Int32(AVSEEK_FORCE)
        if base == AVSEEK_SIZE { return size }
        let target: Int64
        switch base {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END: target = size + offset
        default: return Int64(-EINVAL)
        }
        guard target >= 0 else { return Int64(-EINVAL) }
        position = target
        return target
    }

    /// Frees the I/O context once the muxer is done with it; throws the first write error.
    func finish() throws {
        releaseContext()
        if errorCode != 0 {
            throw MediaError.write(file: destination, cause: "cannot write: \(String(cString: strerror(errorCode)))")
        }
    }

    /// Flushes the finished file to disk and puts it at `destination` as `placement` says.
    func place(_ placement: Placement) throws {
        do {
            try file.commit(placement)
        } catch {
            throw MediaError.write(file: destination, cause: error.cause)
        }
    }
}
