import Foundation
import SubCore

extension FixProcessor {
    /// `subfix fix MEDIA --remux`: fixes every text track of a Matroska file (the same `SubtitleFixer` as
    /// sidecars, the track's language tag as the language hint) and writes the file again through
    /// `MatroskaRemuxer` with the fixed tracks and, as attachments, subsets of the faces they now name (only
    /// the characters drawn with them). `output` is the file to write (`--out`: the mirrored path;
    /// `--in-place`: the input; nil for `--dry-run`). Never throws: one result per text track, or one for the
    /// whole file when it is skipped or fails (then nothing is written).
    static func processRemux(_ input: FixInput, output: String?, options: FixOptions) -> [FixFileResult] {
        func failed(_ failure: CommandFailure) -> [FixFileResult] {
            [.failed(input.path, failure, fromMedia: true)]
        }
        func failed(_ cause: String) -> [FixFileResult] { failed(CommandFailure(cause: cause)) }
        if let problem = input.problem { return failed(problem) }
        guard let embedder = options.remuxEmbedder else { return failed("no font catalog to attach fonts from") }
        do {
            let media = try MediaFile(path: input.path, readBudget: options.readBudget)
            let plan: MatroskaFixer.Plan
            do {
                plan = try MatroskaFixer(fixer: options.fixer, embedder: embedder).plan(media)
            } catch let error as MatroskaFixError {
                return failed("\(error.cause); nothing written")
            }
            if plan.tracks.isEmpty {
                var whole = FixFileResult(input: input.path, output: nil, status: .skipped, fromMedia: true)
                whole.note = "no text subtitle tracks to fix: not remuxed, nothing written"
                return [whole]
            }
            var results = plan.tracks.map { report($0, of: input, output: output, options: options) }
            let notes = plan.alreadyAttached.map { "\($0.font) is already attached as \($0.existing): not added again" }
            var isFolder = false
            if case .folder = options.destination { isFolder = true }
            // Under --out the output mirrors the inputs: a file with nothing to change is copied all the same.
            guard plan.changesFile || (isFolder && output != nil) else {
                for index in results.indices { results[index].output = nil }
                results[0].embedNote = (notes + ["nothing to change: the file is not rewritten"]).joined(
                    separator: "; ")
                return results
            }
            let attachedNames = plan.added.map(\.fileName).joined(separator: ", ")
            let changedTracks = plan.tracks.count { $0.content != nil }
            guard let output, let (target, placement) = try destination(of: input, output: output, options: options)
            else {
                results[0].embedNote =
                    (notes + [
                        "would remux with \(changedTracks) track(s) replaced"
                            + (plan.added.isEmpty ? "" : ", attaching \(attachedNames)")
                    ]).joined(separator: "; ")
                return results
            }
            let mode = UInt32((FixFileSystem.status(input.path)?.st_mode ?? 0o644) & 0o666)
            let summary = try plan.write(to: target, mode: mode, placement: placement)
            let megabytes = String(format: "%.1f", Double(summary.bytes) / 1_048_576)
            results[0].embedNote =
                (notes + [
                    "remuxed: \(summary.packets) packets copied (\(summary.replacedPackets) of fixed tracks),"
                        + " \(plan.added.count) font(s) attached\(plan.added.isEmpty ? "" : " (\(attachedNames))"),"
                        + " \(megabytes) MB"
                ]).joined(separator: "; ")
            return results
        } catch let failure as CommandFailure {
            return failed(failure)
        } catch {
            return failed(CommandFailure(error))
        }
    }

    /// Where the remuxed file goes and how it is placed: `--out`'s mirrored path (never the input itself), or the
    /// input (resolved through a symlink) with its backup kept; nil for `--dry-run`. Throws a `CommandFailure`
    /// when the folder cannot be made or the backup is taken.
    private static func destination(
        of input: FixInput, output: String, options: FixOptions
    ) throws(CommandFailure) -> (target: String, placement: Placement)? {
        switch options.destination {
        case .dryRun:
            return nil
        case .folder:
            if let existing = FixFileSystem.status(output), let source = FixFileSystem.status(input.path),
                existing.st_dev == source.st_dev, existing.st_ino == source.st_ino
            {
                throw CommandFailure(
                    cause: "output '\(output)' is the input itself (use --in-place to rewrite files in place)")
            }
            let folder = (output as NSString).deletingLastPathComponent
            if !folder.isEmpty { try FixFileSystem.makeFolders(folder) }
            return (output, .replace)
        case .inPlace(let suffix):
            // Through a symlink, the file it points to is replaced and the link stays a link.
            let target = FixFileSystem.resolved(input.path) ?? input.path
            let backup = input.path + suffix
            try FixFileSystem.checkBackup(of: target, at: backup)
            return (target, .keepingOriginal(backup: backup))
        }
    }

    /// The report of one fixed track: what the fix did, its diff with `--diff`, and the subsets attached for it.
    private static func report(
        _ track: MatroskaFixer.Track, of input: FixInput, output: String?, options: FixOptions
    ) -> FixFileResult {
        let label = "track \(track.stream.playerIndex ?? 0)"
        var result = FixFileResult(
            input: input.path, output: output, fixed: track.fixed, reportsKeptFonts: options.reportsKeptFonts,
            explanation: options.explanation, fromMedia: true, track: track.stream)
        if options.diff && result.status == .changed {
            result.diff = track.fixed.diff(
                oldName: "\(input.path) \(label)", newName: "\(output ?? input.path) \(label)")
        }
        result.embedded = track.embedded
        return result
    }
}
