internal import CFFmpeg
import Glibc

/// The file a `MediaFile` reads when its reads are metered by a `ReadBudget`: an open descriptor read through an
/// `AVIOContext` whose read callback counts each read against the budget (and waits when the run is ahead of
/// its rate), and whose seek callback goes to the descriptor. Owns the descriptor, the context and its buffer
/// (`avio_alloc_context` / `avio_context_free`, `close`); the demuxer using it must be closed first.
final class MediaInput {
    /// The I/O context handed to `avformat_open_input` as the format context's `pb`.
    private(set) var io: UnsafeMutablePointer<AVIOContext>?
    private let descriptor: Int32
    private let budget: ReadBudget
    private let size: Int64

    /// Each read asks for up to this much: small enough that a limited rate is kept smoothly.
    private static let bufferSize: Int32 = 256 * 1024

    /// Opens `path` for reading under `budget`.
    init(path: String, budget: ReadBudget) throws(MediaError) {
        let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            let code = errno
            throw MediaError.library("open", -code, file: path)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw MediaError.library("fstat", -code, file: path)
        }
        self.descriptor = descriptor
        self.budget = budget
        self.size = Int64(status.st_size)
        guard let buffer = av_malloc(Int(Self.bufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            close(descriptor)
            throw MediaError.library("av_malloc", cffmpeg_averror_enomem(), file: path)
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        let context = avio_alloc_context(
            buffer, Self.bufferSize, 0, opaque,
            { opaque, bytes, size in
                guard let opaque, let bytes else { return -EINVAL }
                return Unmanaged<MediaInput>.fromOpaque(opaque).takeUnretainedValue().read(bytes, count: Int(size))
            },
            nil,
            { opaque, offset, whence in
                guard let opaque else { return Int64(-EINVAL) }
                return Unmanaged<MediaInput>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence: whence)
            })
        guard let context else {
            av_free(buffer)
            close(descriptor)
            throw MediaError.library("avio_alloc_context", cffmpeg_averror_enomem(), file: path)
        }
        io = context
    }

    deinit {
        if let context = io { freeIOContext(context) }
        close(descriptor)
    }

    /// The read callback: up to `count` bytes, `AVERROR_EOF` at the end, or a negative AVERROR.
    private func read(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        while true {
            let got = Glibc.read(descriptor, bytes, count)
            if got > 0 {
                budget.spend(got)
                return Int32(got)
            }
            if got == 0 { return cffmpeg_averror_eof() }
            if errno != EINTR { return -errno }
        }
    }

    /// The seek callback (`AVSEEK_SIZE` asks for the size).
    private func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let base = whence & ~Int32(AVSEEK_FORCE)
        if base == AVSEEK_SIZE { return size }
        guard base == SEEK_SET || base == SEEK_CUR || base == SEEK_END else { return Int64(-EINVAL) }
        let position = lseek(descriptor, off_t(offset), base)
        return position < 0 ? Int64(-errno) : Int64(position)
    }
}

/// Frees an I/O context made by `avio_alloc_context` and its buffer: the current one, since the (de)muxer may
/// have replaced the buffer it was given. For `MediaInput` and `MatroskaOutputFile`.
func freeIOContext(_ context: UnsafeMutablePointer<AVIOContext>) {
    av_free(context.pointee.buffer)
    context.pointee.buffer = nil
    var doomed: UnsafeMutablePointer<AVIOContext>? = context
    avio_context_free(&doomed)
}
