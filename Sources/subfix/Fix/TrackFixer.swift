import Foundation
import SubCore

/// `subfix extract --fix`: runs each extracted track through `FixProcessor.fix` (the very rewriting `subfix fix`
/// does to a file) before `SubtitleTrackWriter` writes it, and keeps what it did for the report.
final class TrackFixer {
    private let options: FixOptions
    /// The result of each fixed track, by stream index.
    private(set) var results: [Int: FixFileResult] = [:]

    /// A fixer for the rewrite options in `arguments`.
    init(_ arguments: ParsedArguments, io: CommandIO) throws {
        let (fixer, reportsKeptFonts) = try RewriteOptions.fixer(arguments, io: io)
        options = FixOptions(destination: .dryRun, fixer: fixer, diff: false, reportsKeptFonts: reportsKeptFonts)
    }

    /// The transform for `SubtitleTrackWriter.write`; tracks are named `<base>...` in messages. Throws a
    /// `CommandFailure` for a track that cannot be fixed (then no track is written).
    func transform(base: String) -> SubtitleTrackWriter.Transform {
        { [self] track in
            let name = track.fileName(base: base)
            let fixed: FixedSubtitle
            do throws(CommandFailure) {
                fixed = try FixProcessor.fix(
                    [UInt8](track.data), format: track.format == .ass ? .ass : .srt, file: name, options: options,
                    languageHint: track.stream.languageHint)
            } catch {
                // The error line names the media file: say which track.
                throw error.within("track \(track.stream.playerIndex ?? 0) (\(name))", of: nil)
            }
            results[track.stream.index] = FixFileResult(
                input: name, output: nil, fixed: fixed, reportsKeptFonts: options.reportsKeptFonts)
            return Data(fixed.output)
        }
    }
}
