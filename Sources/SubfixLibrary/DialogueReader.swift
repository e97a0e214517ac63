import Foundation
import SubCore

/// Reads one subtitle or media file into the sources and lines the library stores: a sidecar decoded as
/// `subfix fix` decodes it (refused when its encoding is ambiguous), or a media file's text tracks extracted in
/// memory. Lines are stored in time order (events that start together keep the file's order), so that a line's
/// neighbours in time are its neighbours by id (`search --context`). The index command and the queue's workers
/// both read through it, on either backend.
///
///     let (file, warning) = try DialogueReader.read(path: "/srv/a.zh.srt", kind: .subtitle(.srt), size: 120, mtime: 0)
public enum DialogueReader {
    /// What a file holds.
    public enum Kind: Sendable, Equatable {
        case subtitle(SubtitleFormat)
        case media
    }

    /// The file as stored, and a warning when a media file could only be read in part. Errors are the ones of
    /// the step that failed (`InputFile`, `TextDecodingError`, `SubtitleParseError`, `MediaError`), a track's
    /// parse error as a `TrackReadError` naming the track.
    public static func read(
        path: String, kind: Kind, size: Int64, mtime: Int64, hint: EncodingHint? = nil
    ) throws -> (file: IndexedFile, warning: String?) {
        switch kind {
        case .subtitle(let format):
            let (source, lines) = try readSubtitle(path, format: format, hint: hint)
            return (
                IndexedFile(
                    path: path, size: size, mtime: mtime, sources: [IndexedSource(source: source, lines: lines)]),
                nil
            )
        case .media:
            return try readMedia(path, size: size, mtime: mtime)
        }
    }

    /// A sidecar subtitle file in any encoding.
    static func readSubtitle(_ path: String, format: SubtitleFormat, hint: EncodingHint?) throws
        -> (SubtitleSourceRecord, [IndexedLine])
    {
        let bytes = try InputFile.read(path).bytes
        let decoded = try TextDecoder.decode(bytes, file: path, hint: hint)
        let lines = try SubtitleDocument(decoded.utf8, format: format, file: path).dialogueLines()
        let source = SubtitleSourceRecord(
            mediaFileId: 0, kind: .sidecar, codec: format.rawValue, language: language(ofSidecar: path),
            encoding: decoded.encoding.name)
        return (source, inTimeOrder(lines))
    }

    /// The text tracks of a media file, read in memory through the extractor.
    static func readMedia(_ path: String, size: Int64, mtime: Int64) throws -> (file: IndexedFile, warning: String?) {
        let media = try MediaFile(path: path)
        let tracks = media.subtitleStreams.filter(\.isText)
        var file = IndexedFile(path: path, size: size, mtime: mtime, duration: media.duration, sources: [])
        guard !tracks.isEmpty else { return (file, nil) }
        let result = try SubtitleExtractor(file: media).extract(tracks: tracks, format: .auto)
        for track in result.tracks {
            let format: SubtitleFormat = track.format == .ass ? .ass : .srt
            let lines: [DialogueLine]
            do {
                lines = try SubtitleDocument([UInt8](track.data), format: format, file: path).dialogueLines()
            } catch {
                // `track N` is always the player's number; a stream without one is named by its stream index.
                let name = track.stream.playerIndex.map { "track \($0)" } ?? "stream \(track.stream.index)"
                throw TrackReadError(file: path, track: name, position: error.position, reason: error.cause)
            }
            let source = SubtitleSourceRecord(
                mediaFileId: 0, kind: .embedded, codec: track.stream.codec, language: track.stream.language,
                title: track.stream.title, playerIndex: track.stream.playerIndex,
                subtitleIndex: track.stream.subtitleIndex)
            file.sources.append(IndexedSource(source: source, lines: inTimeOrder(lines)))
        }
        let warning = result.interruption.map { "\($0); indexed what was readable" }
        return (file, warning)
    }

    /// The lines as stored: in time order, events that start together in the file's order.
    static func inTimeOrder(_ lines: [DialogueLine]) -> [IndexedLine] {
        lines.enumerated().sorted {
            ($0.element.startMilliseconds, $0.offset) < ($1.element.startMilliseconds, $1.offset)
        }.map {
            IndexedLine(
                startMs: $0.element.startMilliseconds, endMs: $0.element.endMilliseconds, style: $0.element.style,
                text: $0.element.plainText)
        }
    }

    /// The language a sidecar's name states, read by SubCore's `SidecarName` (the type that writes the names):
    /// `movie.zh-Hans.srt` → `zh-Hans`, `movie.0.chi.ass` → `chi`, `Movie.zh-Hant.zh.forced.ass` → `zh-Hant`,
    /// `Movie.en.sdh.srt` → `en`; nil when no part is shaped like a tag.
    public static func language(ofSidecar path: String) -> String? {
        SidecarName(fileName: path)?.statedLanguage
    }
}

/// A media file's text track that could not be read as a subtitle: which track, and where and why.
public struct TrackReadError: Error, FileError {
    public var file: String?
    /// `track 2`, or `stream 5` for a stream a player does not list.
    public var track: String
    /// Where in the track's text, when the parser said.
    public var trackPosition: String?
    public var reason: String

    public init(file: String, track: String, position: String?, reason: String) {
        self.file = file
        self.track = track
        self.trackPosition = position
        self.reason = reason
    }

    public var cause: String { track + ": " + (trackPosition.map { "\($0): " } ?? "") + reason }
}
