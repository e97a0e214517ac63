import Foundation

/// Writes extracted tracks as files named `<base>.<subtitleIndex>.<language>.<ext>`, each through an optional
/// transform first (`extract --fix` plugs the font rewriter in here). All tracks are staged as temporary files
/// before any is moved into place, so a failure leaves none of them behind.
///
///     let result = try SubtitleExtractor(file: media).extract(tracks: media.subtitleStreams, format: .auto)
///     let urls = try SubtitleTrackWriter.write(result.tracks, base: "movie", to: folder) { track in track.data }
public enum SubtitleTrackWriter {
    /// What a caller may do to a track's bytes before they are written.
    public typealias Transform = (ExtractedTrack) throws -> Data

    /// One track written to disk.
    public struct Written: Sendable, Equatable {
        /// The track (with its bytes as extracted, before any transform).
        public var track: ExtractedTrack
        /// Where it was written.
        public var url: URL
    }

    /// Writes each of `tracks` into `directory` (created if missing), replacing files of the same name.
    public static func write(
        _ tracks: [ExtractedTrack], base: String, to directory: URL, transform: Transform? = nil
    ) throws -> [Written] {
        try AttachmentWriter.createDirectory(directory)
        // Every track is written before any is put in place; the files not placed remove themselves.
        var staged: [(ExtractedTrack, URL, AtomicFile)] = []
        for track in tracks {
            let data = try transform?(track) ?? track.data
            let destination = directory.appendingPathComponent(track.fileName(base: base))
            do {
                let file = try AtomicFile(destination: destination.path, mode: FileCreationMode.newFile)
                file.write([UInt8](data)[...])
                staged.append((track, destination, file))
            } catch {
                throw MediaError.write(file: destination.path, cause: error.cause)
            }
        }
        var written: [Written] = []
        for (track, url, file) in staged {
            do {
                try file.commit()
            } catch {
                throw MediaError.write(file: url.path, cause: error.cause)
            }
            written.append(Written(track: track, url: url))
        }
        return written
    }
}
