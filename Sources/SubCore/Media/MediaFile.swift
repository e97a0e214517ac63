internal import CFFmpeg
import Foundation

/// An opened media file: its container format, duration, streams and attachments, all copied into Swift
/// values when it is opened. The corresponding C calls are `avformat_open_input` and
/// `avformat_find_stream_info`; `avformat_close_input` runs in `deinit`.
///
///     let media = try MediaFile(path: "movie.mkv")
///     for stream in media.subtitleStreams { print(stream.playerIndex ?? 0, stream.language ?? "-", stream.codec) }
///
/// Not thread-safe: use one `MediaFile` from one thread at a time.
public final class MediaFile {
    /// The path as given.
    public let path: String
    /// libavformat's name for the container, such as `matroska,webm` or `mov,mp4,m4a,3gp,3g2,mj2`.
    public let formatName: String
    /// Duration in seconds, nil when the container does not say.
    public let duration: Double?
    /// Every stream, in stream-index order.
    public let streams: [MediaStream]
    /// The attachment streams (fonts in MKV), in stream-index order.
    public let attachments: [MediaAttachment]

    /// The owned demuxer context.
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The first error the demuxer logged while probing (`File ended prematurely` for a truncated file whose end
    /// the probe already read), nil for a clean probe; a demux pass reports it as damage (`DemuxWatch`).
    let openingDamage: String?
    /// `AVFormatContext.start_time` in microseconds, nil when unknown (ffmpeg shifts input timestamps by it).
    let startTime: Int64?

    /// The budget every read of this file counts against, nil when reads are not metered.
    public let readBudget: ReadBudget?
    /// The metered input the demuxer reads through; freed after the demuxer.
    private let input: MediaInput?

    /// Opens `path` and reads its stream information; throws `MediaError.notMedia` when libavformat does not
    /// recognise it. With `readBudget`, every read of the file (here and in later demux passes) counts against
    /// it and waits when the run reads faster than its rate.
    public init(path: String, readBudget: ReadBudget? = nil) throws {
        try MediaFile.refuseNonRegular(path)
        try FFmpegLibraries.load(file: path)
        MediaLog.install()
        var opened: UnsafeMutablePointer<AVFormatContext>?
        var input: MediaInput?
        if let readBudget {
            let metered = try MediaInput(path: path, budget: readBudget)
            guard let context = avformat_alloc_context() else {
                throw MediaError.library("avformat_alloc_context", cffmpeg_averror_enomem(), file: path)
            }
            context.pointee.pb = metered.io
            context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
            opened = context
            input = metered
        }
        self.readBudget = readBudget
        self.input = input
        let (code, _) = MediaLog.capture {
            PathBytes.withCString(path) { avformat_open_input(&opened, $0, nil, nil) }
        }
        guard code >= 0, let opened else {
            if code == -ENOENT || code == -EACCES || code == -EISDIR {
                throw MediaError.library("avformat_open_input", code, file: path)
            }
            throw MediaError.notMedia(
                file: path, function: "avformat_open_input", message: MediaError.message(for: code))
        }
        // Probing reads ahead (a whole small file): a truncation met here is logged here, not while demuxing.
        // What the header pass logs (`incomplete attachment`, a bad tag) is about metadata, not the packets:
        // an open that succeeded read the stream descriptions, and the packets are judged as they are read.
        let (infoCode, infoLines) = MediaLog.capture { avformat_find_stream_info(opened, nil) }
        self.openingDamage = infoLines.first(where: \.isDamage)?.text
        if infoCode < 0 {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = opened
            avformat_close_input(&doomed)
            throw MediaError.library("avformat_find_stream_info", infoCode, file: path)
        }
        self.path = path
        self.context = opened
        let format = opened.pointee
        self.formatName = format.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
        self.duration =
            format.duration == cffmpeg_nopts_value() || format.duration < 0
            ? nil : Double(format.duration) / Double(AV_TIME_BASE)
        self.startTime = format.start_time == cffmpeg_nopts_value() ? nil : format.start_time
        let (streams, attachments) = MediaFile.readStreams(opened)
        self.streams = streams
        self.attachments = attachments
    }

    /// Throws `MediaError.unreadable` for a folder, FIFO or device, which libavformat would block on (a FIFO
    /// with no writer) or report with an errno; other failures are left to `avformat_open_input` to report.
    static func refuseNonRegular(_ path: String) throws(MediaError) {
        do {
            try InputFile.check(path)
        } catch {
            if case .notRegular = error.problem { throw .unreadable(file: path, cause: error.cause) }
        }
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&doomed)
    }

    /// Whether a demux pass has read (part of) this context already.
    private var demuxerUsed = false

    /// A context positioned at the start of the file for a demux pass: this one the first time, a freshly opened
    /// one afterwards (so every pass sees exactly the packets `ffmpeg -i` sees).
    func claimDemuxer() throws -> MediaFile {
        if !demuxerUsed {
            demuxerUsed = true
            return self
        }
        return try MediaFile(path: path, readBudget: readBudget)
    }

    /// The subtitle streams, in subtitle-index order.
    public var subtitleStreams: [MediaStream] { streams.filter { $0.kind == .subtitle } }

    /// A `TrackIndex` over this file's streams, for converting between player, subtitle and stream indexes.
    public var trackIndex: TrackIndex { TrackIndex(streams: streams, file: path) }

    /// The bytes of the attachment in stream `index` (copied from `codecpar->extradata`), for example a font to
    /// hand to libass's `ass_add_font`.
    public func attachmentData(stream index: Int) throws -> Data {
        guard attachments.contains(where: { $0.index == index }), let stream = avStream(index) else {
            throw MediaError.noSuchAttachment(file: path, stream: index)
        }
        guard let parameters = stream.pointee.codecpar?.pointee, let bytes = parameters.extradata,
            parameters.extradata_size > 0
        else { return Data() }
        return Data(bytes: bytes, count: Int(parameters.extradata_size))
    }

    /// The attachments that are fonts (by MIME type or file extension) with their bytes, ready for libass's
    /// `ass_add_font(library, name, data, size)`.
    public func fontAttachments() throws -> [(attachment: MediaAttachment, data: Data)] {
        try attachments.filter(MediaFile.isFont).map { ($0, try attachmentData(stream: $0.index)) }
    }

    /// Whether an attachment looks like a font: a font MIME type, or a .ttf/.otf/.ttc/.otc name.
    static func isFont(_ attachment: MediaAttachment) -> Bool {
        let mime = attachment.mimeType?.lowercased() ?? ""
        if mime.hasPrefix("font/") || mime.contains("truetype") || mime.contains("opentype") || mime.contains("font") {
            return true
        }
        let name = attachment.fileName?.lowercased() ?? ""
        return [".ttf", ".otf", ".ttc", ".otc"].contains { name.hasSuffix($0) }
    }

    /// The libavformat stream at `index`, or nil.
    func avStream(_ index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < Int(context.pointee.nb_streams), let streams = context.pointee.streams else {
            return nil
        }
        return streams[index]
    }

    /// Copies every stream's description out of the C structures.
    private static func readStreams(
        _ context: UnsafeMutablePointer<AVFormatContext>
    ) -> ([MediaStream], [MediaAttachment]) {
        var streams: [MediaStream] = []
        var attachments: [MediaAttachment] = []
        var subtitleCount = 0
        guard let streamList = context.pointee.streams else { return ([], []) }
        for index in 0..<Int(context.pointee.nb_streams) {
            guard let stream = streamList[index], let parameters = stream.pointee.codecpar?.pointee
            else { continue }
            let kind: StreamKind
            switch parameters.codec_type {
            case AVMEDIA_TYPE_VIDEO: kind = .video
            case AVMEDIA_TYPE_AUDIO: kind = .audio
            case AVMEDIA_TYPE_SUBTITLE: kind = .subtitle
            case AVMEDIA_TYPE_ATTACHMENT: kind = .attachment
            case AVMEDIA_TYPE_DATA: kind = .data
            default: kind = .unknown
            }
            let metadata = stream.pointee.metadata
            let language = tag(metadata, "language").flatMap { $0.isEmpty || $0 == "und" ? nil : $0 }
            var description = MediaStream(
                index: index, kind: kind, codec: String(cString: avcodec_get_name(parameters.codec_id)),
                subtitleEncoding: nil, language: language, title: tag(metadata, "title"),
                isDefault: stream.pointee.disposition & AV_DISPOSITION_DEFAULT != 0,
                isForced: stream.pointee.disposition & AV_DISPOSITION_FORCED != 0,
                subtitleIndex: nil, playerIndex: nil,
                isHearingImpaired: stream.pointee.disposition & AV_DISPOSITION_HEARING_IMPAIRED != 0)
            if kind == .subtitle {
                let properties = avcodec_descriptor_get(parameters.codec_id)?.pointee.props ?? 0
                description.subtitleEncoding =
                    properties & AV_CODEC_PROP_TEXT_SUB != 0
                    ? .text : properties & AV_CODEC_PROP_BITMAP_SUB != 0 ? .bitmap : .unknown
                description.subtitleIndex = subtitleCount
                description.playerIndex = TrackIndex.playerIndex(forSubtitleIndex: subtitleCount)
                subtitleCount += 1
            }
            if kind == .attachment {
                attachments.append(
                    MediaAttachment(
                        index: index, fileName: tag(metadata, "filename"), mimeType: tag(metadata, "mimetype"),
                        size: Int(max(0, parameters.extradata_size))))
            }
            streams.append(description)
        }
        return (streams, attachments)
    }

    /// The value of a metadata tag, nil when missing. The corresponding C call is `av_dict_get`.
    private static func tag(_ dictionary: OpaquePointer?, _ key: String) -> String? {
        guard let entry = av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value else { return nil }
        return String(cString: value)
    }
}
