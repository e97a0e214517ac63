import Foundation
import SubCore

/// How `subfix fix` writes its results.
enum FixDestination: Sendable, Equatable {
    /// Into a folder, mirroring the inputs' relative paths.
    case folder(String)
    /// Over each input, after keeping a backup with this suffix.
    case inPlace(backupSuffix: String)
    /// Nowhere: only report what would change.
    case dryRun
}

/// The settings of one `subfix fix` run.
struct FixOptions: Sendable {
    var destination: FixDestination
    var rewriter: FontRewriter
    /// Write in the input's own encoding instead of UTF-8.
    var keepEncoding: Bool
    var hint: TextEncoding?
    var diff: Bool
}

/// Fixes one file: read, decode, parse, rewrite, encode, write. Never throws: failures become results, and
/// nothing is written for a file that fails.
enum FixProcessor {
    static func process(_ input: FixInput, output: String?, options: FixOptions) -> FixFileResult {
        var result = FixFileResult(input: input.path, output: output, status: .failed)
        do throws(FixFailure) {
            try run(input, output: output, options: options, result: &result)
        } catch {
            result.status = .failed
            result.output = nil
            result.error = error.cause
            result.diff = nil
        }
        return result
    }

    private static func run(
        _ input: FixInput, output: String?, options: FixOptions, result: inout FixFileResult
    ) throws(FixFailure) {
        if let problem = input.problem { throw FixFailure(cause: problem) }
        guard let format = SubtitleFormat(path: input.path) else {
            throw FixFailure(cause: "not a subtitle file (expected .ass, .ssa, .srt or .vtt)")
        }
        let (original, mode) = try FixFileSystem.read(input.path)
        let decoded: DecodedText
        do {
            decoded = try TextDecoder.decode(original, file: input.path, hint: options.hint)
        } catch {
            throw FixFailure(cause: error.message)
        }
        let document: SubtitleDocument
        do {
            document = try SubtitleDocument(decoded.utf8, format: format, file: input.path)
        } catch {
            throw FixFailure(cause: error.located)
        }
        let rewrite = options.rewriter.rewrite(document)
        result.styles = rewrite.styles
        result.fnTags = rewrite.fnTags
        result.fontTags = rewrite.fontTags
        result.unknownFonts = rewrite.unknownFonts
        let target = options.keepEncoding ? decoded.encoding : .utf8
        result.encoding = target == decoded.encoding ? target.name : "\(decoded.encoding.name) -> \(target.name)"
        // UTF-8 output with edits is streamed from the edits to the file; anything else is built whole.
        let streamed = target == .utf8 && !rewrite.isEmpty
        var bytes: [UInt8] = []
        if rewrite.isEmpty && target == decoded.encoding {
            bytes = original
        } else if !streamed {
            let fixed = TextEdit.apply(rewrite.edits, to: decoded.utf8)
            do throws(TextDecodingError) {
                if options.keepEncoding && !decoded.encoding.isUnicode {
                    // A legacy encoding must give back the very bytes it was read from.
                    let again = try TextDecoder.encode(decoded.utf8, as: target, byteOrderMark: false, file: input.path)
                    if again != original {
                        let offset =
                            zip(again, original).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                            ?? min(again.count, original.count)
                        throw TextDecodingError(
                            file: input.path,
                            cause: .unrepresentable(
                                encoding: target.name,
                                offset: offset))
                    }
                }
                bytes = try TextDecoder.encode(
                    fixed, as: target, byteOrderMark: decoded.hasByteOrderMark,
                    file: input.path)
            } catch {
                throw FixFailure(cause: error.message)
            }
        }
        result.status = streamed || bytes != original ? .changed : .unchanged
        if options.diff && result.status == .changed {
            result.diff = UnifiedDiff.make(
                old: decoded.utf8, new: TextEdit.apply(rewrite.edits, to: decoded.utf8),
                oldName: input.path, newName: output ?? input.path)
        }
        let mark = decoded.hasByteOrderMark ? TextEncoding.utf8.byteOrderMark : []
        let write = { (path: String) throws(FixFailure) in
            guard streamed else { return try FixFileSystem.writeAtomically(bytes, to: path, mode: mode) }
            try FixFileSystem.writeAtomically(to: path, mode: mode) { sink in
                sink.write(mark[...])
                var position = 0
                for edit in rewrite.edits {
                    sink.write(decoded.utf8[position..<edit.range.lowerBound])
                    sink.write(edit.replacement[...])
                    position = edit.range.upperBound
                }
                sink.write(decoded.utf8[position...])
            }
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
            try FixFileSystem.makeFolders((output as NSString).deletingLastPathComponent)
            if !streamed, FixFileSystem.status(output) != nil, let current = try? FixFileSystem.read(output).bytes,
                current == bytes
            {
                return
            }
            try write(output)
        case .inPlace(let suffix):
            guard result.status == .changed else { return }
            let backup = input.path + suffix
            if FixFileSystem.exists(backup) {
                throw FixFailure(
                    cause: "backup '\(backup)' already exists; not overwriting it"
                        + " (move it away or choose another --backup-suffix)")
            }
            try FixFileSystem.writeAtomically(original, to: backup, mode: mode)
            // Through a symlink, the file it points to is rewritten and the link stays a link.
            try write(FixFileSystem.resolved(input.path) ?? input.path)
        }
    }
}
