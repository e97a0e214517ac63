internal import CFFmpeg
import Foundation

/// A minimal libavformat reader for media inputs: a subtitle stream as ASS text plus the font attachments.
/// (The media extractor replaces this at merge; `SubtitleInput` is the seam.)
public enum MediaSubtitles {
    /// The `track`-th subtitle stream (from 0, as ffmpeg's `0:s:N`) of the media at `path`, decoded through
    /// libavcodec (as ffmpeg's `subtitles` filter does) into an ASS script, with the file's font attachments.
    public static func input(path: String, track: Int) throws(RenderError) -> SubtitleInput {
        let format = try FFmpegFormatContext(path: path)
        let subtitleStreams = format.streams.filter { $0.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE }
        guard subtitleStreams.indices.contains(track) else {
            throw .unreadable(
                file: path,
                cause: subtitleStreams.isEmpty
                    ? "no subtitle stream"
                    : "no subtitle track \(track) (the file has \(subtitleStreams.count): 0 to \(subtitleStreams.count - 1))"
            )
        }
        let stream = subtitleStreams[track]
        let decoder = try format.openDecoder(for: stream)
        let codecID = stream.pointee.codecpar?.pointee.codec_id ?? AV_CODEC_ID_NONE
        let isASS = codecID == AV_CODEC_ID_ASS || codecID == AV_CODEC_ID_SSA
        var script: String
        if isASS, let header = decoder.handle.pointee.subtitle_header, decoder.handle.pointee.subtitle_header_size > 0 {
            script = String(
                decoding: UnsafeBufferPointer(start: header, count: Int(decoder.handle.pointee.subtitle_header_size)),
                as: UTF8.self)
            if !script.hasSuffix("\n") { script += "\n" }
        } else {
            // Text subtitles get subfix's default style (the bundled CJK font), as SRT files do.
            script = CueConverter.header
        }
        script += try dialogueLines(format: format, stream: stream, decoder: decoder)
        return SubtitleInput(name: "\(path)#s:\(track)", assText: script, attachments: attachments(format))
    }

    /// The font attachments of the media at `path` (attachment streams holding TrueType/OpenType data).
    static func attachments(_ format: FFmpegFormatContext) -> [FontAttachment] {
        format.streams.compactMap { stream in
            guard let parameters = stream.pointee.codecpar, parameters.pointee.codec_type == AVMEDIA_TYPE_ATTACHMENT,
                let data = parameters.pointee.extradata, parameters.pointee.extradata_size > 0
            else { return nil }
            let name = av_dict_get(stream.pointee.metadata, "filename", nil, 0)?.pointee.value.map {
                String(cString: $0)
            }
            return FontAttachment(
                name: name ?? "attachment-\(stream.pointee.index)",
                data: Data(bytes: data, count: Int(parameters.pointee.extradata_size)))
        }
    }

    /// Every packet of the stream decoded to `Dialogue:` lines (`rect->ass` holds
    /// `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`).
    private static func dialogueLines(
        format: FFmpegFormatContext, stream: UnsafeMutablePointer<AVStream>, decoder: FFmpegCodecContext
    ) throws(RenderError) -> String {
        let packet = try FFmpegPacket()
        let timeBase = stream.pointee.time_base
        var lines = ""
        while true {
            let code = av_read_frame(format.handle, packet.handle)
            if code == cffmpeg_averror_eof() { break }
            guard code >= 0 else { throw ffmpegError("av_read_frame", code, file: format.path) }
            defer { av_packet_unref(packet.handle) }
            guard packet.handle.pointee.stream_index == stream.pointee.index else { continue }
            var subtitle = AVSubtitle()
            var got: Int32 = 0
            let used = avcodec_decode_subtitle2(decoder.handle, &subtitle, &got, packet.handle)
            guard used >= 0 else { continue }
            defer { avsubtitle_free(&subtitle) }
            guard got != 0 else { continue }
            let pts = packet.handle.pointee.pts == cffmpeg_nopts_value() ? 0 : packet.handle.pointee.pts
            let start =
                Int(av_rescale_q(pts, timeBase, AVRational(num: 1, den: 1000))) + Int(subtitle.start_display_time)
            var duration = Int(av_rescale_q(packet.handle.pointee.duration, timeBase, AVRational(num: 1, den: 1000)))
            if subtitle.end_display_time > subtitle.start_display_time, subtitle.end_display_time != UInt32.max {
                duration = Int(subtitle.end_display_time - subtitle.start_display_time)
            }
            for index in 0..<Int(subtitle.num_rects) {
                guard let rect = subtitle.rects[index], let ass = rect.pointee.ass else { continue }
                let fields = String(cString: ass).split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
                guard fields.count == 9 else { continue }
                let text = fields[8].replacingOccurrences(of: "\r", with: "").replacingOccurrences(
                    of: "\n", with: "\\N")
                lines +=
                    "Dialogue: \(fields[1]),\(CueConverter.assTime(start)),\(CueConverter.assTime(start + duration)),"
                    + fields[2...7].joined(separator: ",") + ",\(text)\n"
            }
        }
        return lines
    }
}
