internal import CFFmpeg
import Foundation

/// libavformat's `ass` or `srt` muxer writing one subtitle stream into memory. The corresponding C calls are
/// `avformat_alloc_output_context2`, `avio_open_dyn_buf`, `avformat_write_header` and `av_write_trailer`;
/// the context and the buffer are freed in `deinit` if `finish` did not run.
final class SubtitleMuxer {
    private let context: UnsafeMutablePointer<AVFormatContext>
    private var buffer: UnsafeMutablePointer<AVIOContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private let file: String
    /// The time base packets arrive in (the encoder's, `AV_TIME_BASE_Q`).
    private let packetTimeBase: AVRational
    /// The last DTS written, for ffmpeg's non-monotonous DTS correction.
    private var lastDTS: Int64?
    private let strictTimestamps: Bool
    private let hasTimestamps: Bool

    /// A muxer for `formatName` (`ass` or `srt`) whose single stream takes its parameters from `encoder`.
    init(formatName: String, encoder: UnsafeMutablePointer<AVCodecContext>, file: String) throws {
        self.file = file
        try FFmpegLibraries.load(file: file)
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        var code = avformat_alloc_output_context2(&allocated, nil, formatName, nil)
        guard code >= 0, let allocated else {
            throw MediaError.library("avformat_alloc_output_context2", code, file: file)
        }
        guard let newStream = avformat_new_stream(allocated, nil) else {
            avformat_free_context(allocated)
            throw MediaError.library("avformat_new_stream", cffmpeg_averror_enomem(), file: file)
        }
        // From here on `deinit` frees the context (and the buffer once opened).
        context = allocated
        stream = newStream
        packetTimeBase = encoder.pointee.time_base
        strictTimestamps = allocated.pointee.oformat.pointee.flags & AVFMT_TS_NONSTRICT == 0
        hasTimestamps = allocated.pointee.oformat.pointee.flags & AVFMT_NOTIMESTAMPS == 0
        code = avcodec_parameters_from_context(newStream.pointee.codecpar, encoder)
        if code < 0 { throw MediaError.library("avcodec_parameters_from_context", code, file: file) }
        newStream.pointee.time_base = encoder.pointee.time_base
        var pb: UnsafeMutablePointer<AVIOContext>?
        code = avio_open_dyn_buf(&pb)
        guard code >= 0, let pb else { throw MediaError.library("avio_open_dyn_buf", code, file: file) }
        allocated.pointee.pb = pb
        buffer = pb
        code = avformat_write_header(allocated, nil)
        if code < 0 { throw MediaError.library("avformat_write_header", code, file: file) }
    }

    deinit {
        discardBuffer()
        avformat_free_context(context)
    }

    /// Writes one encoded packet (timestamps in the encoder's time base), as ffmpeg's `of_write_packet` does:
    /// rescale to the stream's time base, keep DTS monotonous (subtitle
    /// packets have DTS = PTS, so ffmpeg's DTS > PTS repair never applies), then `av_interleaved_write_frame`.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        av_packet_rescale_ts(packet, packetTimeBase, stream.pointee.time_base)
        let none = cffmpeg_nopts_value()
        if hasTimestamps {
            if packet.pointee.dts != none, let lastDTS {
                let floor = lastDTS + (strictTimestamps ? 1 : 0)
                if packet.pointee.dts < floor {
                    if packet.pointee.pts >= packet.pointee.dts { packet.pointee.pts = max(packet.pointee.pts, floor) }
                    packet.pointee.dts = floor
                }
            }
        }
        lastDTS = packet.pointee.dts
        packet.pointee.stream_index = 0
        let code = av_interleaved_write_frame(context, packet)
        if code < 0 { throw MediaError.library("av_interleaved_write_frame", code, file: file) }
    }

    /// Writes the trailer (the ASS muxer flushes its buffered dialogue here) and returns the bytes.
    func finish() throws -> Data {
        let code = av_write_trailer(context)
        if code < 0 { throw MediaError.library("av_write_trailer", code, file: file) }
        guard let buffer else { return Data() }
        self.buffer = nil
        context.pointee.pb = nil
        var bytes: UnsafeMutablePointer<UInt8>?
        let size = avio_close_dyn_buf(buffer, &bytes)
        defer { av_free(bytes) }
        guard let bytes, size > 0 else { return Data() }
        return Data(bytes: bytes, count: Int(size))
    }

    private func discardBuffer() {
        guard let buffer else { return }
        self.buffer = nil
        context.pointee.pb = nil
        var bytes: UnsafeMutablePointer<UInt8>?
        _ = avio_close_dyn_buf(buffer, &bytes)
        av_free(bytes)
    }
}
