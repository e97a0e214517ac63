internal import CFFmpeg
import Foundation

/// Bitmap subtitle tracks made from known text, for the OCR tests and `make bench`: libass renders each line
/// (white text, black outline, a Noto CJK face through fontconfig), the picture is cut to its text and reduced to a
/// DVD's four colours, and libavcodec's `dvdsub` encoder with libavformat's Matroska muxer makes a VobSub track of
/// it. `BitmapSubtitleSample+PGS` writes the same pictures as a PGS `.sup` stream.
package enum BitmapSubtitleSample {
    /// One line of known text and when it shows.
    package struct Line: Sendable, Equatable {
        package var text: String
        /// Milliseconds.
        package var start: Int
        package var end: Int
        /// Drawn at the top of the frame (`\an8`) rather than the bottom.
        package var top: Bool

        package init(text: String, start: Int, end: Int, top: Bool = false) {
            self.text = text
            self.start = start
            self.end = end
            self.top = top
        }
    }

    /// Renders `lines` at `width`x`height` in `fontFamily` and returns one event per line, its picture in four
    /// colours: 0 transparent, 1 white (fill), 2 black (outline), 3 grey (the edge between them).
    package static func events(
        _ lines: [Line], width: Int, height: Int, fontFamily: String
    ) throws -> [BitmapEvent] {
        let size = height * 6 / 100
        let outline = max(2, height / 270)
        var script = """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: \(width)
            PlayResY: \(height)
            WrapStyle: 0
            ScaledBorderAndShadow: yes

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, \
            Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, \
            MarginL, MarginR, MarginV, Encoding
            Style: Default,\(fontFamily),\(size),&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,\
            \(outline),0,2,20,20,\(height / 20),1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

            """
        for line in lines {
            let text = (line.top ? "{\\an8}" : "") + line.text.replacingOccurrences(of: "\n", with: "\\N")
            script += "Dialogue: 0,\(RecognizedTrack.assTime(line.start)),\(RecognizedTrack.assTime(line.end)),"
            script += "Default,,0,0,0,,\(text)\n"
        }
        let renderer = try SubtitleRenderer(
            input: SubtitleInput(name: "sample.ass", assText: script), setup: FontSetup(), width: width,
            height: height)
        var events: [BitmapEvent] = []
        for line in lines {
            var canvas = try Canvas(width: width, height: height)
            renderer.render(at: (line.start + line.end) / 2, into: &canvas, background: .transparent)
            guard let bitmap = fourColours(canvas) else { continue }
            events.append(
                BitmapEvent(start: line.start, end: line.end, bitmaps: [bitmap], frameWidth: width, frameHeight: height)
            )
        }
        return events
    }

    /// The DVD palette the pictures use, as `0xAARRGGBB`.
    static let palette: [UInt32] = [0x0000_0000, 0xFFFF_FFFF, 0xFF00_0000, 0xFF80_8080]

    /// The drawn part of `canvas` in the four colours of `palette`; nil for an empty canvas.
    static func fourColours(_ canvas: Canvas) -> SubtitleBitmap? {
        var left = canvas.width
        var right = -1
        var top = canvas.height
        var bottom = -1
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where canvas.pixels[(y * canvas.width + x) * 4 + 3] >= 96 {
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                bottom = max(bottom, y)
            }
        }
        guard right >= left else { return nil }
        // A DVD picture starts on an even line and has an even height (its two fields are stored apart).
        top -= top % 2
        bottom = min(canvas.height - 1, bottom + (bottom - top + 1) % 2)
        let width = right - left + 1
        let height = bottom - top + 1
        var indexes = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let offset = ((y + top) * canvas.width + x + left) * 4
                let alpha = Int(canvas.pixels[offset + 3])
                guard alpha >= 96 else { continue }
                // Premultiplied: the straight luminance is the premultiplied one over alpha.
                let luma = Int(canvas.pixels[offset]) * 255 / max(1, alpha)
                indexes[y * width + x] = luma >= 170 ? 1 : luma < 85 ? 2 : 3
            }
        }
        return SubtitleBitmap(x: left, y: top, width: width, height: height, indexes: indexes, palette: palette)
    }

    /// `events` as a Matroska file holding one VobSub track tagged `language`, encoded by libavcodec's `dvdsub`
    /// encoder (which maps the pictures' colours onto the DVD palette it writes into the track's header).
    package static func vobSubMatroska(
        _ events: [BitmapEvent], width: Int, height: Int, language: String?, title: String? = nil
    ) throws -> Data {
        try matroska(
            events, codec: AV_CODEC_ID_DVD_SUBTITLE, width: width, height: height, language: language, title: title)
    }

    /// `events` as a Matroska file holding one DVB subtitle track, encoded by libavcodec's `dvbsub` encoder.
    package static func dvbMatroska(_ events: [BitmapEvent], width: Int, height: Int, language: String?) throws -> Data
    {
        try matroska(
            events, codec: AV_CODEC_ID_DVB_SUBTITLE, width: width, height: height, language: language, title: nil)
    }

    private static func matroska(
        _ events: [BitmapEvent], codec id: AVCodecID, width: Int, height: Int, language: String?, title: String?
    ) throws -> Data {
        let file = "sample.mkv"
        try FFmpegLibraries.load(file: file)
        guard let codec = avcodec_find_encoder(id) else {
            throw MediaError.unsupportedCodec(
                file: file, playerIndex: 1, codec: "\(id)", reason: "libavcodec has no encoder for it")
        }
        let encoder = try CodecContext(codec: codec, file: file) { context in
            context.pointee.width = Int32(width)
            context.pointee.height = Int32(height)
            context.pointee.time_base = cffmpeg_time_base_q()
        }
        let muxer = try SampleMuxer(encoder: encoder.context, language: language, title: title, file: file)
        let bufferSize = 1 << 20
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bufferSize)
        defer { buffer.deallocate() }
        for event in events {
            let size = try encode(event, encoder: encoder.context, into: buffer, capacity: bufferSize, file: file)
            try muxer.write(
                buffer, size: size, start: Int64(event.start), duration: Int64(event.end - event.start))
        }
        return try muxer.finish()
    }

    /// One event through `avcodec_encode_subtitle`; returns the packet's size in `buffer`.
    private static func encode(
        _ event: BitmapEvent, encoder: UnsafeMutablePointer<AVCodecContext>, into buffer: UnsafeMutablePointer<UInt8>,
        capacity: Int, file: String
    ) throws -> Int {
        var rects: [UnsafeMutablePointer<AVSubtitleRect>?] = []
        var storage: [UnsafeMutableRawPointer] = []
        defer {
            storage.forEach { $0.deallocate() }
            rects.forEach { $0?.deallocate() }
        }
        for bitmap in event.bitmaps {
            let pixels = UnsafeMutableRawPointer.allocate(byteCount: max(1, bitmap.indexes.count), alignment: 16)
            pixels.copyMemory(from: bitmap.indexes, byteCount: bitmap.indexes.count)
            let palette = UnsafeMutableRawPointer.allocate(byteCount: 256 * 4, alignment: 16)
            palette.initializeMemory(as: UInt32.self, repeating: 0, count: 256)
            palette.copyMemory(from: bitmap.palette, byteCount: min(256, bitmap.palette.count) * 4)
            storage += [pixels, palette]
            let rect = UnsafeMutablePointer<AVSubtitleRect>.allocate(capacity: 1)
            rect.initialize(to: AVSubtitleRect())
            rect.pointee.x = Int32(bitmap.x)
            rect.pointee.y = Int32(bitmap.y)
            rect.pointee.w = Int32(bitmap.width)
            rect.pointee.h = Int32(bitmap.height)
            rect.pointee.nb_colors = Int32(min(256, bitmap.palette.count))
            rect.pointee.type = SUBTITLE_BITMAP
            rect.pointee.data.0 = pixels.assumingMemoryBound(to: UInt8.self)
            rect.pointee.data.1 = palette.assumingMemoryBound(to: UInt8.self)
            rect.pointee.linesize.0 = Int32(bitmap.width)
            rects.append(rect)
        }
        var subtitle = AVSubtitle()
        subtitle.format = 0
        subtitle.start_display_time = 0
        subtitle.end_display_time = UInt32(max(0, event.end - event.start))
        subtitle.pts = Int64(event.start) * 1000
        subtitle.num_rects = UInt32(rects.count)
        let size = rects.withUnsafeMutableBufferPointer { pointers in
            subtitle.rects = pointers.baseAddress
            return avcodec_encode_subtitle(encoder, buffer, Int32(capacity), &subtitle)
        }
        if size < 0 { throw MediaError.library("avcodec_encode_subtitle", size, file: file) }
        return Int(size)
    }
}

/// libavformat's Matroska muxer writing one subtitle stream (parameters from an encoder, a language tag) into
/// memory (with a language and title tag); the context and buffer are freed in `deinit`.
final class SampleMuxer {
    private let context: UnsafeMutablePointer<AVFormatContext>
    private var buffer: UnsafeMutablePointer<AVIOContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private let packet: Packet
    private let file: String

    init(encoder: UnsafeMutablePointer<AVCodecContext>, language: String?, title: String?, file: String) throws {
        self.file = file
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        var code = avformat_alloc_output_context2(&allocated, nil, "matroska", nil)
        guard code >= 0, let allocated else {
            throw MediaError.library("avformat_alloc_output_context2", code, file: file)
        }
        guard let newStream = avformat_new_stream(allocated, nil) else {
            avformat_free_context(allocated)
            throw MediaError.library("avformat_new_stream", cffmpeg_averror_enomem(), file: file)
        }
        context = allocated
        stream = newStream
        packet = try Packet(file: file)
        code = avcodec_parameters_from_context(newStream.pointee.codecpar, encoder)
        if code < 0 { throw MediaError.library("avcodec_parameters_from_context", code, file: file) }
        newStream.pointee.time_base = AVRational(num: 1, den: 1000)
        if let language { av_dict_set(&newStream.pointee.metadata, "language", language, 0) }
        if let title { av_dict_set(&newStream.pointee.metadata, "title", title, 0) }
        var pb: UnsafeMutablePointer<AVIOContext>?
        code = avio_open_dyn_buf(&pb)
        guard code >= 0, let pb else { throw MediaError.library("avio_open_dyn_buf", code, file: file) }
        allocated.pointee.pb = pb
        buffer = pb
        code = avformat_write_header(allocated, nil)
        if code < 0 { throw MediaError.library("avformat_write_header", code, file: file) }
    }

    deinit {
        if let buffer {
            context.pointee.pb = nil
            var bytes: UnsafeMutablePointer<UInt8>?
            _ = avio_close_dyn_buf(buffer, &bytes)
            av_free(bytes)
        }
        avformat_free_context(context)
    }

    /// Writes `size` bytes at `start` milliseconds lasting `duration`.
    func write(_ bytes: UnsafePointer<UInt8>, size: Int, start: Int64, duration: Int64) throws {
        let output = packet.packet
        av_packet_unref(output)
        var code = av_new_packet(output, Int32(size))
        if code < 0 { throw MediaError.library("av_new_packet", code, file: file) }
        output.pointee.data.update(from: bytes, count: size)
        let milliseconds = AVRational(num: 1, den: 1000)
        output.pointee.pts = av_rescale_q(start, milliseconds, stream.pointee.time_base)
        output.pointee.dts = output.pointee.pts
        output.pointee.duration = av_rescale_q(duration, milliseconds, stream.pointee.time_base)
        output.pointee.stream_index = 0
        code = av_interleaved_write_frame(context, output)
        if code < 0 { throw MediaError.library("av_interleaved_write_frame", code, file: file) }
    }

    /// Writes the trailer and returns the file's bytes.
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
}
