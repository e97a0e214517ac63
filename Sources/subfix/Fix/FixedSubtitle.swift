import Foundation
import SubCore

extension FixedSubtitle {
    /// Writes the output to `path` atomically with permissions `mode`.
    func write(to path: String, mode: mode_t) throws(FixFailure) {
        try FixFileSystem.writeAtomically(to: path, mode: mode) { sink in
            write { sink.write($0) }
        }
    }

    /// The unified diff of the decoded text against the fixed text.
    func diff(oldName: String, newName: String) -> String {
        UnifiedDiff.make(old: decoded.utf8, new: text, oldName: oldName, newName: newName)
    }
}
