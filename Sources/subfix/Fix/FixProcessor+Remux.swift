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
            let remuxer = try MatroskaRemuxer(file: media)
            let tracks = try remuxer.readTextTracks()
            if tracks.isEmpty {
                var whole = FixFileResult(input: input.path, output: nil, status: .skipped, fromMedia: true)
                whole.note = "no text subtitle tracks to fix: not remuxed, nothing written"
                return [whole]
            }
            var trackOptions = options
            trackOptions.fixer = SubtitleFixer(
                rewriter: options.fixer.rewriter, encodingHint: options.fixer.encodingHint)
            // The tracks are fixed in parallel (a remux runs alone on its file); the results keep track order.
            let fixOptions = trackOptions
            let outcomes = OrderedWork.map(count: tracks.count, jobs: tracks.count) { position in
                fixTrack(tracks[position], of: input, output: output, options: fixOptions, families: embedder.families)
            }
            var results: [FixFileResult] = []
            var contents: [Int: RemuxTrackContent] = [:]
            var drawnByTrack: [[FontUse: Set<Unicode.Scalar>]] = []
            var drawn: [FontUse: Set<Unicode.Scalar>] = [:]
            var also: [String] = []
            for outcome in outcomes {
                switch outcome {
                case .success(let track):
                    results.append(track.result)
                    if let content = track.content, let stream = track.result.track {
                        contents[stream.index] = content
                    }
                    drawnByTrack.append(track.characters)
                    RemuxFonts.merge(track.characters, into: &drawn)
                    also += track.families
                case .failure(let failure):
                    return failed(failure)
                }
            }
            let subsets: [(font: EmbeddedFont, report: EmbeddedFontReport)]
            do {
                subsets = try embedder.subsets(for: drawn, also: also)
            } catch {
                return failed("\(error.cause); nothing written")
            }
            let existing = try media.attachments.map { ($0, try media.attachmentData(stream: $0.index)) }
            let (added, alreadyAttached) = RemuxFonts.attachments(for: subsets.map(\.font), existing: existing)
            for (position, characters) in drawnByTrack.enumerated() {
                results[position].embedded = RemuxFonts.reports(subsets.map(\.report), drawnIn: characters)
            }
            let notes = alreadyAttached.map { "\($0.font) is already attached as \($0.existing): not added again" }
            let plan = RemuxPlan(tracks: contents, attachments: added)
            var isFolder = false
            if case .folder = options.destination { isFolder = true }
            // Under --out the output mirrors the inputs: a file with nothing to change is copied all the same.
            guard !contents.isEmpty || !added.isEmpty || (isFolder && output != nil) else {
                for index in results.indices { results[index].output = nil }
                results[0].embedNote = (notes + ["nothing to change: the file is not rewritten"]).joined(
                    separator: "; ")
                return results
            }
            let attachedNames = added.map(\.fileName).joined(separator: ", ")
            guard let output else {
                results[0].embedNote =
                    (notes + [
                        "would remux with \(contents.count) track(s) replaced"
                            + (added.isEmpty ? "" : ", attaching \(attachedNames)")
                    ]).joined(separator: "; ")
                return results
            }
            let target: String
            let placement: Placement
            switch options.destination {
            case .dryRun:
                return results
            case .folder:
                if let existing = FixFileSystem.status(output), let source = FixFileSystem.status(input.path),
                    existing.st_dev == source.st_dev, existing.st_ino == source.st_ino
                {
                    return failed(
                        "output '\(output)' is the input itself (use --in-place to rewrite files in place)")
                }
                let folder = (output as NSString).deletingLastPathComponent
                do throws(CommandFailure) {
                    if !folder.isEmpty { try FixFileSystem.makeFolders(folder) }
                } catch {
                    return failed(error)
                }
                target = output
                placement = .replace
            case .inPlace(let suffix):
                // Through a symlink, the file it points to is replaced and the link stays a link.
                target = FixFileSystem.resolved(input.path) ?? input.path
                let backup = input.path + suffix
                do throws(CommandFailure) {
                    try FixFileSystem.checkBackup(of: target, at: backup)
                } catch {
                    return failed(error)
                }
                placement = .keepingOriginal(backup: backup)
            }
            let mode = UInt32((FixFileSystem.status(input.path)?.st_mode ?? 0o644) & 0o666)
            let summary = try remuxer.write(plan, to: target, mode: mode, placement: placement)
            let megabytes = String(format: "%.1f", Double(summary.bytes) / 1_048_576)
            results[0].embedNote =
                (notes + [
                    "remuxed: \(summary.packets) packets copied (\(summary.replacedPackets) of fixed tracks),"
                        + " \(added.count) font(s) attached\(added.isEmpty ? "" : " (\(attachedNames))"),"
                        + " \(megabytes) MB"
                ]).joined(separator: "; ")
            return results
        } catch {
            return failed(CommandFailure(error))
        }
    }

    /// One fixed text track of a remux: its report, its new content when it changed, the characters it draws
    /// with each font, and the families its references were rewritten to.
    struct RemuxedTrack: Sendable {
        var result: FixFileResult
        var content: RemuxTrackContent?
        var characters: [FontUse: Set<Unicode.Scalar>]
        var families: [String]
    }

    /// Fixes one text track (the whole track as one document) and maps the edits back onto its header and
    /// packets; a failure names the track.
    private static func fixTrack(
        _ track: MatroskaTextTrack, of input: FixInput, output: String?, options: FixOptions, families: [String]
    ) -> Result<RemuxedTrack, CommandFailure> {
        let label = "track \(track.stream.playerIndex ?? 0)"
        do throws(CommandFailure) {
            let fixed = try fix(
                track.document, format: track.format, file: "\(input.path) \(label)", options: options,
                languageTags: track.stream.languageTags)
            var result = FixFileResult(
                input: input.path, output: output, fixed: fixed, reportsKeptFonts: options.reportsKeptFonts,
                explanation: options.explanation,
                fromMedia: true, track: track.stream)
            guard fixed.decoded.encoding == .utf8, !fixed.decoded.hasByteOrderMark,
                fixed.decoded.utf8.count == track.document.count
            else {
                throw CommandFailure(cause: "its text is not UTF-8 (\(fixed.decoded.encoding.name))")
            }
            if options.diff && result.status == .changed {
                result.diff = fixed.diff(
                    oldName: "\(input.path) \(label)", newName: "\(output ?? input.path) \(label)")
            }
            var content: RemuxTrackContent?
            if result.status == .changed {
                do {
                    let (header, packets) = try track.applying(fixed.rewrite.edits)
                    content = RemuxTrackContent(header: header, packets: packets)
                } catch {
                    throw CommandFailure(error)
                }
            }
            let characters = RemuxFonts.characters(
                in: fixed.text, format: track.format, file: input.path,
                families: families + fixed.rewrite.targetFamilies)
            return .success(
                RemuxedTrack(
                    result: result, content: content, characters: characters,
                    families: fixed.rewrite.targetFamilies))
        } catch {
            var failure = error.within(label, of: nil)
            failure.cause += "; nothing written"
            return .failure(failure)
        }
    }
}
