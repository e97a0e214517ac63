import Foundation
import SubCore

/// Fixes one file: read, decode, parse, rewrite, encode, write. Never throws: failures become results, and
/// nothing is written for a file that fails. Media files go through `FixProcessor+Media.swift`, which hands
/// each extracted track to the same `fix(_:format:file:options:into:)`.
enum FixProcessor {
    static func process(_ input: FixInput, output: String?, options: FixOptions) -> FixFileResult {
        var result = FixFileResult(input: input.path, output: output, status: .failed)
        do throws(FixFailure) {
            try run(input, output: output, options: options, result: &result)
        } catch {
            result.fail(error)
        }
        return result
    }

    /// Decodes, parses and rewrites `original` (a subtitle in `format`, named `file` in messages), recording the
    /// counts, the encoding and the status in `result`. Writes nothing.
    static func fix(
        _ original: [UInt8], format: SubtitleFormat, file: String, options: FixOptions,
        into result: inout FixFileResult
    ) throws(FixFailure) -> FixedSubtitle {
        let decoded: DecodedText
        do {
            decoded = try TextDecoder.decode(original, file: file, hint: options.hint)
        } catch {
            throw FixFailure(cause: error.message)
        }
        let document: SubtitleDocument
        do {
            document = try SubtitleDocument(decoded.utf8, format: format, file: file)
        } catch {
            throw FixFailure(cause: error.located)
        }
        var rewriter = options.rewriter
        var missing: MissingFontPolicy?
        if let catalog = options.missingFonts {
            let policy = MissingFontPolicy(catalog: catalog)
            missing = policy
            rewriter = FontRewriter(targetFont: rewriter.targetFont, policy: policy.policy)
        }
        let rewrite = rewriter.rewrite(document)
        result.keptFonts = missing?.keptFonts(rewrite.unknownFonts)
        result.styles = rewrite.styles
        result.fnTags = rewrite.fnTags
        result.fontTags = rewrite.fontTags
        result.unknownFonts = rewrite.unknownFonts
        let target = options.keepEncoding ? decoded.encoding : .utf8
        result.encoding = target == decoded.encoding ? target.name : "\(decoded.encoding.name) -> \(target.name)"
        let streamed = target == .utf8 && !rewrite.isEmpty
        var bytes: [UInt8] = []
        if rewrite.isEmpty && target == decoded.encoding {
            bytes = original
        } else if !streamed {
            let fixed = TextEdit.apply(rewrite.edits, to: decoded.utf8)
            do throws(TextDecodingError) {
                if options.keepEncoding && !decoded.encoding.isUnicode {
                    // A legacy encoding must give back the very bytes it was read from.
                    let again = try TextDecoder.encode(decoded.utf8, as: target, byteOrderMark: false, file: file)
                    if again != original {
                        let offset =
                            zip(again, original).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                            ?? min(again.count, original.count)
                        throw TextDecodingError(
                            file: file, cause: .unrepresentable(encoding: target.name, offset: offset))
                    }
                }
                bytes = try TextDecoder.encode(
                    fixed, as: target, byteOrderMark: decoded.hasByteOrderMark, file: file)
            } catch {
                throw FixFailure(cause: error.message)
            }
        }
        let fixed = FixedSubtitle(
            original: original, decoded: decoded, rewrite: rewrite, streamed: streamed, bytes: bytes)
        result.status = fixed.changed ? .changed : .unchanged
        return fixed
    }

    private static func run(
        _ input: FixInput, output: String?, options: FixOptions, result: inout FixFileResult
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
            try writeUnlessSame(fixed, to: output, mode: mode)
        case .inPlace(let suffix):
            guard result.status == .changed else { return }
            try FixFileSystem.keepBackup(original, at: input.path + suffix, mode: mode)
            // Through a symlink, the file it points to is rewritten and the link stays a link.
            try fixed.write(to: FixFileSystem.resolved(input.path) ?? input.path, mode: mode)
        }
    }

    /// Writes `fixed` to `output` (creating its folder), unless `output` already holds exactly those bytes.
    static func writeUnlessSame(_ fixed: FixedSubtitle, to output: String, mode: mode_t) throws(FixFailure) {
        let folder = (output as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FixFileSystem.makeFolders(folder) }
        if !fixed.streamed, FixFileSystem.status(output) != nil,
            let current = try? FixFileSystem.read(output).bytes, current == fixed.bytes
        {
            return
        }
        try fixed.write(to: output, mode: mode)
    }
}
