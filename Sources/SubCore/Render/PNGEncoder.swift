internal import CFFmpeg
import Foundation

/// Encodes canvases as PNG through libavcodec's PNG encoder: RGBA, or RGB for opaque frames (a quarter less
/// to compress). One encoder serves every frame of a size.
///
///     let encoder = try PNGEncoder(width: 640, height: 360)
///     let png = try encoder.encode(canvas)
public final class PNGEncoder {
    private let context: CodecContext
    /// A ring of frames allocated once: a frame the encoder still reads is not reused until it lets go, so
    /// frame buffers are never reallocated (which keeps memory flat with frame threads).
    private let frames: [Frame]
    private var nextFrame = 0
    private let packet: Packet
    /// The width of the frames it takes, in pixels.
    public let width: Int
    /// The height of the frames it takes, in pixels.
    public let height: Int
    /// Whether frames are written as RGB (only opaque canvases).
    public let opaque: Bool
    /// libavcodec frame threads (1: `encode(_:)` returns each PNG at once).
    public let threads: Int
    private var nextPTS: Int64 = 0

    /// An encoder for `width`x`height` RGBA frames. `compression` is zlib's level (0...9; 1 is fast and
    /// still small for subtitle frames, which are mostly empty).
    /// With `opaque`, every canvas must be opaque and is written without its alpha channel.
    /// With `threads` above 1, libavcodec encodes that many frames at once (frame threading); PNGs then come
    /// back from `send(_:)` and `finish()`.
    public init(width: Int, height: Int, opaque: Bool = false, compression: Int = 1, threads: Int = 1)
        throws(RenderError)
    {
        try RenderError.media { try FFmpegLibraries.load(file: "PNG encoder") }
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw RenderError.ffmpeg("avcodec_find_encoder", cffmpeg_averror_invaliddata())
        }
        let format = opaque ? AV_PIX_FMT_RGB24 : AV_PIX_FMT_RGBA
        context = try RenderError.media {
            try CodecContext(codec: codec, file: "") { ctx in
                ctx.pointee.width = Int32(width)
                ctx.pointee.height = Int32(height)
                ctx.pointee.pix_fmt = format
                ctx.pointee.time_base = AVRational(num: 1, den: 25)
                ctx.pointee.compression_level = Int32(compression)
                ctx.pointee.thread_count = Int32(max(1, threads))
                ctx.pointee.thread_type = FF_THREAD_FRAME
            }
        }
        let frames = try RenderError.media { try (0..<(max(1, threads) + 3)).map { _ in try Frame(file: "") } }
        self.frames = frames
        packet = try RenderError.media { try Packet(file: "") }
        self.width = width
        self.height = height
        self.opaque = opaque
        self.threads = max(1, threads)
        for frame in frames {
            frame.frame.pointee.format = format.rawValue
            frame.frame.pointee.width = Int32(width)
            frame.frame.pointee.height = Int32(height)
            let code = av_frame_get_buffer(frame.frame, 0)
            guard code >= 0 else { throw RenderError.ffmpeg("av_frame_get_buffer", code) }
        }
    }

    /// The PNG file bytes of `canvas` (straight alpha, as PNG wants). Only for a single-threaded encoder.
    public func encode(_ canvas: Canvas) throws(RenderError) -> Data {
        precondition(threads == 1, "a frame-threaded encoder delivers PNGs later: use send(_:) and finish()")
        try submit(canvas)
        return try receive().first ?? Data()
    }

    /// Queues `canvas` for encoding and returns the PNGs finished so far, in submission order (with frame
    /// threads, each PNG arrives a few calls after its canvas).
    public func send(_ canvas: Canvas) throws(RenderError) -> [Data] {
        try submit(canvas)
        return try receive()
    }

    /// Flushes the encoder and returns the remaining PNGs; the encoder takes no more frames afterwards.
    public func finish() throws(RenderError) -> [Data] {
        let code = avcodec_send_frame(context.context, nil)
        guard code >= 0 || code == cffmpeg_averror_eof() else { throw RenderError.ffmpeg("avcodec_send_frame", code) }
        return try receive()
    }

    /// The packets the encoder has ready. The corresponding C call is `avcodec_receive_packet`.
    private func receive() throws(RenderError) -> [Data] {
        var out: [Data] = []
        while true {
            let code = avcodec_receive_packet(context.context, packet.packet)
            if code == cffmpeg_averror_eagain() || code == cffmpeg_averror_eof() { return out }
            guard code >= 0 else { throw RenderError.ffmpeg("avcodec_receive_packet", code) }
            if let bytes = packet.packet.pointee.data {
                out.append(Data(bytes: bytes, count: Int(packet.packet.pointee.size)))
            }
            av_packet_unref(packet.packet)
        }
    }

    /// Copies `canvas` into the encoder's frame and sends it. The corresponding C call is `avcodec_send_frame`.
    private func submit(_ canvas: Canvas) throws(RenderError) {
        precondition(canvas.width == width && canvas.height == height, "canvas size differs from the encoder's")
        precondition(!opaque || canvas.isOpaque, "an RGB encoder needs an opaque canvas")
        let frame = frames[nextFrame]
        nextFrame = (nextFrame + 1) % frames.count
        // The oldest frame of the ring: the encoder has finished with it unless more frames are in flight
        // than libavcodec allows, in which case make_writable copies rather than write under it.
        var code = av_frame_make_writable(frame.frame)
        guard code >= 0 else { throw RenderError.ffmpeg("av_frame_make_writable", code) }
        guard let plane = frame.frame.pointee.data.0 else {
            throw RenderError.ffmpeg("av_frame_get_buffer", cffmpeg_averror_enomem())
        }
        let stride = Int(frame.frame.pointee.linesize.0)
        let rowBytes = width * 4
        canvas.pixels.withUnsafeBufferPointer { source in
            guard let sourceBase = source.baseAddress else { return }
            if opaque {
                // RGBA to RGB four pixels at a time: four 32-bit loads, three 32-bit stores (little-endian).
                let groups = width / 4
                for y in 0..<height {
                    let target = UnsafeMutableRawPointer(plane + y * stride)
                    let row = UnsafeRawPointer(sourceBase + y * rowBytes)
                    for group in 0..<groups {
                        let p0 = row.loadUnaligned(fromByteOffset: group * 16, as: UInt32.self)
                        let p1 = row.loadUnaligned(fromByteOffset: group * 16 + 4, as: UInt32.self)
                        let p2 = row.loadUnaligned(fromByteOffset: group * 16 + 8, as: UInt32.self)
                        let p3 = row.loadUnaligned(fromByteOffset: group * 16 + 12, as: UInt32.self)
                        target.storeBytes(of: (p0 & 0xFF_FFFF) | (p1 << 24), toByteOffset: group * 12, as: UInt32.self)
                        target.storeBytes(
                            of: ((p1 >> 8) & 0xFFFF) | (p2 << 16), toByteOffset: group * 12 + 4, as: UInt32.self)
                        target.storeBytes(
                            of: ((p2 >> 16) & 0xFF) | (p3 << 8), toByteOffset: group * 12 + 8, as: UInt32.self)
                    }
                    for x in (groups * 4)..<width {
                        target.storeBytes(
                            of: row.load(fromByteOffset: x * 4, as: UInt8.self), toByteOffset: x * 3, as: UInt8.self)
                        target.storeBytes(
                            of: row.load(fromByteOffset: x * 4 + 1, as: UInt8.self), toByteOffset: x * 3 + 1,
                            as: UInt8.self)
                        target.storeBytes(
                            of: row.load(fromByteOffset: x * 4 + 2, as: UInt8.self), toByteOffset: x * 3 + 2,
                            as: UInt8.self)
                    }
                }
                return
            }
            if canvas.isOpaque {
                for y in 0..<height { (plane + y * stride).update(from: sourceBase + y * rowBytes, count: rowBytes) }
                return
            }
            for y in 0..<height {
                let target = plane + y * stride
                let row = sourceBase + y * rowBytes
                var x = 0
                while x < rowBytes {
                    let alpha = Int(row[x + 3])
                    if alpha == 255 || alpha == 0 {
                        // Opaque pixels are the same straight; transparent ones are all zero already.
                        target[x] = row[x]
                        target[x + 1] = row[x + 1]
                        target[x + 2] = row[x + 2]
                    } else {
                        let half = alpha / 2
                        target[x] = UInt8(min(255, (Int(row[x]) * 255 + half) / alpha))
                        target[x + 1] = UInt8(min(255, (Int(row[x + 1]) * 255 + half) / alpha))
                        target[x + 2] = UInt8(min(255, (Int(row[x + 2]) * 255 + half) / alpha))
                    }
                    target[x + 3] = UInt8(alpha)
                    x += 4
                }
            }
        }
        frame.frame.pointee.pts = nextPTS
        nextPTS += 1
        code = avcodec_send_frame(context.context, frame.frame)
        guard code >= 0 else { throw RenderError.ffmpeg("avcodec_send_frame", code) }
    }
}
