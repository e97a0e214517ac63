internal import CFFmpeg

/// One reusable `AVPacket`. The corresponding C calls are `av_packet_alloc` and `av_packet_free`.
final class Packet {
    let packet: UnsafeMutablePointer<AVPacket>

    init(file: String) throws {
        try FFmpegLibraries.load(file: file)
        guard let allocated = av_packet_alloc() else {
            throw MediaError.library("av_packet_alloc", cffmpeg_averror_enomem(), file: file)
        }
        packet = allocated
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&doomed)
    }
}
