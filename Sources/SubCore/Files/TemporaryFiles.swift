import Foundation
import Synchronization

/// The temporary files `AtomicFile` writes before renaming them into place (`.NAME.subfix-XXXXXX`), and the
/// removal of those a killed subfix left behind. A live writer holds an exclusive `flock` on its temporary file
/// until it is renamed, so a file whose lock can be taken belongs to no running subfix and is removed. Each folder
/// is looked at once per run, under an exclusive lock on the folder that writers take shared while they create and
/// lock a temporary file. The corresponding C calls are `opendir`, `open`, `flock` and `unlink`.
package enum TemporaryFiles {
    /// What a temporary file's name carries between the target's name and the six random characters.
    package static let marker = ".subfix-"

    /// The folders already cleaned in this process.
    private static let cleaned = Mutex<Set<String>>([])

    /// Whether `name` has the shape of a temporary file: `.`, a name, `.subfix-`, six characters.
    package static func isTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), let range = name.range(of: marker, options: .backwards) else { return false }
        return name.distance(from: range.upperBound, to: name.endIndex) == 6
            && name.distance(from: name.startIndex, to: range.lowerBound) > 1
    }

    /// Removes the temporary files in `folder` that no live subfix holds; returns their names. Does nothing for a
    /// folder already cleaned in this run.
    /// The listing runs under the lock, so that no thread of this run creates a temporary file in the folder
    /// (and has not yet locked it) while it is being cleaned.
    @discardableResult
    package static func removeStale(in folder: String) -> [String] {
        cleaned.withLock { cleaned in
            guard cleaned.insert(folder).inserted else { return [] }
            return removeUnlocked(in: folder)
        }
    }

    /// Runs `body` holding the folder's own `flock`, shared (creating a temporary file and locking it) or
    /// exclusive (cleaning): another process never cleans between a writer's `mkstemp` and its `flock`. Without
    /// a folder descriptor (no permission to open it) `body` runs unlocked.
    package static func withFolderLock<Result>(_ folder: String, exclusive: Bool, _ body: () throws -> Result) rethrows
        -> Result
    {
        let descriptor = PathBytes.withCString(folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 && errno == EINTR {}
        return try body()
    }

    private static func removeUnlocked(in folder: String) -> [String] {
        withFolderLock(folder, exclusive: true) { removeUnheld(in: folder) }
    }

    private static func removeUnheld(in folder: String) -> [String] {
        guard case .success(let names) = PathBytes.names(inFolder: folder) else { return [] }
        var removed: [String] = []
        for name in names where isTemporary(name) {
            let path = folder + "/" + name
            let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                flock(descriptor, LOCK_EX | LOCK_NB) == 0
            else { continue }
            if PathBytes.withCString(path, { unlink($0) }) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Forgets which folders were cleaned (tests run several commands in one process).
    package static func reset() { cleaned.withLock { $0.removeAll() } }
}
