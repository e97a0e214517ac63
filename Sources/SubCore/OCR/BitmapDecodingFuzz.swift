internal import CFFmpeg

/// The bitmap side of `subfix-fuzz`: untrusted bytes through libavcodec's PGS, VobSub and DVB decoders
/// (`BitmapSubtitleDecoder`) and every picture they give through `BitmapPreparation`, without Tesseract. Errors are
/// expected; a trap is a bug, and so is a prepared image whose size and pixels disagree.
package enum BitmapDecodingFuzz {
    /// Runs `bytes` as PGS segments (one packet per segment, as the `sup` demuxer hands them over, or the whole
    /// input when it is not a run of segments), as one VobSub packet and as one DVB packet.
    package static func run(_ bytes: [UInt8]) {
        let packets = segments(bytes) ?? [bytes]
        decode(packets, codec: AV_CODEC_ID_HDMV_PGS_SUBTITLE, width: 1920, height: 1080)
        decode([bytes], codec: AV_CODEC_ID_DVD_SUBTITLE, width: 720, height: 480)
        decode([bytes], codec: AV_CODEC_ID_DVB_SUBTITLE, width: 720, height: 576)
    }

    /// PGS segments (type, 16-bit size, payload) with any `PG` + timestamps header removed; nil when the bytes
    /// are not exactly a run of them.
    static func segments(_ bytes: [UInt8]) -> [[UInt8]]? {
        var packets: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            if bytes.count - offset >= 13, bytes[offset] == 0x50, bytes[offset + 1] == 0x47 { offset += 10 }
            guard bytes.count - offset >= 3 else { return nil }
            let size = Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            guard bytes.count - offset >= 3 + size else { return nil }
            packets.append(Array(bytes[offset..<(offset + 3 + size)]))
            offset += 3 + size
        }
        return packets.isEmpty ? nil : packets
    }

    private static func decode(_ packets: [[UInt8]], codec: AVCodecID, width: Int, height: Int) {
        guard let decoder = try? BitmapSubtitleDecoder(codec: codec, width: width, height: height, file: "fuzz"),
            let packet = try? Packet(file: "fuzz")
        else { return }
        var events: [BitmapEvent] = []
        for (index, bytes) in packets.enumerated() {
            av_packet_unref(packet.packet)
            guard av_new_packet(packet.packet, Int32(bytes.count)) >= 0 else { continue }
            if !bytes.isEmpty { packet.packet.pointee.data.update(from: bytes, count: bytes.count) }
            packet.packet.pointee.pts = Int64(index) * 90_000
            events += decoder.decode(packet.packet, time: Double(index))
            av_packet_unref(packet.packet)
        }
        events += decoder.finish()
        for bitmap in events.flatMap(\.bitmaps).prefix(16) {
            guard case .ready(let image, _)? = try? BitmapPreparation.prepare(bitmap, mayBeVertical: true) else {
                continue
            }
            if image.width < 1 || image.height < 1 || image.pixels.count != image.width * image.height
                || max(image.width, image.height) > BitmapPreparation.maximumSide + 2 * BitmapPreparation.margin
            {
                preconditionFailure(
                    "subfix-fuzz: a prepared image of \(image.width)x\(image.height) holds "
                        + "\(image.pixels.count) pixels")
            }
        }
    }
}
