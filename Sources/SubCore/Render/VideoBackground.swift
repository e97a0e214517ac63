internal import CFFmpeg

/// Decodes a media file's video at given times and draws it, scaled to the canvas, as a frame's background.
/// The corresponding C calls are `av_seek_frame`, `avcodec_send_packet` / `avcodec_receive_frame` and
/// `sws_scale`.
public final class VideoBackground {
    private let format: FFmpegFormatContext
    private let stream: UnsafeMutablePointer<AVStream>
    private let decoder: FFmpegCodecContext
    private let packet: FFmpegPacket
    private let frame: FFmpegFrame
    /// The latest decoded frame at or before the target time.
    private let kept: FFmpegFrame
    private var scaler: FFmpegScaler?
    private var rgba: [UInt8] = []

    /// Opens the first video stream of the media at `path`.
    public init(path: String) throws(RenderError) {
        format = try FFmpegFormatContext(path: path)
        guard let video = format.streams.first(where: { $0.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_VIDEO })
        else {
            throw .noVideo(file: path)
        }
        stream = video
        decoder = try format.openDecoder(for: video)
        packet = try FFmpegPacket()
        frame = try FFmpegFrame()
        kept = try FFmpegFrame()
    }

    /// Draws the video frame shown at `time` (milliseconds; the last frame at or before it) over `canvas`.
    public func draw(at time: Int, into canvas: inout Canvas) throws(RenderError) {
        let timeBase = stream.pointee.time_base
        let target = av_rescale_q(Int64(time), AVRational(num: 1, den: 1000), timeBase)
        var code = av_seek_frame(format.handle, stream.pointee.index, target, AVSEEK_FLAG_BACKWARD)
        guard code >= 0 else { throw ffmpegError("av_seek_frame", code, file: format.path) }
        avcodec_flush_buffers(decoder.handle)
        var haveFrame = false
        reading: while true {
            code = av_read_frame(format.handle, packet.handle)
            if code < 0 {
                // End of file: drain the decoder; the last frame is the one shown.
                avcodec_send_packet(decoder.handle, nil)
            } else if packet.handle.pointee.stream_index != stream.pointee.index {
                av_packet_unref(packet.handle)
                continue
            } else {
                avcodec_send_packet(decoder.handle, packet.handle)
                av_packet_unref(packet.handle)
            }
            while avcodec_receive_frame(decoder.handle, frame.handle) >= 0 {
                let pts = frame.handle.pointee.best_effort_timestamp
                if haveFrame && pts != cffmpeg_nopts_value() && pts > target { break reading }
                av_frame_unref(kept.handle)
                av_frame_move_ref(kept.handle, frame.handle)
                haveFrame = true
                if pts != cffmpeg_nopts_value() && pts >= target { break reading }
            }
            if code < 0 { break }
        }
        guard haveFrame else {
            throw .unreadable(file: format.path, cause: "no video frame at \(RenderTime.format(time))")
        }
        try convert(kept, into: &canvas)
        rgba.withUnsafeBytes { canvas.draw(rgba: $0, stride: canvas.width * 4) }
    }

    /// Scales the decoded frame to the canvas size as RGBA into `rgba`.
    private func convert(_ frame: FFmpegFrame, into canvas: inout Canvas) throws(RenderError) {
        let width = canvas.width
        let height = canvas.height
        if scaler == nil || rgba.count != width * height * 4 {
            scaler = try FFmpegScaler(
                sourceWidth: frame.handle.pointee.width, sourceHeight: frame.handle.pointee.height,
                sourceFormat: AVPixelFormat(frame.handle.pointee.format), width: Int32(width), height: Int32(height),
                format: AV_PIX_FMT_RGBA)
            rgba = [UInt8](repeating: 0, count: width * height * 4)
        }
        guard let scaler else { return }
        rgba.withUnsafeMutableBufferPointer { buffer in
            var targets: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(width * 4), 0, 0, 0]
            _ = withUnsafePointer(to: &frame.handle.pointee.data) { data in
                withUnsafePointer(to: &frame.handle.pointee.linesize) { linesize in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                        linesize.withMemoryRebound(to: Int32.self, capacity: 8) { sizes in
                            sws_scale(scaler.handle, planes, sizes, 0, frame.handle.pointee.height, &targets, &strides)
                        }
                    }
                }
            }
        }
    }
}
