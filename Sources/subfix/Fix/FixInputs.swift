import Foundation
import SubCore

/// One subtitle file to fix: its path, and its path relative to the argument it was found under (the name
/// used below `--out`).
struct FixInput: Sendable, Equatable {
    var path: String
    var relativePath: String
    /// Why the path cannot be used, found while walking (a folder that cannot be listed).
    var problem: String?
}

/// Finds the subtitle files under the paths given to `subfix fix`.
enum FixInputs {
    /// Files named directly are taken whatever their extension; folders are walked recursively for `.ass`,
    /// `.ssa`, `.srt` and `.vtt` (any case), in name order, following symlinks but never into a folder already
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

    private static func walk(
        _ folder: String, relative: String, info: stat, visited: inout Set<[UInt64]>, into inputs: inout [FixInput]
    ) {
        guard visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? "\(error)"
            inputs.append(FixInput(path: folder, relativePath: relative, problem: "cannot list the folder: \(reason)"))
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
            // Regular files and dangling symlinks with a subtitle extension (the latter fail when read).
            if SubtitleFormat(path: name) != nil {
                inputs.append(FixInput(path: path, relativePath: childRelative))
            }
        }
    }
}
