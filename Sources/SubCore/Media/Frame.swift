internal import CFFmpeg

/// One `AVFrame` (decoded video, or pixels for an encoder). The corresponding C calls are `av_frame_alloc` and
/// `av_frame_free`.
final class Frame {
    let frame: UnsafeMutablePointer<AVFrame>

    init(file: String) throws {
        try FFmpegLibraries.load(file: file)
        guard let allocated = av_frame_alloc() else {
            throw MediaError.library("av_frame_alloc", cffmpeg_averror_enomem(), file: file)
        }
        frame = allocated
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&doomed)
    }
}
