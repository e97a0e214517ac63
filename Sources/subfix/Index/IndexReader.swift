import Foundation
import SubCore
import SubfixLibrary

/// Reads one input into the sources and lines the library stores.
enum IndexReader {
    /// The parsed file, and a warning when a media file could only be read in part. Subtitle files are decoded
    /// as `subfix fix` decodes them (`hint` is `--encoding-hint`), and refused when their encoding is ambiguous.
    static func read(_ input: IndexInput, hint: EncodingHint? = nil) throws(CommandFailure)
        -> (file: IndexedFile, warning: String?)
    {
        switch input.kind {
        case .subtitle(let format):
            let (source, lines) = try readSubtitle(input.path, format: format, hint: hint)
            return (
                IndexedFile(
                    path: input.path, size: input.size, mtime: input.mtime,
                    sources: [IndexedSource(source: source, lines: lines)]), nil
            )
        case .media:
            return try readMedia(input)
        }
    }

    /// A sidecar subtitle file in any encoding.
    static func readSubtitle(_ path: String, format: SubtitleFormat, hint: EncodingHint? = nil) throws(CommandFailure)
        -> (SubtitleSourceRecord, [IndexedLine])
    {
        let bytes = try FixFileSystem.read(path).bytes
        let decoded: DecodedText
        do {
            decoded = try TextDecoder.decode(bytes, file: path, hint: hint)
        } catch {
            throw CommandFailure(error)
        }
        let lines: [DialogueLine]
        do {
            lines = try SubtitleDocument(decoded.utf8, format: format, file: path).dialogueLines()
        } catch {
            throw CommandFailure(error)
        }
        let source = SubtitleSourceRecord(
            mediaFileId: 0, kind: .sidecar, codec: format.rawValue, language: language(ofSidecar: path),
            encoding: decoded.encoding.name)
        return (source, inTimeOrder(lines))
    }

    /// The text tracks of a media file, read in memory through the extractor.
    static func readMedia(_ input: IndexInput) throws(CommandFailure) -> (file: IndexedFile, warning: String?) {
        do {
            let media = try MediaFile(path: input.path)
            let tracks = media.subtitleStreams.filter(\.isText)
            var file = IndexedFile(
                path: input.path, size: input.size, mtime: input.mtime, duration: media.duration, sources: [])
            guard !tracks.isEmpty else { return (file, nil) }
            let result = try SubtitleExtractor(file: media).extract(tracks: tracks, format: .auto)
            for track in result.tracks {
                let format: SubtitleFormat = track.format == .ass ? .ass : .srt
                let lines: [DialogueLine]
                do {
                    lines = try SubtitleDocument([UInt8](track.data), format: format, file: input.path)
                        .dialogueLines()
                } catch {
                    // `track N` is always the player's number; a stream without one is named by its stream index.
                    let name = track.stream.playerIndex.map { "track \($0)" } ?? "stream \(track.stream.index)"
                    throw CommandFailure(error).within(name, of: input.path)
                }
                let source = SubtitleSourceRecord(
                    mediaFileId: 0, kind: .embedded, codec: track.stream.codec, language: track.stream.language,
                    title: track.stream.title, playerIndex: track.stream.playerIndex,
                    subtitleIndex: track.stream.subtitleIndex)
                file.sources.append(IndexedSource(source: source, lines: inTimeOrder(lines)))
            }
            let warning = result.interruption.map { "\($0); indexed what was readable" }
            return (file, warning)
        } catch {
            throw CommandFailure(error, file: input.path)
        }
    }

    /// The lines as stored: in time order (events in the file's order where they start together), so that a
    /// line's neighbours in time are its neighbours by id, which `search --context` reads in O(context).
    static func inTimeOrder(_ lines: [DialogueLine]) -> [IndexedLine] {
        lines.enumerated().sorted {
            ($0.element.startMilliseconds, $0.offset) < ($1.element.startMilliseconds, $1.offset)
        }.map {
            indexedLine($0.element)
        }
    }

    static func indexedLine(_ line: DialogueLine) -> IndexedLine {
        IndexedLine(
            startMs: line.startMilliseconds, endMs: line.endMilliseconds, style: line.style, text: line.plainText)
    }

    /// The language a sidecar's name states, read by SubCore's `SidecarName` (the type that writes the names):
    /// `movie.zh-Hans.srt` → `zh-Hans`, `movie.0.chi.ass` → `chi`, `Movie.zh-Hant.zh.forced.ass` → `zh-Hant`,
    /// `Movie.en.sdh.srt` → `en`; nil when no part is shaped like a tag.
    static func language(ofSidecar path: String) -> String? {
        SidecarName(fileName: path)?.statedLanguage
    }
}
