import Foundation
import SubCore

extension FixedSubtitle {
    /// Writes the output to `path` through an `AtomicFile` with permissions `mode`, placed as `placement` says
    /// (staged into `commit`'s batch when there is one); returns whether it waits in the batch.
    @discardableResult
    func write(
        to path: String, mode: mode_t, placement: Placement = .replace, commit: FixCommitSlot? = nil
    ) throws(CommandFailure) -> Bool {
        try FixFileSystem.write(to: path, mode: mode, placement: placement, commit: commit) { file in
            write { file.write($0) }
        }
    }

    /// The unified diff of the decoded text against the fixed text.
    func diff(oldName: String, newName: String) -> String {
        UnifiedDiff.make(old: decoded.utf8, new: text, oldName: oldName, newName: newName)
    }
}
