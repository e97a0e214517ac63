import Foundation

/// A media file's embedded subtitle track as something the renderer draws: the track read by
/// `SubtitleExtractor` (in memory, the bytes `ffmpeg -map 0:s:N` writes) with the file's font attachments
/// (`MediaFile.fontAttachments()`). ASS tracks keep their own header and styles; other text tracks are read as
/// SRT and get subfix's default style, as SRT files do.
///
///     let input = try MediaSubtitles.input(path: "tram.mkv", track: .player(1))   // VLC's first subtitle
public enum MediaSubtitles {
    /// The track `track` names (player, subtitle or stream index, see `TrackIndex`) of the media at `path`.
    /// Throws `MediaError` (with `TrackIndex`'s messages for bad indexes, `bitmapTrack` for PGS and the like)
    /// or `RenderError` when the extracted text cannot be read.
    public static func input(path: String, track: TrackIndex.Selector) throws -> SubtitleInput {
        let media = try MediaFile(path: path)
        let extractor = SubtitleExtractor(file: media)
        let streams = try extractor.streams(for: [track])
        let result = try extractor.extract(tracks: streams, format: .auto)
        guard let extracted = result.tracks.first else {
            throw MediaError.noSuchTrack(file: path, requested: "\(track)", available: media.trackIndex.listing)
        }
        let name = "\(path)#s:\(extracted.stream.subtitleIndex ?? 0)"
        let text = String(decoding: extracted.data, as: UTF8.self)
        let script: String
        switch extracted.format {
        case .ass: script = text
        case .srt: script = try CueConverter.assText(fromSRT: text, file: name)
        }
        let attachments = try media.fontAttachments().map { font in
            FontAttachment(name: font.attachment.fileName ?? "attachment-\(font.attachment.index)", data: font.data)
        }
        return SubtitleInput(name: name, assText: script, attachments: attachments)
    }
}
