/// A text subtitle track of a Matroska file as one subtitle document, and the way back.
///
/// Matroska keeps a text track in two places: an ASS/SSA track's header (`[Script Info]`, styles, the `[Events]`
/// `Format:` line) is the track's codec private data, and each event is one packet
/// (`ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`, the timing in the packet's timestamps);
/// an SRT or WebVTT packet holds one cue's text. `document` joins them into a script the font rewriter reads
/// (`Dialogue: Layer,0:00:00.00,0:00:00.00,Style,...` per packet, or one numbered cue per packet), remembering
/// where each byte came from; `applying(_:)` maps the rewriter's edits back onto the header and the packets, so
/// everything the edits do not touch keeps its bytes and every packet keeps its timing.
///
///     let track = MatroskaTextTrack(file: "movie.mkv", stream: stream, format: .ass, header: header, packets: packets)
///     let fixed = try fixer.fix(track.document, format: .ass, file: "movie.mkv")
///     let (newHeader, newPackets) = try track.applying(fixed.rewrite.edits)
public struct MatroskaTextTrack: Sendable {
    /// The media file the track is in (named in errors).
    public let file: String
    /// The track, as `MediaFile` describes it.
    public let stream: MediaStream
    /// How the document is written: `.ass` for ASS/SSA tracks, `.srt` for SubRip, `.vtt` for WebVTT.
    public let format: SubtitleFormat
    /// The codec private data (an ASS/SSA track's header), empty when the track has none.
    public let header: [UInt8]
    /// The packets' payloads, in demux order.
    public let packets: [[UInt8]]
    /// The whole track as one subtitle document in `format` (UTF-8 when the track is, as Matroska requires).
    public let document: [UInt8]

    /// Where the bytes of `document` came from: `count` bytes at `start` are bytes at `offset` of `part`.
    private struct Segment: Sendable {
        var start: Int
        var count: Int
        /// -1 for the header, else the packet's position in `packets`.
        var part: Int
        var offset: Int
    }

    private let segments: [Segment]

    /// Joins `header` and `packets` (of a track in `format`) into `document`.
    public init(file: String, stream: MediaStream, format: SubtitleFormat, header: [UInt8], packets: [[UInt8]]) {
        self.file = file
        self.stream = stream
        self.format = format
        self.header = header
        self.packets = packets
        var document: [UInt8] = []
        var segments: [Segment] = []
        func copy(_ bytes: ArraySlice<UInt8>, part: Int) {
            guard !bytes.isEmpty else { return }
            segments.append(Segment(start: document.count, count: bytes.count, part: part, offset: bytes.startIndex))
            document += bytes
        }
        func add(_ text: String) { document += Array(text.utf8) }
        switch format {
        case .ass, .ssa:
            // Events end their lines as the header does (ffmpeg writes CRLF headers).
            let newline = header.firstIndex(of: 0x0A).map { $0 > 0 && header[$0 - 1] == 0x0D } == true ? "\r\n" : "\n"
            copy(header[...], part: -1)
            if let last = header.last, last != 0x0A { add(newline) }
            for (index, packet) in packets.enumerated() {
                // ReadOrder, then Layer (or SSA's Marked), then the fields after the timing.
                guard let first = packet.firstIndex(of: 0x2C),
                    let second = packet[(first + 1)...].firstIndex(of: 0x2C)
                else {
                    // Not an event: kept as a comment line so its bytes still map back.
                    add("; ")
                    copy(packet[...], part: index)
                    add(newline)
                    continue
                }
                add("Dialogue: ")
                copy(packet[(first + 1)..<second], part: index)
                add(",0:00:00.00,0:00:00.00,")
                copy(packet[(second + 1)...], part: index)
                add(newline)
            }
        case .srt:
            for (index, packet) in packets.enumerated() {
                add("\(index + 1)\n00:00:00,000 --> 00:00:00,000\n")
                copy(packet[...], part: index)
                add("\n\n")
            }
        case .vtt:
            if header.isEmpty { add("WEBVTT\n\n") } else { copy(header[...], part: -1) }
            add("\n\n")
            for (index, packet) in packets.enumerated() {
                add("00:00.000 --> 00:00.000\n")
                copy(packet[...], part: index)
                add("\n\n")
            }
        }
        self.document = document
        self.segments = segments
    }

    /// The format a Matroska text codec is rewritten as (`ass` and `ssa` as ASS, `subrip` as SRT, `webvtt`
    /// as WebVTT), nil for the others (`mov_text`, `text`, ...), which are copied as they are.
    public static func format(forCodec codec: String) -> SubtitleFormat? {
        switch codec {
        case "ass", "ssa": return .ass
        case "subrip", "srt": return .srt
        case "webvtt": return .vtt
        default: return nil
        }
    }

    /// The header and packets with `edits` (ranges of `document`) applied. Throws when an edit touches bytes
    /// that were added to make the document (it could not be put back into the track).
    public func applying(_ edits: [TextEdit]) throws(MediaError) -> (header: [UInt8], packets: [[UInt8]]) {
        var byPart: [Int: [(range: Range<Int>, replacement: [UInt8])]] = [:]
        for edit in edits {
            guard let segment = segment(containing: edit.range) else {
                throw MediaError.unsupportedCodec(
                    file: file, playerIndex: stream.playerIndex ?? 0, codec: stream.codec,
                    reason: "a font reference spans bytes the track does not hold (document bytes "
                        + "\(edit.range.lowerBound)..<\(edit.range.upperBound))")
            }
            let start = edit.range.lowerBound - segment.start + segment.offset
            byPart[segment.part, default: []].append((start..<(start + edit.range.count), edit.replacement))
        }
        func apply(_ bytes: [UInt8], _ edits: [(range: Range<Int>, replacement: [UInt8])]?) -> [UInt8] {
            guard let edits, !edits.isEmpty else { return bytes }
            var result = bytes
            for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
                result.replaceSubrange(edit.range, with: edit.replacement)
            }
            return result
        }
        let newHeader = apply(header, byPart[-1])
        let newPackets = packets.enumerated().map { apply($0.element, byPart[$0.offset]) }
        return (newHeader, newPackets)
    }

    /// The segment holding all of `range` (an insertion may sit at either end of it).
    private func segment(containing range: Range<Int>) -> Segment? {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].start + segments[middle].count < range.lowerBound {
                low = middle + 1
            } else {
                high = middle
            }
        }
        var index = low
        while index < segments.count, segments[index].start <= range.lowerBound {
            let segment = segments[index]
            if range.lowerBound >= segment.start, range.upperBound <= segment.start + segment.count {
                return segment
            }
            index += 1
        }
        return nil
    }
}
