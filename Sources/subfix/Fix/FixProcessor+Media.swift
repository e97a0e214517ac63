import Foundation
import SubCore

extension FixProcessor {
    /// Extracts every text track of the media file `input` in one demux pass and fixes each one into a sidecar
    /// named as `subfix extract` names it in the `--naming` scheme (`<base>.<subtitleIndex>.<language>.<ext>` by
    /// default), in `folder` (nil for
    /// `--dry-run`; empty for the current folder). The media file itself is only read. Never throws: one result
    /// per text or bitmap track, or one for the whole file when it has no subtitle tracks or cannot be read
    /// (then nothing is written, not even what a truncated file held).
    static func processMedia(
        _ input: FixInput, folder: String?, options: FixOptions, claims: FixClaims
    ) -> [FixFileResult] {
        func failed(_ failure: CommandFailure) -> [FixFileResult] {
            [.failed(input.path, failure, fromMedia: true)]
        }
        if let problem = input.problem { return failed(CommandFailure(cause: problem)) }
        let streams: [MediaStream]
        let extraction: ExtractionResult
        var skipped: [Int: String] = [:]
        var fonts: [FontAttachment] = []
        do {
            let media = try MediaFile(path: input.path, readBudget: options.readBudget)
            // --policy missing counts the fonts the media file carries, as a player loads them.
            if options.fixer.missingFontCatalog != nil {
                fonts = try media.fontAttachments().map { font in
                    FontAttachment(
                        name: font.attachment.fileName ?? "attachment-\(font.attachment.index)", data: font.data)
                }
            }
            streams = media.subtitleStreams
            if streams.isEmpty {
                var whole = FixFileResult(input: input.path, output: nil, status: .skipped, fromMedia: true)
                whole.note = "the file has no subtitle tracks"
                return [whole]
            }
            let extractor = SubtitleExtractor(file: media)
            var text: [MediaStream] = []
            for stream in streams {
                do {
                    text += try extractor.streams(for: [.stream(stream.index)])
                } catch let error as MediaError {
                    skipped[stream.index] = error.cause
                }
            }
            extraction = try extractor.extract(tracks: text, format: .auto)
        } catch {
            return failed(CommandFailure(error))
        }
        if let interruption = extraction.interruption {
            return failed(CommandFailure(cause: interruption.description))
        }
        let base = ((input.path as NSString).lastPathComponent as NSString).deletingPathExtension
        let names = SidecarNamer(naming: options.naming, base: base, streams: streams)
        let mode = (FixFileSystem.status(input.path)?.st_mode ?? 0o644) & 0o666
        return streams.compactMap { stream -> FixFileResult? in
            if let reason = skipped[stream.index] {
                var result = FixFileResult(input: input.path, output: nil, status: .skipped, fromMedia: true)
                result.track = stream
                result.note = reason
                return result
            }
            guard let track = extraction.tracks.first(where: { $0.stream.index == stream.index }) else { return nil }
            return process(
                track, of: input, name: names.name(for: track.stream, format: track.format), folder: folder,
                mode: mode, fonts: fonts, options: options, claims: claims)
        }
    }

    /// Fixes one extracted track and writes its sidecar.
    private static func process(
        _ track: ExtractedTrack, of input: FixInput, name sidecar: SidecarName, folder: String?, mode: mode_t,
        fonts: [FontAttachment], options: FixOptions, claims: FixClaims
    ) -> FixFileResult {
        let name = sidecar.fileName
        let output = folder.map { $0.isEmpty ? name : $0 + "/" + name }
        let label = "track \(track.stream.playerIndex ?? 0)"
        var fixed: FixedSubtitle?
        do throws(CommandFailure) {
            if let problem = track.problems.first {
                let more = track.problems.count > 1 ? " (and \(track.problems.count - 1) more)" : ""
                throw CommandFailure(cause: "\(problem)\(more); no sidecar written")
            }
            if let output {
                switch claims.claim(output, forMedia: input.path) {
                case .file(let other):
                    var result = FixFileResult(input: input.path, output: nil, status: .skipped, fromMedia: true)
                    result.track = track.stream
                    result.note = "\(label): '\(output)' is also the output of '\(other)', which is fixed instead"
                    return result
                case .media(let other):
                    throw CommandFailure(cause: "output '\(output)' is also the output of '\(other)'")
                case nil:
                    break
                }
            }
            let format: SubtitleFormat = track.format == .ass ? .ass : .srt
            let done = try fix(
                [UInt8](track.data), format: format, file: output ?? name, options: options,
                languageTags: track.stream.languageTags, attachments: fonts)
            fixed = done
            var result = FixFileResult(
                input: input.path, output: output, fixed: done, reportsKeptFonts: options.reportsKeptFonts,
                explanation: options.explanation,
                fromMedia: true, track: track.stream)
            if options.diff && result.status == .changed {
                result.diff = done.diff(oldName: "\(input.path) \(label) (extracted)", newName: output ?? name)
            }
            guard let output else { return result }
            try writeSidecar(done, to: output, mode: mode, destination: options.destination)
            return result
        } catch {
            // Every failure names the track: the report line's file is the media file. A failed write keeps the
            // counts of the fix that was done.
            var result =
                fixed.map {
                    FixFileResult(
                        input: input.path, output: output, fixed: $0, reportsKeptFonts: options.reportsKeptFonts,
                        explanation: options.explanation,
                        fromMedia: true, track: track.stream)
                }
                ?? FixFileResult(
                    input: input.path, output: output, status: .failed, fromMedia: true, track: track.stream)
            result.fail(error.within(label, of: input.path))
            return result
        }
    }

    /// Writes the sidecar `fixed` to `output` as `destination` says: into the output folder unless it already
    /// holds those bytes, or over a sidecar already there, which is kept as a backup when it differs.
    private static func writeSidecar(
        _ fixed: FixedSubtitle, to output: String, mode: mode_t, destination: FixDestination
    ) throws(CommandFailure) {
        switch destination {
        case .dryRun:
            break
        case .folder:
            _ = try writeUnlessSame(fixed, to: output, mode: mode)
        case .inPlace(let suffix):
            var placement = Placement.replace
            if FixFileSystem.exists(output) {
                if try FixFileSystem.read(output).bytes == fixed.output { return }
                try FixFileSystem.checkBackup(of: output, at: output + suffix)
                placement = .keepingOriginal(backup: output + suffix)
            }
            try fixed.write(to: output, mode: mode, placement: placement)
        }
    }
}
