internal import CFFmpeg
import Foundation

/// A file to attach to a remuxed Matroska file (a font subset).
public struct RemuxAttachment: Sendable, Equatable {
    /// The attachment's file name (already safe: no folders, no leading dot).
    public var fileName: String
    /// Its MIME type, such as `font/otf` or `application/x-truetype-font`.
    public var mimeType: String
    /// The file content, attached as it is.
    public var data: Data

    /// An attachment named `fileName` of type `mimeType`.
    public init(fileName: String, mimeType: String, data: Data) {
        self.fileName = fileName
        self.mimeType = mimeType
        self.data = data
    }
}

/// A text track's new content: the codec private data and one payload per packet, in the order they were read.
public struct RemuxTrackContent: Sendable, Equatable {
    /// The new codec private data (an ASS/SSA header), empty for none.
    public var header: [UInt8]
    /// The new payload of each packet, as many as `MatroskaRemuxer.readTextTracks()` read.
    public var packets: [[UInt8]]

    /// New content for a track.
    public init(header: [UInt8], packets: [[UInt8]]) {
        self.header = header
        self.packets = packets
    }
}

/// What a remux changes: new content for some tracks (by stream index) and attachments to add after every
/// stream of the input.
public struct RemuxPlan: Sendable, Equatable {
    /// New content by stream index; every other stream is copied as it is.
    public var tracks: [Int: RemuxTrackContent]
    /// Added after the input's streams, in this order.
    public var attachments: [RemuxAttachment]

    /// A plan replacing `tracks` (by stream index) and adding `attachments`.
    public init(tracks: [Int: RemuxTrackContent], attachments: [RemuxAttachment]) {
        self.tracks = tracks
        self.attachments = attachments
    }
}

/// What a remux wrote.
public struct RemuxSummary: Sendable, Equatable {
    /// Packets written, of every stream.
    public var packets: Int
    /// Of those, packets whose payload was replaced.
    public var replacedPackets: Int
    /// The size of the file written, in bytes.
    public var bytes: Int64
}

/// Rewrites a Matroska file through libavformat's `matroska` muxer: every stream copied in order with its
/// codec parameters, language, title and other tags and its disposition (default, forced, ...), every packet
/// copied as it is (same bytes, same timestamps, same flags), except the packets and codec private data of the
/// text tracks a `RemuxPlan` replaces; attachments, chapters and the file's tags kept; new attachments added
/// last. Two sequential passes: `readTextTracks()` reads only the text subtitle packets (the other streams are
/// discarded in the demuxer), `write` copies the whole file packet by packet, so memory does not depend on
/// the file's size. The output is written to a temporary file, flushed and then put in place
/// (`Placement`); nothing is left behind when anything fails.
///
///     let remuxer = try MatroskaRemuxer(file: try MediaFile(path: "movie.mkv"))
///     let tracks = try remuxer.readTextTracks()
///     let plan = RemuxPlan(tracks: [:], attachments: [RemuxAttachment(fileName: "a.otf", mimeType: "font/otf", data: font)])
///     try remuxer.write(plan, to: "fixed/movie.mkv", mode: 0o644, placement: .replace)
public final class MatroskaRemuxer {
    /// The Matroska file read.
    public let file: MediaFile

    /// A remuxer for `file`; throws `MediaError.notMatroska` for other containers (MP4, AVI, ...).
    public init(file: MediaFile) throws(MediaError) {
        guard file.formatName.split(separator: ",").contains("matroska") else {
            throw .notMatroska(file: file.path, format: file.formatName)
        }
        self.file = file
    }

    /// The streams whose text `readTextTracks()` returns: text subtitle tracks in ASS/SSA, SubRip or WebVTT.
    var textStreams: [MediaStream] {
        file.subtitleStreams.filter { $0.isText && MatroskaTextTrack.format(forCodec: $0.codec) != nil }
    }

    /// Reads the codec private data and packets of every text track in one pass. Throws
    /// `MediaError.notRemuxable` when the file is damaged or truncated.
    public func readTextTracks() throws -> [MatroskaTextTrack] {
        let streams = textStreams
        guard !streams.isEmpty else { return [] }
        let source = try file.claimDemuxer()
        let wanted = Set(streams.map(\.index))
        for index in 0..<Int(source.context.pointee.nb_streams) {
            source.avStream(index)?.pointee.discard = wanted.contains(index) ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
        var payloads: [Int: [[UInt8]]] = [:]
        let packet = try Packet(file: file.path)
        try MatroskaRemuxer.demux(source, packet: packet, everyStream: false) { input in
            let index = Int(input.pointee.stream_index)
            guard wanted.contains(index) else { return }
            let bytes =
                input.pointee.data.map { [UInt8](UnsafeBufferPointer(start: $0, count: Int(input.pointee.size))) }
                ?? []
            payloads[index, default: []].append(bytes)
        }
        return streams.compactMap { stream in
            guard let format = MatroskaTextTrack.format(forCodec: stream.codec) else { return nil }
            var header: [UInt8] = []
            if let parameters = source.avStream(stream.index)?.pointee.codecpar?.pointee,
                let extradata = parameters.extradata, parameters.extradata_size > 0
            {
                header = [UInt8](UnsafeBufferPointer(start: extradata, count: Int(parameters.extradata_size)))
                // Codec private data may end in NUL padding: it is not text.
                while header.last == 0 { header.removeLast() }
            }
            return MatroskaTextTrack(
                file: file.path, stream: stream, format: format, header: header,
                packets: payloads[stream.index] ?? [])
        }
    }

    /// The read loop of both passes: hands each packet to `body`; throws `.notRemuxable` when `DemuxWatch`
    /// finds the read damaged or cut short (for a pass over `everyStream`, packets that end before the stated
    /// duration too), so that a remux never writes a file shorter than its source.
    private static func demux(
        _ source: MediaFile, packet holder: Packet, everyStream: Bool,
        _ body: (UnsafeMutablePointer<AVPacket>) throws -> Void
    ) throws {
        var watch = DemuxWatch(source)
        let start = Double(source.startTime ?? 0) / Double(AV_TIME_BASE)
        let none = cffmpeg_nopts_value()
        var code: Int32 = 0
        while true {
            let (readCode, lines) = MediaLog.capture { av_read_frame(source.context, holder.packet) }
            code = readCode
            watch.note(lines)
            if code < 0 || watch.damage != nil {
                if code >= 0 { av_packet_unref(holder.packet) }
                break
            }
            defer { av_packet_unref(holder.packet) }
            let packet = holder.packet.pointee
            let time = packet.pts != none ? packet.pts : packet.dts
            if time != none, let stream = source.avStream(Int(packet.stream_index)) {
                let base = av_q2d(stream.pointee.time_base)
                watch.note(end: Double(time + max(packet.duration, 0)) * base - start)
            }
            try body(holder.packet)
        }
        if let problem = watch.problem(code: code, duration: source.duration, everyStream: everyStream) {
            throw MediaError.notRemuxable(file: source.path, cause: "the file is damaged or truncated (\(problem))")
        }
    }

    /// Writes the remuxed file for `destination` (permissions `mode`) and places it there. The text tracks in
    /// `plan` must have exactly the packets `readTextTracks()` read.
    @discardableResult
    public func write(
        _ plan: RemuxPlan, to destination: String, mode: UInt32, placement: Placement
    ) throws -> RemuxSummary {
        let source = try file.claimDemuxer()
        let output = try MatroskaOutputFile(destination: destination, mode: mode)
        let muxer = try MatroskaMuxer(output: output)
        let streamCount = Int(source.context.pointee.nb_streams)
        for index in 0..<streamCount {
            guard let stream = source.avStream(index) else {
                throw MediaError.notRemuxable(file: file.path, cause: "stream \(index) has no description")
            }
            try muxer.addCopy(of: stream, header: plan.tracks[index]?.header)
        }
        for attachment in plan.attachments {
            try muxer.addAttachment(attachment)
        }
        try muxer.copyChaptersAndTags(from: source.context)
        try muxer.writeHeader()

        var next: [Int: Int] = [:]
        var summary = RemuxSummary(packets: 0, replacedPackets: 0, bytes: 0)
        let replacement = try Packet(file: file.path)
        let reader = try Packet(file: file.path)
        // The demuxer reads on a thread of its own while this one muxes and writes: from here until `done`
        // is signalled, `source` and `reader` belong to that thread.
        let timeBases = (0..<streamCount).map { source.avStream($0)?.pointee.time_base }
        let pipe = PacketPipe()
        let done = DispatchSemaphore(value: 0)
        let handed = HandedOver(value: (source, reader))
        Thread {
            do {
                try MatroskaRemuxer.demux(handed.value.0, packet: handed.value.1, everyStream: true) { input in
                    if !pipe.push(input) { throw CancellationError() }
                }
                pipe.finish(nil)
            } catch {
                pipe.finish(error)
            }
            done.signal()
        }.start()
        defer {
            pipe.cancel()
            done.wait()
        }
        while let input = try pipe.pop() {
            defer {
                var doomed: UnsafeMutablePointer<AVPacket>? = input
                av_packet_free(&doomed)
            }
            let index = Int(input.pointee.stream_index)
            guard index < streamCount, let timeBase = timeBases[index] else { continue }
            var packet = input
            if let content = plan.tracks[index] {
                let position = next[index, default: 0]
                guard position < content.packets.count else {
                    throw MediaError.notRemuxable(
                        file: file.path, cause: "stream \(index) read more packets than on the first pass")
                }
                next[index] = position + 1
                packet = try MatroskaRemuxer.replacing(
                    input, with: content.packets[position], in: replacement, file: file.path)
                summary.replacedPackets += 1
            }
            defer { if packet != input { av_packet_unref(packet) } }
            try muxer.write(packet, stream: index, from: timeBase)
            summary.packets += 1
        }
        for (index, content) in plan.tracks where next[index, default: 0] != content.packets.count {
            throw MediaError.notRemuxable(
                file: file.path,
                cause: "stream \(index) read \(next[index, default: 0]) packets, \(content.packets.count) expected")
        }
        summary.bytes = try muxer.finish()
        try output.place(placement)
        return summary
    }

    /// `input`'s timing and flags with `payload` as its data, in `holder`'s packet.
    private static func replacing(
        _ input: UnsafeMutablePointer<AVPacket>, with payload: [UInt8], in holder: Packet, file: String
    ) throws -> UnsafeMutablePointer<AVPacket> {
        let packet = holder.packet
        av_packet_unref(packet)
        let code = av_new_packet(packet, Int32(payload.count))
        if code < 0 { throw MediaError.library("av_new_packet", code, file: file) }
        if let data = packet.pointee.data, !payload.isEmpty {
            payload.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { data.update(from: base, count: payload.count) }
            }
        }
        packet.pointee.pts = input.pointee.pts
        packet.pointee.dts = input.pointee.dts
        packet.pointee.duration = input.pointee.duration
        packet.pointee.flags = input.pointee.flags
        packet.pointee.pos = -1
        packet.pointee.stream_index = input.pointee.stream_index
        return packet
    }
}

/// libavformat's `matroska` muxer writing into a `MatroskaOutputFile`. The corresponding C calls are
/// `avformat_alloc_output_context2`, `avformat_new_stream`, `avcodec_parameters_copy`, `av_dict_copy`,
/// `avformat_write_header`, `av_write_frame` and `av_write_trailer`; `avformat_free_context` runs in `deinit`.
private final class MatroskaMuxer {
    private let context: UnsafeMutablePointer<AVFormatContext>
    private let output: MatroskaOutputFile
    private var file: String { output.destination }
    /// The last DTS written per output stream, to keep DTS monotonous as ffmpeg does for stream copy.
    private var lastDTS: [Int: Int64] = [:]

    init(output: MatroskaOutputFile) throws {
        self.output = output
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        let code = avformat_alloc_output_context2(&allocated, nil, "matroska", nil)
        guard code >= 0, let allocated else {
            throw MediaError.library("avformat_alloc_output_context2", code, file: output.destination)
        }
        context = allocated
        context.pointee.pb = output.io
    }

    deinit {
        context.pointee.pb = nil
        avformat_free_context(context)
    }

    private func newStream() throws -> UnsafeMutablePointer<AVStream> {
        guard let stream = avformat_new_stream(context, nil) else {
            throw MediaError.library("avformat_new_stream", cffmpeg_averror_enomem(), file: file)
        }
        return stream
    }

    /// Adds a stream copying `input` (parameters, tags, disposition); `header` replaces its codec private data.
    func addCopy(of input: UnsafeMutablePointer<AVStream>, header: [UInt8]?) throws {
        let stream = try newStream()
        guard let parameters = stream.pointee.codecpar, let source = input.pointee.codecpar else {
            throw MediaError.library("avformat_new_stream", cffmpeg_averror_enomem(), file: file)
        }
        var code = avcodec_parameters_copy(parameters, source)
        if code < 0 { throw MediaError.library("avcodec_parameters_copy", code, file: file) }
        // The codec tag stays: it came from a Matroska demuxer, so the Matroska muxer knows it (raw video
        // needs its FourCC, as in ffmpeg's stream copy).
        stream.pointee.time_base = input.pointee.time_base
        stream.pointee.disposition = input.pointee.disposition
        stream.pointee.avg_frame_rate = input.pointee.avg_frame_rate
        stream.pointee.r_frame_rate = input.pointee.r_frame_rate
        stream.pointee.sample_aspect_ratio = input.pointee.sample_aspect_ratio
        code = av_dict_copy(&stream.pointee.metadata, input.pointee.metadata, 0)
        if code < 0 { throw MediaError.library("av_dict_copy", code, file: file) }
        if let header { try setExtradata(parameters, header) }
    }

    /// Adds an attachment stream (`filename` and `mimetype` tags, the bytes as codec private data).
    func addAttachment(_ attachment: RemuxAttachment) throws {
        let stream = try newStream()
        guard let parameters = stream.pointee.codecpar else {
            throw MediaError.library("avformat_new_stream", cffmpeg_averror_enomem(), file: file)
        }
        parameters.pointee.codec_type = AVMEDIA_TYPE_ATTACHMENT
        parameters.pointee.codec_id =
            attachment.fileName.lowercased().hasSuffix(".ttf") ? AV_CODEC_ID_TTF : AV_CODEC_ID_OTF
        try setExtradata(parameters, [UInt8](attachment.data))
        for (key, value) in [("filename", attachment.fileName), ("mimetype", attachment.mimeType)] {
            let code = av_dict_set(&stream.pointee.metadata, key, value, 0)
            if code < 0 { throw MediaError.library("av_dict_set", code, file: file) }
        }
    }

    /// Replaces the codec private data (allocated with libav's padding, freed with the context).
    private func setExtradata(_ parameters: UnsafeMutablePointer<AVCodecParameters>, _ bytes: [UInt8]) throws {
        av_free(parameters.pointee.extradata)
        parameters.pointee.extradata = nil
        parameters.pointee.extradata_size = 0
        guard !bytes.isEmpty else { return }
        guard let buffer = av_mallocz(bytes.count + 64)?.assumingMemoryBound(to: UInt8.self) else {
            throw MediaError.library("av_mallocz", cffmpeg_averror_enomem(), file: file)
        }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { buffer.update(from: base, count: bytes.count) }
        }
        parameters.pointee.extradata = buffer
        parameters.pointee.extradata_size = Int32(bytes.count)
    }

    /// Copies the file's tags and chapters.
    func copyChaptersAndTags(from input: UnsafeMutablePointer<AVFormatContext>) throws {
        var code = av_dict_copy(&context.pointee.metadata, input.pointee.metadata, 0)
        if code < 0 { throw MediaError.library("av_dict_copy", code, file: file) }
        let count = Int(input.pointee.nb_chapters)
        guard count > 0, let chapters = input.pointee.chapters else { return }
        let slot = MemoryLayout<UnsafeMutablePointer<AVChapter>?>.stride
        guard
            let array = av_mallocz(count * slot)?.bindMemory(to: UnsafeMutablePointer<AVChapter>?.self, capacity: count)
        else { throw MediaError.library("av_mallocz", cffmpeg_averror_enomem(), file: file) }
        // Owned by the context from here on (avformat_free_context frees the array and each chapter).
        context.pointee.chapters = array
        for index in 0..<count {
            guard let original = chapters[index] else { continue }
            guard
                let chapter = av_mallocz(MemoryLayout<AVChapter>.size)?.bindMemory(to: AVChapter.self, capacity: 1)
            else { throw MediaError.library("av_mallocz", cffmpeg_averror_enomem(), file: file) }
            chapter.pointee.id = original.pointee.id
            chapter.pointee.time_base = original.pointee.time_base
            chapter.pointee.start = original.pointee.start
            chapter.pointee.end = original.pointee.end
            array[Int(context.pointee.nb_chapters)] = chapter
            context.pointee.nb_chapters += 1
            code = av_dict_copy(&chapter.pointee.metadata, original.pointee.metadata, 0)
            if code < 0 { throw MediaError.library("av_dict_copy", code, file: file) }
        }
    }

    /// Writes the header. No CRC-32 elements are written (`write_crc32=0`, as mkvmerge does by default): they
    /// are optional in Matroska, and computing them was a quarter of the CPU time of a remux.
    func writeHeader() throws {
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        var code = av_dict_set(&options, "write_crc32", "0", 0)
        if code < 0 { throw MediaError.library("av_dict_set", code, file: file) }
        code = avformat_write_header(context, &options)
        if code < 0 { throw failure("avformat_write_header", code) }
    }

    /// Writes `packet` (timestamps in `timeBase`) to output stream `index`.
    func write(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int, from timeBase: AVRational) throws {
        guard let stream = context.pointee.streams?[index] else { return }
        packet.pointee.stream_index = Int32(index)
        av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
        let none = cffmpeg_nopts_value()
        if packet.pointee.dts != none {
            if let last = lastDTS[index], packet.pointee.dts < last {
                if packet.pointee.pts != none, packet.pointee.pts < last { packet.pointee.pts = last }
                packet.pointee.dts = last
            }
            lastDTS[index] = packet.pointee.dts
        }
        let code = av_write_frame(context, packet)
        if code < 0 { throw failure("av_write_frame", code) }
    }

    /// Writes the trailer, detaches and flushes the output; returns the bytes written.
    func finish() throws -> Int64 {
        let code = av_write_trailer(context)
        if code < 0 { throw failure("av_write_trailer", code) }
        context.pointee.pb = nil
        try output.finish()
        return output.size
    }

    /// A write error as the errno the output met (a full disk says so), else libav's.
    private func failure(_ function: String, _ code: Int32) -> MediaError {
        if output.errorCode != 0 {
            return .write(file: file, cause: "cannot write: \(String(cString: strerror(output.errorCode)))")
        }
        return .library(function, code, file: file)
    }
}
