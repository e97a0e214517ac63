internal import CFFmpeg

/// Decodes a media file's video at given times and draws it, scaled to the canvas, as a frame's background.
/// The corresponding C calls are `av_seek_frame`, `avcodec_send_packet` / `avcodec_receive_frame` and
/// `sws_scale`.
/// Built on Media's owners: the file is a `MediaFile`, the decoder a `CodecContext`, plus `Packet`, `Frame` and
/// `Scaler`.
public final class VideoBackground {
    private let media: MediaFile
    private let stream: UnsafeMutablePointer<AVStream>
    private let decoder: CodecContext
    private let packet: Packet
    private let frame: Frame
    /// The latest decoded frame at or before the target time.
    private let kept: Frame
    private var scaler: Scaler?
    private var rgba: [UInt8] = []

    /// Opens the first video stream of the media at `path`.
    public init(path: String) throws(RenderError) {
        (media, stream, decoder, packet, frame, kept) = try RenderError.media(file: path) {
            let media = try MediaFile(path: path)
            guard let video = media.streams.first(where: { $0.kind == .video }),
                let stream = media.avStream(video.index),
                let parameters = stream.pointee.codecpar
            else { throw RenderError.noVideo(file: path) }
            guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
                throw MediaError.library("avcodec_find_decoder", cffmpeg_averror_invaliddata(), file: path)
            }
            let decoder = try CodecContext(codec: codec, file: path) { context in
                let code = avcodec_parameters_to_context(context, parameters)
                if code < 0 { throw MediaError.library("avcodec_parameters_to_context", code, file: path) }
                context.pointee.pkt_timebase = stream.pointee.time_base
            }
            return (media, stream, decoder, try Packet(file: path), try Frame(file: path), try Frame(file: path))
        }
    }

    /// Draws the video frame shown at `time` (milliseconds; the last frame at or before it) over `canvas`.
    public func draw(at time: Int, into canvas: inout Canvas) throws(RenderError) {
        let timeBase = stream.pointee.time_base
        let target = av_rescale_q(Int64(time), AVRational(num: 1, den: 1000), timeBase)
        var code = av_seek_frame(media.context, stream.pointee.index, target, AVSEEK_FLAG_BACKWARD)
        guard code >= 0 else { throw RenderError.ffmpeg("av_seek_frame", code, file: media.path) }
        avcodec_flush_buffers(decoder.context)
        var haveFrame = false
        reading: while true {
            code = av_read_frame(media.context, packet.packet)
            if code < 0 {
                // End of file: drain the decoder; the last frame is the one shown.
                avcodec_send_packet(decoder.context, nil)
            } else if packet.packet.pointee.stream_index != stream.pointee.index {
                av_packet_unref(packet.packet)
                continue
            } else {
                avcodec_send_packet(decoder.context, packet.packet)
                av_packet_unref(packet.packet)
            }
            while avcodec_receive_frame(decoder.context, frame.frame) >= 0 {
                let pts = frame.frame.pointee.best_effort_timestamp
                if haveFrame && pts != cffmpeg_nopts_value() && pts > target { break reading }
                av_frame_unref(kept.frame)
                av_frame_move_ref(kept.frame, frame.frame)
                haveFrame = true
                if pts != cffmpeg_nopts_value() && pts >= target { break reading }
            }
            if code < 0 { break }
        }
        guard haveFrame else {
            throw .unreadable(file: media.path, cause: "no video frame at \(RenderTime.format(time))")
        }
        try convert(kept, into: &canvas)
        rgba.withUnsafeBytes { canvas.draw(rgba: $0, stride: canvas.width * 4) }
    }

    /// Scales the decoded frame to the canvas size as RGBA into `rgba`.
    private func convert(_ frame: Frame, into canvas: inout Canvas) throws(RenderError) {
        let width = canvas.width
        let height = canvas.height
        if scaler == nil || rgba.count != width * height * 4 {
            scaler = try RenderError.media(file: media.path) {
                try Scaler(
                    sourceWidth: frame.frame.pointee.width, sourceHeight: frame.frame.pointee.height,
                    sourceFormat: AVPixelFormat(frame.frame.pointee.format), width: Int32(width),
                    height: Int32(height), format: AV_PIX_FMT_RGBA, file: media.path)
            }
            rgba = [UInt8](repeating: 0, count: width * height * 4)
        }
        guard let scaler else { return }
        rgba.withUnsafeMutableBufferPointer { buffer in
            var targets: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(width * 4), 0, 0, 0]
            _ = withUnsafePointer(to: &frame.frame.pointee.data) { data in
                withUnsafePointer(to: &frame.frame.pointee.linesize) { linesize in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                        linesize.withMemoryRebound(to: Int32.self, capacity: 8) { sizes in
                            sws_scale(scaler.context, planes, sizes, 0, frame.frame.pointee.height, &targets, &strides)
                        }
                    }
                }
            }
        }
    }
}
