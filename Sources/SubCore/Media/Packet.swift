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

extension Packet {
    /// Shifts the packet's timestamps by `offset` (microseconds: minus the input's start time, as ffmpeg shifts
    /// its inputs) in the stream's `timeBase`, and returns its presentation time in seconds; nil when it has none.
    func shiftTimestamps(by offset: Int64, timeBase: AVRational) -> Double? {
        let none = cffmpeg_nopts_value()
        let shift = av_rescale_q(offset, cffmpeg_time_base_q(), timeBase)
        if packet.pointee.dts != none { packet.pointee.dts += shift }
        guard packet.pointee.pts != none else { return nil }
        packet.pointee.pts += shift
        return Double(packet.pointee.pts) * av_q2d(timeBase)
    }
}
