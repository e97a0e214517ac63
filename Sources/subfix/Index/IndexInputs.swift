import Foundation
import SubCore
import SubfixLibrary

/// A file `subfix index` looks at: a subtitle file or a media file, with its size and modification time.
struct IndexInput: Sendable, Equatable {
    /// The file read into what the library stores (`DialogueReader`), and a warning when a media file could only
    /// be read in part; a failure names the file and says why.
    func read(hint: EncodingHint? = nil) throws(CommandFailure) -> (file: IndexedFile, warning: String?) {
        let readerKind: DialogueReader.Kind
        switch kind {
        case .subtitle(let format): readerKind = .subtitle(format)
        case .media: readerKind = .media
        }
        do {
            return try DialogueReader.read(path: path, kind: readerKind, size: size, mtime: mtime, hint: hint)
        } catch {
            throw CommandFailure(error, file: path)
        }
    }

    /// What the file holds.
    enum Kind: Sendable, Equatable {
        case subtitle(SubtitleFormat)
        case media
    }

    /// The absolute path, as stored in the library.
    var path: String
    var kind: Kind
    var size: Int64
    /// Nanoseconds since 1970.
    var mtime: Int64
}

/// Finds the files under the paths given to `subfix index`.
enum IndexInputs {
    /// The media file extensions whose text tracks are indexed: the same as `fix` takes.
    static let mediaExtensions = MediaExtensions.all

    /// The kind of file a name is, from its extension (any case); nil for other files.
    static func kind(of name: String) -> IndexInput.Kind? {
        if let format = SubtitleFormat(path: name) { return .subtitle(format) }
        let ext = (name as NSString).pathExtension.lowercased()
        return mediaExtensions.contains(ext) ? .media : nil
    }

    /// `path` made absolute against the current directory, with `.`, `..` and double slashes resolved
    /// (symlinks are kept as named).
    static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The inputs found, the roots walked (absolute), and a failure per argument that cannot be indexed.
    /// Folders are walked recursively in name order, following symlinks but never into a folder already visited.
    static func collect(_ arguments: [String]) -> (inputs: [IndexInput], roots: [String], failures: [(String, String)])
    {
        var inputs: [IndexInput] = []
        var roots: [String] = []
        var failures: [(String, String)] = []
        var seen: Set<String> = []
        var visited: Set<[UInt64]> = []
        for argument in arguments {
            let path = absolute(argument)
            var info = stat()
            guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else {
                failures.append((argument, "cannot read: \(String(cString: strerror(errno)))"))
                continue
            }
            roots.append(path)
            if info.st_mode & S_IFMT == S_IFDIR {
                walk(path, info: info, visited: &visited, seen: &seen, into: &inputs)
            } else if let kind = kind(of: path) {
                if seen.insert(path).inserted { inputs.append(input(path, kind: kind, info: info)) }
            } else {
                failures.append(
                    (
                        argument,
                        "not a subtitle or media file (expected .ass .ssa .srt .vtt or "
                            + "\(mediaExtensions.sorted().map { "." + $0 }.joined(separator: " ")))"
                    ))
            }
        }
        return (inputs, roots, failures)
    }

    private static func input(_ path: String, kind: IndexInput.Kind, info: stat) -> IndexInput {
        IndexInput(
            path: path, kind: kind, size: Int64(info.st_size),
            mtime: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    private static func walk(
        _ folder: String, info: stat, visited: inout Set<[UInt64]>, seen: inout Set<String>,
        into inputs: inout [IndexInput]
    ) {
        guard visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
        guard case .success(let names) = PathBytes.names(inFolder: folder) else { return }
        for name in names.sorted() {
            let path = folder + "/" + name
            var child = stat()
            guard PathBytes.withCString(path, { stat($0, &child) }) == 0 else { continue }
            if child.st_mode & S_IFMT == S_IFDIR {
                walk(path, info: child, visited: &visited, seen: &seen, into: &inputs)
            } else if child.st_mode & S_IFMT == S_IFREG, let kind = kind(of: name), seen.insert(path).inserted {
                inputs.append(input(path, kind: kind, info: child))
            }
        }
    }
}

/// What one `index` run has to do, on either backend: the inputs found, a result for each (new, updated or
/// unchanged by size and mtime, nothing read), the inputs to read, and with `--prune` the recorded files under
/// the walked roots that are gone.
struct IndexPlan {
    var inputs: [IndexInput]
    /// The arguments that could not be walked, then (with prune) the vanished files, as results.
    var results: [IndexFileResult]
    /// One result per input, in input order; those in `pending` are filled in by reading.
    var fileResults: [IndexFileResult]
    /// The positions in `inputs` to read and store.
    var pending: [Int]
    /// With prune: the recorded paths to remove.
    var vanished: [String]

    /// The plan for `paths` against the library's record of `known` files (size and mtime by path).
    init(_ paths: [String], known: [String: (size: Int64, mtime: Int64)], prune: Bool) {
        let (inputs, roots, argumentFailures) = IndexInputs.collect(paths)
        self.inputs = inputs
        results = argumentFailures.map {
            IndexFileResult(file: $0.0, status: .failed, error: CommandFailure(cause: $0.1))
        }
        fileResults = inputs.map { input in
            IndexFileResult(file: DisplayPath.show(input.path), status: known[input.path] == nil ? .new : .updated)
        }
        pending = []
        for (index, input) in inputs.enumerated() {
            if let state = known[input.path], state.size == input.size, state.mtime == input.mtime {
                fileResults[index].status = .unchanged
            } else {
                pending.append(index)
            }
        }
        vanished = []
        if prune {
            let found = Set(inputs.map(\.path))
            vanished = known.keys.filter { path in
                !found.contains(path) && roots.contains { root in path == root || path.hasPrefix(root + "/") }
            }.sorted()
            results += vanished.map { IndexFileResult(file: DisplayPath.show($0), status: .removed) }
        }
    }
}
