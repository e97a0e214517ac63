internal import CFFmpeg

/// An FFmpeg error for `function`, with FFmpeg's own text for `code`.
func ffmpegError(_ function: String, _ code: Int32, file: String? = nil) -> RenderError {
    var buffer = [CChar](repeating: 0, count: 256)
    cffmpeg_strerror(code, &buffer, buffer.count)
    let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return .ffmpeg(function: function, code: code, message: message, file: file)
}

/// An opened codec context. The corresponding C calls are `avcodec_alloc_context3`, `avcodec_open2` (by the
/// caller) and `avcodec_free_context`.
final class FFmpegCodecContext {
    let handle: UnsafeMutablePointer<AVCodecContext>

    init(codec: UnsafePointer<AVCodec>) throws(RenderError) {
        guard let context = avcodec_alloc_context3(codec) else {
            throw ffmpegError("avcodec_alloc_context3", cffmpeg_averror_enomem())
        }
        handle = context
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = handle
        avcodec_free_context(&context)
    }
}

/// A frame. The corresponding C calls are `av_frame_alloc` and `av_frame_free`.
final class FFmpegFrame {
    let handle: UnsafeMutablePointer<AVFrame>

    init() throws(RenderError) {
        guard let frame = av_frame_alloc() else { throw ffmpegError("av_frame_alloc", cffmpeg_averror_enomem()) }
        handle = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = handle
        av_frame_free(&frame)
    }
}

/// A packet. The corresponding C calls are `av_packet_alloc` and `av_packet_free`.
final class FFmpegPacket {
    let handle: UnsafeMutablePointer<AVPacket>

    init() throws(RenderError) {
        guard let packet = av_packet_alloc() else { throw ffmpegError("av_packet_alloc", cffmpeg_averror_enomem()) }
        handle = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = handle
        av_packet_free(&packet)
    }
}

/// A scaler/converter. The corresponding C calls are `sws_getContext` and `sws_freeContext`.
final class FFmpegScaler {
    let handle: OpaquePointer

    init(
        sourceWidth: Int32, sourceHeight: Int32, sourceFormat: AVPixelFormat, width: Int32, height: Int32,
        format: AVPixelFormat
    ) throws(RenderError) {
        guard
            let context = sws_getContext(
                sourceWidth, sourceHeight, sourceFormat, width, height, format, SWS_BILINEAR, nil, nil, nil)
        else { throw ffmpegError("sws_getContext", cffmpeg_averror_invaliddata()) }
        handle = context
    }

    deinit { sws_freeContext(handle) }
}

/// An opened media file. The corresponding C calls are `avformat_open_input`, `avformat_find_stream_info` and
/// `avformat_close_input`.
final class FFmpegFormatContext {
    let handle: UnsafeMutablePointer<AVFormatContext>
    let path: String

    /// libavformat's own warnings (probe scores, stream info) would go straight to stderr; failures come back
    /// as typed errors instead, so only errors are let through.
    private static let quiet: Void = { if av_log_get_level() > AV_LOG_ERROR { av_log_set_level(AV_LOG_ERROR) } }()

    init(path: String) throws(RenderError) {
        FFmpegFormatContext.quiet
        var context: UnsafeMutablePointer<AVFormatContext>?
        var code = avformat_open_input(&context, path, nil, nil)
        guard code >= 0, let context else { throw ffmpegError("avformat_open_input", code, file: path) }
        handle = context
        self.path = path
        code = avformat_find_stream_info(context, nil)
        guard code >= 0 else { throw ffmpegError("avformat_find_stream_info", code, file: path) }
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = handle
        avformat_close_input(&context)
    }

    /// The streams, in file order.
    var streams: [UnsafeMutablePointer<AVStream>] {
        (0..<Int(handle.pointee.nb_streams)).compactMap { handle.pointee.streams[$0] }
    }

    /// A decoder opened for `stream`.
    func openDecoder(for stream: UnsafeMutablePointer<AVStream>) throws(RenderError) -> FFmpegCodecContext {
        guard let parameters = stream.pointee.codecpar, let codec = avcodec_find_decoder(parameters.pointee.codec_id)
        else {
            throw ffmpegError("avcodec_find_decoder", cffmpeg_averror_invaliddata(), file: path)
        }
        let context = try FFmpegCodecContext(codec: codec)
        var code = avcodec_parameters_to_context(context.handle, parameters)
        guard code >= 0 else { throw ffmpegError("avcodec_parameters_to_context", code, file: path) }
        context.handle.pointee.pkt_timebase = stream.pointee.time_base
        code = avcodec_open2(context.handle, codec, nil)
        guard code >= 0 else { throw ffmpegError("avcodec_open2", code, file: path) }
        return context
    }
}
