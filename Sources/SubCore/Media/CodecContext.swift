internal import CFFmpeg

/// An opened libavcodec decoder or encoder. The corresponding C calls are `avcodec_alloc_context3` and
/// `avcodec_open2`; `avcodec_free_context` runs in `deinit`.
final class CodecContext {
    let context: UnsafeMutablePointer<AVCodecContext>

    /// Allocates a context for `codec`; `configure` sets its fields before `avcodec_open2` runs.
    init(
        codec: UnsafePointer<AVCodec>, file: String,
        configure: (UnsafeMutablePointer<AVCodecContext>) throws -> Void
    ) throws {
        try FFmpegLibraries.load(file: file)
        guard let allocated = avcodec_alloc_context3(codec) else {
            throw MediaError.library("avcodec_alloc_context3", cffmpeg_averror_enomem(), file: file)
        }
        context = allocated
        try configure(allocated)
        let code = avcodec_open2(allocated, codec, nil)
        if code < 0 { throw MediaError.library("avcodec_open2", code, file: file) }
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&doomed)
    }
}
