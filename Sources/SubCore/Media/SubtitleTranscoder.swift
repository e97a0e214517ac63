internal import CFFmpeg
import Foundation

/// One track's path through libavcodec and libavformat, set up the way the ffmpeg 5.1 CLI sets up
/// `ffmpeg -i IN -map 0:s:N OUT.ass|OUT.srt`: the track's decoder, the output format's default subtitle encoder
/// (`ssa` for ASS, `srt` for SubRip) opened with the decoder's `subtitle_header` and `AV_TIME_BASE_Q`, and the
/// `ass` or `srt` muxer writing into memory. `encode` mirrors ffmpeg's `do_subtitle_out`.
final class SubtitleTranscoder {
    let stream: MediaStream
    let format: ExtractionFormat
    private let decoder: CodecContext
    private let encoder: CodecContext
    private let muxer: SubtitleMuxer
    private let packet: Packet
    private let file: String
    /// ffmpeg's `subtitle_out_max_size`.
    static let maximumEncodedSize = 1024 * 1024

    /// Opens the decoder for `avStream` (the stream described by `stream`) and an encoder and muxer for `format`.
    init(
        stream: MediaStream, avStream: UnsafeMutablePointer<AVStream>, format: ExtractionFormat, file: String
    ) throws {
        self.stream = stream
        self.format = format
        self.file = file
        try FFmpegLibraries.load(file: file)
        let player = stream.playerIndex ?? 0
        guard let parameters = avStream.pointee.codecpar else {
            throw MediaError.unsupportedCodec(
                file: file, playerIndex: player, codec: stream.codec, reason: "the stream has no codec parameters")
        }
        guard let decoderCodec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MediaError.unsupportedCodec(
                file: file, playerIndex: player, codec: stream.codec, reason: "libavcodec has no decoder for it")
        }
        let decoder = try CodecContext(codec: decoderCodec, file: file) { context in
            let code = avcodec_parameters_to_context(context, parameters)
            if code < 0 { throw MediaError.library("avcodec_parameters_to_context", code, file: file) }
            context.pointee.pkt_timebase = avStream.pointee.time_base
        }
        let encoderID = format == .ass ? AV_CODEC_ID_ASS : AV_CODEC_ID_SUBRIP
        guard let encoderCodec = avcodec_find_encoder(encoderID) else {
            throw MediaError.unsupportedCodec(
                file: file, playerIndex: player, codec: stream.codec,
                reason: "libavcodec has no \(format.rawValue) encoder")
        }
        let encoder = try CodecContext(codec: encoderCodec, file: file) { context in
            let source = decoder.context.pointee
            if let header = source.subtitle_header, source.subtitle_header_size > 0 {
                let size = Int(source.subtitle_header_size)
                guard let copy = av_mallocz(size + 1)?.assumingMemoryBound(to: UInt8.self) else {
                    throw MediaError.library("av_mallocz", cffmpeg_averror_enomem(), file: file)
                }
                copy.update(from: header, count: size)
                context.pointee.subtitle_header = copy
                context.pointee.subtitle_header_size = source.subtitle_header_size
            }
            context.pointee.time_base = cffmpeg_time_base_q()
            context.pointee.width = source.width
            context.pointee.height = source.height
        }
        self.decoder = decoder
        self.encoder = encoder
        self.muxer = try SubtitleMuxer(formatName: format.muxerName, encoder: encoder.context, file: file)
        self.packet = try Packet(file: file)
    }

    /// Packets libavcodec refused (ffmpeg reports them and goes on; so does this).
    private(set) var problems: [SubtitleDecodeProblem] = []

    /// Decodes one demuxed packet (timestamps already shifted by the input's start time) and writes whatever
    /// subtitle it yields. A packet the decoder refuses is recorded in `problems` and skipped, as ffmpeg does.
    func decode(_ input: UnsafeMutablePointer<AVPacket>, time: Double?, buffer: UnsafeMutablePointer<UInt8>) throws {
        var subtitle = AVSubtitle()
        var gotSubtitle: Int32 = 0
        let (code, lines) = MediaLog.capture {
            avcodec_decode_subtitle2(decoder.context, &subtitle, &gotSubtitle, input)
        }
        defer { avsubtitle_free(&subtitle) }
        if code < 0 {
            let logged = lines.first { $0.level <= AV_LOG_ERROR }?.text
            let reason =
                logged?.hasPrefix("Invalid UTF-8") == true
                ? "its text is not valid UTF-8" : logged ?? MediaError.message(for: code)
            problems.append(SubtitleDecodeProblem(time: time, reason: reason))
            return
        }
        guard gotSubtitle != 0, subtitle.num_rects > 0 else { return }
        try encode(&subtitle, buffer: buffer)
    }

    /// ffmpeg 5.1's `do_subtitle_out` for text codecs: make the display start 0 by moving it into `pts`,
    /// encode, and hand the packet (PTS = DTS, duration from the display end) to the muxer.
    private func encode(_ subtitle: inout AVSubtitle, buffer: UnsafeMutablePointer<UInt8>) throws {
        guard subtitle.pts != cffmpeg_nopts_value() else {
            throw MediaError.unsupportedCodec(
                file: file, playerIndex: stream.playerIndex ?? 0, codec: stream.codec,
                reason: "a subtitle packet has no timestamp")
        }
        let milliseconds = AVRational(num: 1, den: 1000)
        let microseconds = cffmpeg_time_base_q()
        subtitle.pts += av_rescale_q(Int64(subtitle.start_display_time), milliseconds, microseconds)
        subtitle.end_display_time &-= subtitle.start_display_time
        subtitle.start_display_time = 0
        let size = avcodec_encode_subtitle(
            encoder.context, buffer, Int32(SubtitleTranscoder.maximumEncodedSize), &subtitle)
        if size < 0 { throw MediaError.library("avcodec_encode_subtitle", size, file: file) }
        let muxTimeBase = encoder.context.pointee.time_base
        let output = packet.packet
        av_packet_unref(output)
        output.pointee.data = buffer
        output.pointee.size = size
        output.pointee.pts = av_rescale_q(subtitle.pts, microseconds, muxTimeBase)
        output.pointee.duration = av_rescale_q(Int64(subtitle.end_display_time), milliseconds, muxTimeBase)
        output.pointee.dts = output.pointee.pts
        defer {
            output.pointee.data = nil
            output.pointee.size = 0
        }
        try muxer.write(output)
    }

    /// Flushes the muxer and returns the finished file's bytes.
    func finish() throws -> Data {
        try muxer.finish()
    }
}
