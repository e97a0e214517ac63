import Foundation
import SubCore

/// One subtitle fixed in memory: what the rewriter did and the bytes to write, not yet written anywhere.
struct FixedSubtitle {
    /// The bytes as read or extracted.
    var original: [UInt8]
    var decoded: DecodedText
    var rewrite: FontRewrite
    /// UTF-8 output with edits is streamed from the edits when written (`bytes` is then empty); anything else is
    /// built whole in `bytes`.
    var streamed: Bool
    var bytes: [UInt8]

    /// Whether the output differs from the original bytes.
    var changed: Bool { streamed || bytes != original }

    /// The output bytes, whole.
    var output: [UInt8] {
        guard streamed else { return bytes }
        return mark + TextEdit.apply(rewrite.edits, to: decoded.utf8)
    }

    private var mark: [UInt8] { decoded.hasByteOrderMark ? TextEncoding.utf8.byteOrderMark : [] }

    /// Writes the output to `path` atomically with permissions `mode`.
    func write(to path: String, mode: mode_t) throws(FixFailure) {
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

    /// The unified diff of the decoded text against the fixed text.
    func diff(oldName: String, newName: String) -> String {
        UnifiedDiff.make(
            old: decoded.utf8, new: TextEdit.apply(rewrite.edits, to: decoded.utf8), oldName: oldName,
            newName: newName)
    }
}
