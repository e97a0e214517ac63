import Foundation
import SubCore

/// Where a worker of `subfix fix` stages its writes: the run's batch, the input's position in it, and what to do
/// when the batch is due.
struct FixCommitSlot: Sendable {
    var batch: CommitBatch
    var key: Int
    var due: @Sendable () -> Void
}

/// The file operations `subfix fix` needs, each failure turned into a `CommandFailure` with the C message. Writes go
/// through SubCore's `AtomicFile`; the corresponding C calls here are `stat`, `lstat`, `mkdir` and `realpath`.
enum FixFileSystem {
    /// The message for an errno value.
    static func message(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The whole content of the file at `path`, refusing FIFOs, devices and folders and anything over the size
    /// limit (`InputFile`).
    static func read(_ path: String) throws(CommandFailure) -> (bytes: [UInt8], mode: mode_t) {
        do {
            return try InputFile.read(path)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// A write failure about the input being fixed: the file written is named in the cause (it is not the
    /// input); a backup in the way is worded with the option that gets past it.
    static func failure(_ error: FileWriteError) -> CommandFailure {
        switch error {
        case .backupExists:
            return CommandFailure(cause: error.cause + " (move it away or choose another --backup-suffix)")
        case .system(let file, _, _):
            return CommandFailure(cause: "'\(file)': " + error.cause)
        }
    }

    /// Writes what `produce` hands the file to `path` through an `AtomicFile`, placed as `placement` says: staged
    /// into `commit`'s batch when there is one (the batch makes it durable and puts it in place with others), else
    /// committed at once. Returns whether the file waits in a batch.
    @discardableResult
    static func write(
        to path: String, mode: mode_t, placement: Placement = .replace, commit: FixCommitSlot? = nil,
        _ produce: (AtomicFile) -> Void
    ) throws(CommandFailure) -> Bool {
        do {
            let file = try AtomicFile(destination: path, mode: mode)
            produce(file)
            if let commit {
                if commit.batch.add(try file.stage(placement), key: commit.key) { commit.due() }
                return true
            }
            try file.commit(placement)
            return false
        } catch {
            throw failure(error)
        }
    }

    /// The backup rule of `--in-place` checked before any work: a failure when `backup` holds another file.
    static func checkBackup(of path: String, at backup: String) throws(CommandFailure) {
        if let conflict = AtomicFile.backupConflict(of: path, backup: backup) { throw failure(conflict) }
    }

    /// Creates `path` and its parents as folders.
    static func makeFolders(_ path: String) throws(CommandFailure) {
        if let info = status(path), info.st_mode & S_IFMT == S_IFDIR { return }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if PathBytes.withCString(current, { mkdir($0, 0o755) }) != 0 && errno != EEXIST {
                throw CommandFailure(cause: "cannot create output folder '\(path)': \(message(errno))")
            }
        }
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else {
            throw CommandFailure(cause: "cannot create output folder '\(path)': \(message(errno))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw CommandFailure(cause: "cannot create output folder '\(path)': \(message(ENOTDIR))")
        }
    }

    /// The path with every symlink resolved (`realpath`), or nil when it cannot be resolved.
    static func resolved(_ path: String) -> String? {
        guard let pointer = PathBytes.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(pointer) }
        return PathBytes.decode(cString: pointer)
    }

    /// `stat` following symlinks; nil when it fails.
    static func status(_ path: String) -> stat? {
        var info = stat()
        return PathBytes.withCString(path) { stat($0, &info) } == 0 ? info : nil
    }

    /// `lstat`: whether anything (even a dangling symlink) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return PathBytes.withCString(path) { lstat($0, &info) } == 0
    }
}
