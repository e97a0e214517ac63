import Foundation
import SubCore

/// One subtitle file to fix: its path, and its path relative to the argument it was found under (the name
/// used below `--out`).
struct FixInput: Sendable, Equatable {
    var path: String
    var relativePath: String
    /// Why the path cannot be used, found while walking (a folder that cannot be listed).
    var problem: String?

    /// Whether the path has a media extension: its text tracks are extracted and fixed as sidecar files.
    var isMedia: Bool { FixInputs.isMedia(path) }
}

/// Finds the subtitle files under the paths given to `subfix fix`.
enum FixInputs {
    /// Whether `path` names a media file (`MediaExtensions`).
    static func isMedia(_ path: String) -> Bool { MediaExtensions.matches(path) }

    /// Files named directly are taken whatever their extension; folders are walked recursively for `.ass`,
    /// `.ssa`, `.srt` and `.vtt` and the media extensions (any case), in name order, following symlinks but never into a folder already
    /// visited (no loops) and never into `excluded` (the `--out` folder, when it lies inside an input folder).
    /// A path that does not exist is kept, so that it is reported as failed.
    static func collect(_ arguments: [String], excluding excluded: String? = nil) -> [FixInput] {
        var inputs: [FixInput] = []
        for argument in arguments {
            let path = argument.count > 1 && argument.hasSuffix("/") ? String(argument.dropLast()) : argument
            guard let info = FixFileSystem.status(path), info.st_mode & S_IFMT == S_IFDIR else {
                inputs.append(FixInput(path: path, relativePath: (path as NSString).lastPathComponent))
                continue
            }
            var visited: Set<[UInt64]> = []
            if let excluded, let skip = FixFileSystem.status(excluded) {
                visited.insert([UInt64(skip.st_dev), UInt64(skip.st_ino)])
            }
            walk(path, relative: "", info: info, visited: &visited, into: &inputs)
        }
        return inputs
    }

    /// The failure for an input folder that is the `--out` folder itself (same device and inode, through any
    /// symlink): its files would be written over themselves, and the walk skips the `--out` folder, so nothing
    /// would be done at all. Nil when no argument is that folder.
    static func outputFolderIsInput(_ arguments: [String], out: String) -> CommandFailure? {
        guard let output = FixFileSystem.status(out), output.st_mode & S_IFMT == S_IFDIR else { return nil }
        for argument in arguments {
            guard let info = FixFileSystem.status(argument), info.st_mode & S_IFMT == S_IFDIR,
                info.st_dev == output.st_dev, info.st_ino == output.st_ino
            else { continue }
            return CommandFailure(
                file: argument,
                cause:
                    "the --out folder '\(out)' is this input folder itself (use --in-place to rewrite files in place)")
        }
        return nil
    }

    private static func walk(
        _ folder: String, relative: String, info: stat, visited: inout Set<[UInt64]>, into inputs: inout [FixInput]
    ) {
        guard visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
        let names: [String]
        switch PathBytes.names(inFolder: folder) {
        case .success(let found): names = found
        case .failure(let error):
            inputs.append(
                FixInput(
                    path: folder, relativePath: relative, problem: "cannot list the folder: \(error.problem.reason)"))
            return
        }
        for name in names.sorted() {
            let path = folder + "/" + name
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            if let child = FixFileSystem.status(path) {
                if child.st_mode & S_IFMT == S_IFDIR {
                    walk(path, relative: childRelative, info: child, visited: &visited, into: &inputs)
                    continue
                }
                guard child.st_mode & S_IFMT == S_IFREG else { continue }
            }
            // Regular files and dangling symlinks with a subtitle or media extension (the latter fail when read).
            if SubtitleFormat(path: name) != nil || isMedia(name) {
                inputs.append(FixInput(path: path, relativePath: childRelative))
            }
        }
    }
}
