import Foundation
import SubCore

/// `subfix extract --fix`: runs each extracted track through `FixProcessor.fix` (the very rewriting `subfix fix`
/// does to a file) before `SubtitleTrackWriter` writes it, and returns what it did for the report.
struct TrackFixer {
    private let options: FixOptions

    /// A fixer for the rewrite options in `arguments`.
    init(_ arguments: ParsedArguments, io: CommandIO) throws {
        let (fixer, reportsKeptFonts) = try RewriteOptions.fixer(arguments, io: io)
        options = FixOptions(destination: .dryRun, fixer: fixer, diff: false, reportsKeptFonts: reportsKeptFonts)
    }

    /// The tracks with their fixed bytes, and what was done to each, by stream index; tracks are named by
    /// `names` in messages. Throws a `CommandFailure` naming the track when one cannot be fixed (then no track
    /// is to be written).
    func fix(_ tracks: [ExtractedTrack], names: SidecarNamer) throws(CommandFailure) -> (
        tracks: [ExtractedTrack], results: [Int: FixFileResult]
    ) {
        var fixedTracks: [ExtractedTrack] = []
        var results: [Int: FixFileResult] = [:]
        for track in tracks {
            let name = names.name(for: track.stream, format: track.format).fileName
            let fixed: FixedSubtitle
            do throws(CommandFailure) {
                fixed = try FixProcessor.fix(
                    [UInt8](track.data), format: track.format == .ass ? .ass : .srt, file: name, options: options,
                    languageTags: track.stream.languageTags)
            } catch {
                // The error line names the media file: say which track.
                throw error.within("track \(track.stream.playerIndex ?? 0) (\(name))", of: nil)
            }
            results[track.stream.index] = FixFileResult(
                input: name, output: nil, fixed: fixed, reportsKeptFonts: options.reportsKeptFonts,
                explanation: options.explanation)
            var copy = track
            copy.data = Data(fixed.output)
            fixedTracks.append(copy)
        }
        return (fixedTracks, results)
    }
}
