internal import CFFmpeg
import Foundation

/// Reads any number of text subtitle tracks out of a media file in one demux pass, through libavcodec's
/// decoders and encoders and libavformat's `ass`/`srt` muxers, so each track's bytes are what
/// `ffmpeg -i IN -map 0:s:N OUT.ass|OUT.srt` writes. Streams that are not wanted are dropped in the demuxer
/// (`AVDISCARD_ALL`); memory depends on the subtitles' size, not the file's.
///
///     let media = try MediaFile(path: "movie.mkv")
///     let extractor = SubtitleExtractor(file: media)
///     let result = try extractor.extract(tracks: media.subtitleStreams.filter(\.isText), format: .auto)
///     for track in result.tracks { print(track.fileName(base: "movie"), track.data.count) }
///
/// Nothing is written to disk here: see `SubtitleTrackWriter` for files.
public final class SubtitleExtractor {
    /// The media file the tracks come from.
    public let file: MediaFile

    /// An extractor over an opened file.
    public init(file: MediaFile) {
        self.file = file
    }

    /// The streams `selectors` name, in subtitle-index order without duplicates, checked to be text tracks.
    /// Throws `MediaError.bitmapTrack` for PGS/VobSub/DVB tracks and the `TrackIndex` errors for bad indexes.
    public func streams(for selectors: [TrackIndex.Selector]) throws -> [MediaStream] {
        let index = file.trackIndex
        var chosen: [MediaStream] = []
        for selector in selectors {
            let stream = try index.stream(for: selector)
            try SubtitleExtractor.checkText(stream, file: file.path)
            if !chosen.contains(where: { $0.index == stream.index }) { chosen.append(stream) }
        }
        return chosen.sorted { $0.index < $1.index }
    }

    /// Reads `tracks` (subtitle streams of `file`) in one pass and returns their bytes in `format`.
    /// Only the stream indexes of `tracks` are used: their descriptions are taken from `file` itself.
    public func extract(tracks: [MediaStream], format: ExtractionFormatChoice) throws -> ExtractionResult {
        let index = file.trackIndex
        var wanted: [MediaStream] = []
        for track in tracks {
            let stream = try index.stream(for: .stream(track.index))
            try SubtitleExtractor.checkText(stream, file: file.path)
            if !wanted.contains(where: { $0.index == stream.index }) { wanted.append(stream) }
        }
        wanted.sort { $0.index < $1.index }
        let source = try file.claimDemuxer()
        var transcoders: [Int: SubtitleTranscoder] = [:]
        for stream in wanted {
            guard let avStream = source.avStream(stream.index) else { continue }
            transcoders[stream.index] = try SubtitleTranscoder(
                stream: stream, avStream: avStream, format: format.resolve(for: stream), file: file.path)
        }
        let interruption = try SubtitleExtractor.demux(source, into: transcoders)
        var extracted: [ExtractedTrack] = []
        for stream in wanted {
            guard let transcoder = transcoders[stream.index] else { continue }
            var track = ExtractedTrack(stream: stream, format: transcoder.format, data: try transcoder.finish())
            track.problems = transcoder.problems
            extracted.append(track)
        }
        return ExtractionResult(tracks: extracted, interruption: interruption)
    }

    /// Throws unless `stream` is a text subtitle track.
    static func checkText(_ stream: MediaStream, file: String) throws {
        switch stream.subtitleEncoding {
        case .text: return
        case .bitmap:
            throw MediaError.bitmapTrack(
                file: file, playerIndex: stream.playerIndex ?? 0, codecLabel: stream.codecLabel)
        default:
            throw MediaError.unsupportedCodec(
                file: file, playerIndex: stream.playerIndex ?? 0, codec: stream.codec,
                reason: "libavcodec does not say whether it is text or bitmap")
        }
    }

    /// The demux loop: discard every other stream, shift timestamps by the input's start time as ffmpeg does,
    /// hand each packet to its track. Returns where reading stopped if it did not reach a clean end of file.
    private static func demux(
        _ source: MediaFile, into transcoders: [Int: SubtitleTranscoder]
    ) throws -> ReadInterruption? {
        let context = source.context
        for index in 0..<Int(context.pointee.nb_streams) {
            source.avStream(index)?.pointee.discard = transcoders[index] == nil ? AVDISCARD_ALL : AVDISCARD_DEFAULT
        }
        let packet = try Packet(file: source.path)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: SubtitleTranscoder.maximumEncodedSize)
        defer { buffer.deallocate() }
        let offset = -(source.startTime ?? 0)
        var lastTime = 0.0
        var watch = DemuxWatch(source)
        var code: Int32 = 0
        while true {
            let (readCode, lines) = MediaLog.capture { av_read_frame(context, packet.packet) }
            code = readCode
            watch.note(lines)
            if code < 0 { break }
            defer { av_packet_unref(packet.packet) }
            let index = Int(packet.packet.pointee.stream_index)
            guard let transcoder = transcoders[index], let stream = source.avStream(index) else { continue }
            let time = packet.shiftTimestamps(by: offset, timeBase: stream.pointee.time_base)
            if let time { lastTime = max(lastTime, time) }
            try transcoder.decode(packet.packet, time: time, buffer: buffer)
        }
        // Other streams were discarded: their ends are the survey's to find.
        guard let reason = watch.problem(code: code, duration: source.duration, everyStream: false) else { return nil }
        let survey = try? survey(source.path, readBudget: source.readBudget)
        return ReadInterruption(
            stoppedAt: max(lastTime, survey?.latest ?? 0), damagedAfter: survey?.damagedAfter,
            duration: source.duration, reason: reason)
    }

    /// For a damaged file only: reads every stream once more to find the latest readable timestamp (so the
    /// warning says how much of the file was readable, not just when the last subtitle was) and, when the
    /// demuxer reported damage and then read on, the time of the last good packet before it.
    private static func survey(_ path: String, readBudget: ReadBudget?) throws -> (
        latest: Double, damagedAfter: Double?
    ) {
        let media = try MediaFile(path: path, readBudget: readBudget)
        let packet = try Packet(file: path)
        let offset = Double(media.startTime ?? 0) / Double(AV_TIME_BASE)
        var latest = 0.0
        var damagedAfter: Double?
        while true {
            let (code, lines) = MediaLog.capture { av_read_frame(media.context, packet.packet) }
            if code < 0 { break }
            defer { av_packet_unref(packet.packet) }
            if damagedAfter == nil, lines.contains(where: \.isDamage) { damagedAfter = latest }
            guard packet.packet.pointee.pts != cffmpeg_nopts_value(),
                let stream = media.avStream(Int(packet.packet.pointee.stream_index))
            else { continue }
            latest = max(latest, Double(packet.packet.pointee.pts) * av_q2d(stream.pointee.time_base) - offset)
        }
        return (latest, damagedAfter)
    }
}
