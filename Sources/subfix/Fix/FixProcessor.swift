import Foundation
import SubCore

/// Fixes one file: read, decode, parse, rewrite, encode, write. Never throws: failures become results, and
/// nothing is written for a file that fails. Media files go through `FixProcessor+Media.swift`, which hands
/// each extracted track to the same `fix(_:format:file:options:)`.
enum FixProcessor {
    /// Fixes one subtitle file; its write is staged into `commit`'s batch when there is one.
    static func process(
        _ input: FixInput, output: String?, options: FixOptions, commit: FixCommitSlot? = nil
    ) -> FixFileResult {
        do throws(CommandFailure) {
            return try run(input, output: output, options: options, commit: commit)
        } catch {
            return .failed(input.path, error)
        }
    }

    /// Fixes `original` (a subtitle in `format`, named `file` in messages) through the options' `SubtitleFixer`.
    /// Writes nothing; `FixFileResult(input:output:fixed:reportsKeptFonts:)` reports what it did.
    static func fix(
        _ original: [UInt8], format: SubtitleFormat, file: String, options: FixOptions,
        languageTags: LanguageTags? = nil, attachments: [FontAttachment] = []
    ) throws(CommandFailure) -> FixedSubtitle {
        do {
            return try options.fixer.fix(
                original, format: format, file: file, languageTags: languageTags, attachments: attachments)
        } catch {
            throw CommandFailure(error)
        }
    }

    private static func run(
        _ input: FixInput, output: String?, options: FixOptions, commit: FixCommitSlot?
    ) throws(CommandFailure) -> FixFileResult {
        if let problem = input.problem { throw CommandFailure(cause: problem) }
        guard let format = SubtitleFormat(path: input.path) else {
            throw CommandFailure(
                cause: "not a subtitle or media file (expected .ass, .ssa, .srt, .vtt or a media file such as .mkv"
                    + " or .mp4)")
        }
        let (original, mode) = try FixFileSystem.read(input.path)
        let fixed = try fix(original, format: format, file: input.path, options: options)
        var result = FixFileResult(
            input: input.path, output: output, fixed: fixed, reportsKeptFonts: options.reportsKeptFonts,
            explanation: options.explanation)
        if options.diff && result.status == .changed {
            result.diff = fixed.diff(oldName: input.path, newName: output ?? input.path)
        }

        // A failed write keeps the counts of the fix that was done.
        do throws(CommandFailure) {
            result.awaitsCommit = try write(fixed, of: input, to: output, mode: mode, options: options, commit: commit)
        } catch {
            result.fail(error)
        }
        return result
    }

    /// Writes `fixed`, the fix of `input`, where `options.destination` says; returns whether the write waits in
    /// `commit`'s batch.
    private static func write(
        _ fixed: FixedSubtitle, of input: FixInput, to output: String?, mode: mode_t, options: FixOptions,
        commit: FixCommitSlot?
    ) throws(CommandFailure) -> Bool {
        switch options.destination {
        case .dryRun:
            return false
        case .folder:
            guard let output else { return false }
            if let existing = FixFileSystem.status(output), let source = FixFileSystem.status(input.path),
                existing.st_dev == source.st_dev, existing.st_ino == source.st_ino
            {
                throw CommandFailure(
                    cause: "output '\(output)' is the input itself (use --in-place to rewrite files in place)")
            }
            return try writeUnlessSame(fixed, to: output, mode: mode, commit: commit)
        case .inPlace(let suffix):
            guard fixed.changed else { return false }
            // Through a symlink, the file it points to is rewritten and the link stays a link.
            let target = FixFileSystem.resolved(input.path) ?? input.path
            let backup = input.path + suffix
            try FixFileSystem.checkBackup(of: target, at: backup)
            return try fixed.write(
                to: target, mode: mode, placement: .keepingOriginal(backup: backup), commit: commit)
        }
    }

    /// Writes `fixed` to `output` (creating its folder), unless `output` already holds exactly those bytes;
    /// returns whether the write waits in `commit`'s batch.
    static func writeUnlessSame(
        _ fixed: FixedSubtitle, to output: String, mode: mode_t, commit: FixCommitSlot? = nil
    ) throws(CommandFailure) -> Bool {
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
