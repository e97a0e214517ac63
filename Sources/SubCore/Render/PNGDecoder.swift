internal import CFFmpeg
import Foundation

/// A decoded image: straight RGBA, rows top to bottom.
package struct DecodedImage: Sendable, Equatable {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// `width * height * 4` bytes.
    package var rgba: [UInt8]

    /// The peak signal-to-noise ratio of the RGB channels against `other` (same size), in dB;
    /// `.infinity` when identical.
    package func psnrRGB(against other: DecodedImage) -> Double {
        precondition(width == other.width && height == other.height, "images differ in size")
        var sum = 0.0
        var count = 0
        for index in stride(from: 0, to: rgba.count, by: 4) {
            for channel in 0..<3 {
                let difference = Double(Int(rgba[index + channel]) - Int(other.rgba[index + channel]))
                sum += difference * difference
                count += 1
            }
        }
        guard sum > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (sum / Double(count)))
    }
}

/// Decodes PNG files through libavcodec's PNG decoder and converts them to RGBA with libswscale.
package enum PNGDecoder {
    /// The image in `data`; `name` is used in error messages.
    package static func decode(_ data: Data, name: String = "image.png") throws(RenderError) -> DecodedImage {
        try RenderError.media(file: name) { try FFmpegLibraries.load(file: name) }
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_PNG) else {
            throw RenderError.ffmpeg("avcodec_find_decoder", cffmpeg_averror_invaliddata(), file: name)
        }
        let context = try RenderError.media(file: name) { try CodecContext(codec: codec, file: name) { _ in } }
        let packet = try RenderError.media(file: name) { try Packet(file: name) }
        var code = av_new_packet(packet.packet, Int32(data.count))
        guard code >= 0 else { throw RenderError.ffmpeg("av_new_packet", code, file: name) }
        data.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress, let target = packet.packet.pointee.data {
                target.update(from: base.assumingMemoryBound(to: UInt8.self), count: data.count)
            }
        }
        code = avcodec_send_packet(context.context, packet.packet)
        guard code >= 0 else { throw RenderError.ffmpeg("avcodec_send_packet", code, file: name) }
        let frame = try RenderError.media(file: name) { try Frame(file: name) }
        code = avcodec_receive_frame(context.context, frame.frame)
        guard code >= 0 else { throw RenderError.ffmpeg("avcodec_receive_frame", code, file: name) }
        return try rgba(of: frame, name: name)
    }

    /// Converts a decoded frame to straight RGBA of the same size.
    static func rgba(of frame: Frame, name: String) throws(RenderError) -> DecodedImage {
        let width = Int(frame.frame.pointee.width)
        let height = Int(frame.frame.pointee.height)
        let scaler = try RenderError.media(file: name) {
            try Scaler(
                sourceWidth: Int32(width), sourceHeight: Int32(height),
                sourceFormat: AVPixelFormat(frame.frame.pointee.format), width: Int32(width), height: Int32(height),
                format: AV_PIX_FMT_RGBA, file: name)
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        try rgba.withUnsafeMutableBufferPointer { (buffer) throws(RenderError) in
            var targets: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(width * 4), 0, 0, 0]
            let rows = withUnsafePointer(to: &frame.frame.pointee.data) { data in
                withUnsafePointer(to: &frame.frame.pointee.linesize) { linesize in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                        linesize.withMemoryRebound(to: Int32.self, capacity: 8) { sizes in
                            sws_scale(scaler.context, planes, sizes, 0, Int32(height), &targets, &strides)
                        }
                    }
                }
            }
            guard rows == Int32(height) else { throw RenderError.ffmpeg("sws_scale", rows, file: name) }
        }
        return DecodedImage(width: width, height: height, rgba: rgba)
    }
}
