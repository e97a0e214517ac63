internal import CFFmpeg

/// A libswscale scaler and pixel-format converter. The corresponding C calls are `sws_getContext` and
/// `sws_freeContext`.
final class Scaler {
    let context: OpaquePointer

    /// A bilinear scaler from `sourceWidth`x`sourceHeight` in `sourceFormat` to `width`x`height` in `format`.
    init(
        sourceWidth: Int32, sourceHeight: Int32, sourceFormat: AVPixelFormat, width: Int32, height: Int32,
        format: AVPixelFormat, file: String
    ) throws {
        try FFmpegLibraries.load(file: file)
        guard
            let made = sws_getContext(
                sourceWidth, sourceHeight, sourceFormat, width, height, format, SWS_BILINEAR, nil, nil, nil)
        else { throw MediaError.library("sws_getContext", cffmpeg_averror_invaliddata(), file: file) }
        context = made
    }

    deinit { sws_freeContext(context) }
}
