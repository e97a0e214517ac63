internal import CFFmpeg

/// libavcodec's decoder for one bitmap subtitle track (PGS, VobSub, DVB), turning packets into `BitmapEvent`s
/// with both times known. The corresponding C call is `avcodec_decode_subtitle2`.
///
/// An event whose end the packet does not give (PGS shows a picture until the next display set; an empty one
/// clears it) is held until the next packet says when it ends; `finish` closes the last one.
final class BitmapSubtitleDecoder {
    private let decoder: CodecContext
    private let file: String
    /// The event shown now whose end is not known yet.
    private var open: BitmapEvent?
    /// Packets libavcodec refused, with when they were to be shown.
    private(set) var problems: [SubtitleDecodeProblem] = []

    /// How long an event whose end nothing gives stays up (the last event of a PGS track without a clear).
    static let lastEventDuration = 5_000

    /// A decoder for `avStream`, the bitmap track `stream` of `file`.
    init(stream: MediaStream, avStream: UnsafeMutablePointer<AVStream>, file: String) throws {
        self.file = file
        let player = stream.playerIndex ?? 0
        guard let parameters = avStream.pointee.codecpar else {
            throw MediaError.unsupportedCodec(
                file: file, playerIndex: player, codec: stream.codec, reason: "the stream has no codec parameters")
        }
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MediaError.unsupportedCodec(
                file: file, playerIndex: player, codec: stream.codec, reason: "libavcodec has no decoder for it")
        }
        decoder = try CodecContext(codec: codec, file: file) { context in
            let code = avcodec_parameters_to_context(context, parameters)
            if code < 0 { throw MediaError.library("avcodec_parameters_to_context", code, file: file) }
            context.pointee.pkt_timebase = avStream.pointee.time_base
        }
    }

    /// A decoder for raw packets of `codec` in a `width`x`height` frame, with no demuxer (the fuzz target's way in).
    init(codec id: AVCodecID, width: Int, height: Int, file: String) throws {
        self.file = file
        try FFmpegLibraries.load(file: file)
        guard let codec = avcodec_find_decoder(id) else {
            throw MediaError.unsupportedCodec(
                file: file, playerIndex: 0, codec: "\(id)", reason: "libavcodec has no decoder for it")
        }
        decoder = try CodecContext(codec: codec, file: file) { context in
            context.pointee.width = Int32(width)
            context.pointee.height = Int32(height)
            context.pointee.pkt_timebase = AVRational(num: 1, den: 90_000)
        }
    }

    /// Decodes one packet (timestamps already shifted by the input's start time, `time` its PTS in seconds) and
    /// returns the events it completed.
    func decode(_ packet: UnsafeMutablePointer<AVPacket>, time: Double?) -> [BitmapEvent] {
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        let (code, lines) = MediaLog.capture { avcodec_decode_subtitle2(decoder.context, &subtitle, &got, packet) }
        defer { avsubtitle_free(&subtitle) }
        // The PGS decoder reports a bad object or palette in its log and goes on without it: that is damage too.
        let logged = lines.first { $0.level <= AV_LOG_ERROR }?.text
        if code < 0 || logged != nil {
            let reason = logged ?? MediaError.message(for: code)
            problems.append(SubtitleDecodeProblem(time: time, reason: "damaged bitmap packet: " + reason))
            if code < 0 { return [] }
        }
        guard got != 0 else { return [] }
        let none = cffmpeg_nopts_value()
        let base = subtitle.pts != none ? Int(subtitle.pts / 1000) : Int(((time ?? 0) * 1000).rounded())
        let start = base + Int(subtitle.start_display_time)
        var done: [BitmapEvent] = []
        if var previous = open {
            previous.end = max(previous.start, start)
            done.append(previous)
            open = nil
        }
        let bitmaps = BitmapSubtitleDecoder.bitmaps(of: subtitle)
        guard !bitmaps.isEmpty else { return done }
        let ending = subtitle.end_display_time
        var event = BitmapEvent(
            start: start, end: start, bitmaps: bitmaps, frameWidth: Int(decoder.context.pointee.width),
            frameHeight: Int(decoder.context.pointee.height))
        if ending > subtitle.start_display_time && ending != UInt32.max && ending < 24 * 3_600_000 {
            event.end = base + Int(ending)
            done.append(event)
        } else {
            open = event
        }
        return done
    }

    /// The event still shown at the end of the track, given `lastEventDuration`.
    func finish() -> [BitmapEvent] {
        guard var last = open else { return [] }
        open = nil
        last.end = last.start + BitmapSubtitleDecoder.lastEventDuration
        return [last]
    }

    /// The bitmap rectangles of a decoded subtitle, copied into Swift values.
    private static func bitmaps(of subtitle: AVSubtitle) -> [SubtitleBitmap] {
        guard let rects = subtitle.rects else { return [] }
        var bitmaps: [SubtitleBitmap] = []
        for index in 0..<Int(subtitle.num_rects) {
            guard let rect = rects[index]?.pointee, rect.type == SUBTITLE_BITMAP, rect.w > 0, rect.h > 0,
                let pixels = rect.data.0, let paletteBytes = rect.data.1
            else { continue }
            let width = Int(rect.w)
            let height = Int(rect.h)
            let stride = Int(rect.linesize.0)
            guard stride >= width else { continue }
            var indexes = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width { indexes[y * width + x] = pixels[y * stride + x] }
            }
            let colours = max(0, min(256, Int(rect.nb_colors)))
            let palette = UnsafeRawPointer(paletteBytes).withMemoryRebound(to: UInt32.self, capacity: colours) {
                Array(UnsafeBufferPointer(start: $0, count: colours))
            }
            bitmaps.append(
                SubtitleBitmap(
                    x: Int(rect.x), y: Int(rect.y), width: width, height: height, indexes: indexes,
                    palette: palette + [UInt32](repeating: 0, count: 256 - colours)))
        }
        return bitmaps
    }
}
