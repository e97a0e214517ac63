import Foundation
import SubCore

/// Fixes one file: read, decode, parse, rewrite, encode, write. Never throws: failures become results, and
/// nothing is written for a file that fails. Media files go through `FixProcessor+Media.swift`, which hands
/// each extracted track to the same `fix(_:format:file:options:into:)`.
enum FixProcessor {
    /// Fixes one subtitle file; its write is staged into `commit`'s batch when there is one.
    static func process(
        _ input: FixInput, output: String?, options: FixOptions, commit: FixCommitSlot? = nil
    ) -> FixFileResult {
        var result = FixFileResult(input: input.path, output: output, status: .failed)
        do throws(FixFailure) {
            try run(input, output: output, options: options, commit: commit, result: &result)
        } catch {
            result.fail(error)
        }
        return result
    }

    /// Fixes `original` (a subtitle in `format`, named `file` in messages) through the options' `SubtitleFixer`,
    /// recording the counts, the encoding, the faces chosen and the status in `result`. Writes nothing.
    static func fix(
        _ original: [UInt8], format: SubtitleFormat, file: String, options: FixOptions,
        languageHint: (hint: LanguageHint, source: String)? = nil, attachments: [FontAttachment] = [],
        into result: inout FixFileResult
    ) throws(FixFailure) -> FixedSubtitle {
        let fixed: FixedSubtitle
        do {
            fixed = try options.fixer.fix(
                original, format: format, file: file, languageHint: languageHint, attachments: attachments)
        } catch {
            throw FixFailure(cause: error.cause)
        }
        let rewrite = fixed.rewrite
        result.styles = rewrite.styles
        result.fnTags = rewrite.fnTags
        result.fontTags = rewrite.fontTags
        result.unknownFonts = rewrite.unknownFonts
        result.references = rewrite.references
        result.embedded = fixed.embedded
        result.embedNote = fixed.embedNote
        if options.reportsKeptFonts {
            var seen = Set<String>()
            result.keptFonts = rewrite.references.compactMap { reference in
                guard reference.replacement == nil, seen.insert(reference.font).inserted else { return nil }
                return KeptFont(font: reference.font, reason: reference.reason)
            }
        }
        let source = fixed.decoded.encoding
        let target = fixed.outputEncoding
        result.encoding = target == source ? target.name : "\(source.name) -> \(target.name)"
        result.detection = FixFileResult.Detection(fixed.decoded, output: target)
        result.explanation = options.explanation
        result.status = fixed.changed ? .changed : .unchanged
        return fixed
    }

    private static func run(
        _ input: FixInput, output: String?, options: FixOptions, commit: FixCommitSlot?, result: inout FixFileResult
    ) throws(FixFailure) {
        if let problem = input.problem { throw FixFailure(cause: problem) }
        guard let format = SubtitleFormat(path: input.path) else {
            throw FixFailure(
                cause: "not a subtitle or media file (expected .ass, .ssa, .srt, .vtt or a media file such as .mkv"
                    + " or .mp4)")
        }
        let (original, mode) = try FixFileSystem.read(input.path)
        let fixed = try fix(original, format: format, file: input.path, options: options, into: &result)
        if options.diff && result.status == .changed {
            result.diff = fixed.diff(oldName: input.path, newName: output ?? input.path)
        }

        switch options.destination {
        case .dryRun:
            return
        case .folder:
            guard let output else { return }
            if let existing = FixFileSystem.status(output), let source = FixFileSystem.status(input.path),
                existing.st_dev == source.st_dev, existing.st_ino == source.st_ino
            {
                throw FixFailure(
                    cause: "output '\(output)' is the input itself (use --in-place to rewrite files in place)")
            }
            result.awaitsCommit = try writeUnlessSame(fixed, to: output, mode: mode, commit: commit)
        case .inPlace(let suffix):
            guard result.status == .changed else { return }
            // Through a symlink, the file it points to is rewritten and the link stays a link.
            let target = FixFileSystem.resolved(input.path) ?? input.path
            let backup = input.path + suffix
            try FixFileSystem.checkBackup(of: target, at: backup)
            result.awaitsCommit = try fixed.write(
                to: target, mode: mode, placement: .keepingOriginal(backup: backup), commit: commit)
        }
    }

    /// Writes `fixed` to `output` (creating its folder), unless `output` already holds exactly those bytes;
    /// returns whether the write waits in `commit`'s batch.
    static func writeUnlessSame(
        _ fixed: FixedSubtitle, to output: String, mode: mode_t, commit: FixCommitSlot? = nil
    ) throws(FixFailure) -> Bool {
        let folder = (output as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FixFileSystem.makeFolders(folder) }
        if FixFileSystem.status(output) != nil, let current = try? FixFileSystem.read(output).bytes,
            current == fixed.output
        {
            return false
        }
        return try fixed.write(to: output, mode: mode, commit: commit)
    }
}
