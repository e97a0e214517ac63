import Foundation
import SubCore
import SubDB
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
        return (source, lines.map(indexedLine))
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
                    throw CommandFailure(error).within(
                        "track \(track.stream.playerIndex ?? track.stream.index)", of: input.path)
                }
                let source = SubtitleSourceRecord(
                    mediaFileId: 0, kind: .embedded, codec: track.stream.codec, language: track.stream.language,
                    title: track.stream.title, playerIndex: track.stream.playerIndex,
                    subtitleIndex: track.stream.subtitleIndex)
                file.sources.append(IndexedSource(source: source, lines: lines.map(indexedLine)))
            }
            let warning = result.interruption.map { "\($0); indexed what was readable" }
            return (file, warning)
        } catch {
            throw CommandFailure(error, file: input.path)
        }
    }

    static func indexedLine(_ line: DialogueLine) -> IndexedLine {
        IndexedLine(
            startMs: line.startMilliseconds, endMs: line.endMilliseconds, style: line.style, text: line.plainText)
    }

    /// The language tag a sidecar's name carries before its extension: `movie.zh-Hans.srt` → `zh-Hans`,
    /// `movie.ja.ass` → `ja`; nil when the part is not shaped like a tag (2-3 letters, then `-` subtags).
    static func language(ofSidecar path: String) -> String? {
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let candidate = (name as NSString).pathExtension
        let parts = candidate.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count),
            first.allSatisfy({ $0.isASCII && $0.isLetter }),
            parts.dropFirst().allSatisfy({
                (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            })
        else { return nil }
        return candidate
    }
}
