import Foundation

/// Writes extracted tracks as files named by a `SidecarNamer` (`<base>.<subtitleIndex>.<language>.<ext>` in the
/// `subfix` scheme, `Movie.ja.default.ass` in Jellyfin's), each through an optional transform first (`extract --fix` plugs the font rewriter in here). All tracks are staged as temporary files
/// before any is moved into place, so a failure leaves none of them behind.
///
///     let result = try SubtitleExtractor(file: media).extract(tracks: media.subtitleStreams, format: .auto)
///     let names = SidecarNamer(naming: .subfix, base: "movie", streams: media.subtitleStreams)
///     let urls = try SubtitleTrackWriter.write(result.tracks, names: names, to: folder) { track in track.data }
public enum SubtitleTrackWriter {
    /// What a caller may do to a track's bytes before they are written.
    public typealias Transform = (ExtractedTrack) throws -> Data

    /// One track written to disk.
    public struct Written: Sendable, Equatable {
        /// The track (with its bytes as extracted, before any transform).
        public var track: ExtractedTrack
        /// Its name, as parts.
        public var name: SidecarName
        /// Where it was written.
        public var url: URL
    }

    /// Writes each of `tracks` into `directory` (created if missing), replacing files of the same name.
    public static func write(
        _ tracks: [ExtractedTrack], names: SidecarNamer, to directory: URL, transform: Transform? = nil
    ) throws -> [Written] {
        try AttachmentWriter.createDirectory(directory)
        // Every track is written before any is put in place; the files not placed remove themselves.
        var staged: [(ExtractedTrack, SidecarName, URL, AtomicFile)] = []
        for track in tracks {
            let data = try transform?(track) ?? track.data
            let name = names.name(for: track.stream, format: track.format)
            let destination = directory.appendingPathComponent(name.fileName)
            do {
                let file = try AtomicFile(destination: destination.path, mode: FileCreationMode.newFile)
                file.write([UInt8](data)[...])
                staged.append((track, name, destination, file))
            } catch {
                throw MediaError.write(file: destination.path, cause: error.cause)
            }
        }
        var written: [Written] = []
        for (track, name, url, file) in staged {
            do {
                try file.commit()
            } catch {
                throw MediaError.write(file: url.path, cause: error.cause)
            }
            written.append(Written(track: track, name: name, url: url))
        }
        return written
    }
}
