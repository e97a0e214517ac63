import Dispatch
import Foundation
import Synchronization

/// Why a Matroska file could not be fixed: one of its text tracks (named by its player index), or the font
/// subsets its tracks need.
public struct MatroskaFixError: Error, FileError {
    public var file: String?
    /// The track (`track 2`), when one failed.
    public var track: String?
    public var reason: String

    public var cause: String { (track.map { "\($0): " } ?? "") + reason }
}

/// Matroska in, fixed Matroska out: every text track fixed by the same `SubtitleFixer` as a sidecar (the track's
/// language and title as its tags), and subsets of the faces the fixed tracks name attached, cut to the
/// characters drawn with each (`FontEmbedder`), minus the ones the file already carries. Video, audio and every
/// other packet are copied as they are (`MatroskaRemuxer`), and the file is written through `AtomicFile`.
///
///     let fixer = MatroskaFixer(fixer: SubtitleFixer(rewriter: rewriter), embedder: embedder)
///     let media = try MediaFile(path: "movie.mkv")
///     let fix = try fixer.plan(media)
///     if fix.changesFile { try fix.write(to: "fixed.mkv", mode: 0o644, placement: .replace) }
public struct MatroskaFixer: Sendable {
    /// Fixes each track (its own embedder is not used: fonts travel as attachments).
    public let fixer: SubtitleFixer
    /// Cuts the subsets attached.
    public let embedder: FontEmbedder

    /// A fixer of tracks with `fixer`, attaching what `embedder` cuts.
    public init(fixer: SubtitleFixer, embedder: FontEmbedder) {
        var trackFixer = fixer
        trackFixer.embedder = nil
        self.fixer = trackFixer
        self.embedder = embedder
    }

    /// One text track, fixed.
    public struct Track: Sendable {
        public var stream: MediaStream
        public var fixed: FixedSubtitle
        /// The track's new header and packets, when the fix changed it.
        public var content: RemuxTrackContent?
        /// The subsets attached for the fonts this track draws with.
        public var embedded: [EmbeddedFontReport] = []
        /// The characters it draws with each font, and the families its references now name.
        var characters: [FontUse: Set<Unicode.Scalar>]
        var families: [String]
    }

    /// What fixing a file does: each text track's fix, the subsets to attach, and the ones already attached.
    /// It holds the file open (not `Sendable`: use it on the thread that planned it).
    public struct Plan {
        /// The text tracks, in stream order.
        public var tracks: [Track]
        /// The attachments to add.
        public var added: [RemuxAttachment]
        /// Subsets the file already carries (same bytes), with the name they carry there: not added again.
        public var alreadyAttached: [(font: String, existing: String)]
        let remuxer: MatroskaRemuxer

        /// Whether the file changes: a track changed, or a subset is to be attached.
        public var changesFile: Bool { tracks.contains { $0.content != nil } || !added.isEmpty }

        /// Writes the fixed file to `target` (permissions `mode`) and places it there; nothing is left behind
        /// when it fails (a damaged or truncated source fails here: `MediaError.notRemuxable`).
        public func write(to target: String, mode: UInt32, placement: Placement) throws -> RemuxSummary {
            var contents: [Int: RemuxTrackContent] = [:]
            for track in tracks { if let content = track.content { contents[track.stream.index] = content } }
            return try remuxer.write(
                RemuxPlan(tracks: contents, attachments: added), to: target, mode: mode, placement: placement)
        }
    }

    /// Reads `media`'s text tracks in one pass, fixes them (in parallel; the results keep stream order), cuts
    /// the subsets they need and plans the attachments. Throws `MediaError` for a file that is not Matroska or
    /// cannot be read, and `MatroskaFixError` for a track that cannot be fixed or subsets that cannot be cut.
    public func plan(_ media: MediaFile) throws -> Plan {
        let remuxer = try MatroskaRemuxer(file: media)
        let textTracks = try remuxer.readTextTracks()
        let outcomes = Mutex([Result<Track, MatroskaFixError>?](repeating: nil, count: textTracks.count))
        let path = media.path
        DispatchQueue.concurrentPerform(iterations: textTracks.count) { position in
            let outcome = fix(textTracks[position], file: path)
            outcomes.withLock { $0[position] = outcome }
        }
        var tracks: [Track] = []
        var drawn: [FontUse: Set<Unicode.Scalar>] = [:]
        var also: [String] = []
        for outcome in outcomes.withLock({ $0 }).compactMap({ $0 }) {
            let track = try outcome.get()
            tracks.append(track)
            RemuxFonts.merge(track.characters, into: &drawn)
            also += track.families
        }
        let subsets: [(font: EmbeddedFont, report: EmbeddedFontReport)]
        do {
            subsets = try embedder.subsets(for: drawn, also: also)
        } catch {
            throw MatroskaFixError(file: media.path, reason: error.cause)
        }
        let existing = try media.attachments.map { ($0, try media.attachmentData(stream: $0.index)) }
        let (added, alreadyAttached) = RemuxFonts.attachments(for: subsets.map(\.font), existing: existing)
        for index in tracks.indices {
            tracks[index].embedded = RemuxFonts.reports(subsets.map(\.report), drawnIn: tracks[index].characters)
        }
        return Plan(tracks: tracks, added: added, alreadyAttached: alreadyAttached, remuxer: remuxer)
    }

    /// Fixes one text track (the whole track as one document) and maps the edits back onto its header and
    /// packets; a failure names the track.
    private func fix(_ track: MatroskaTextTrack, file: String) -> Result<Track, MatroskaFixError> {
        let label = "track \(track.stream.playerIndex ?? 0)"
        func failure(_ reason: String) -> Result<Track, MatroskaFixError> {
            .failure(MatroskaFixError(file: file, track: label, reason: reason))
        }
        let fixed: FixedSubtitle
        do {
            fixed = try fixer.fix(
                track.document, format: track.format, file: "\(file) \(label)", languageTags: track.stream.languageTags)
        } catch {
            return failure(error.cause)
        }
        guard fixed.decoded.encoding == .utf8, !fixed.decoded.hasByteOrderMark,
            fixed.decoded.utf8.count == track.document.count
        else { return failure("its text is not UTF-8 (\(fixed.decoded.encoding.name))") }
        var content: RemuxTrackContent?
        if fixed.changed {
            do {
                let (header, packets) = try track.applying(fixed.rewrite.edits)
                content = RemuxTrackContent(header: header, packets: packets)
            } catch {
                return failure(error.cause)
            }
        }
        let families = fixed.rewrite.targetFamilies
        let characters = RemuxFonts.characters(
            in: fixed.text, format: track.format, file: file, families: embedder.families + families)
        return .success(
            Track(stream: track.stream, fixed: fixed, content: content, characters: characters, families: families))
    }
}
