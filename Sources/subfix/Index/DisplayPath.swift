import Foundation

/// How stored absolute paths are shown: relative to the current directory when below it.
enum DisplayPath {
    /// `path` relative to `directory` (default: the current directory) when it is inside it, else as is.
    static func show(_ path: String, from directory: String = FileManager.default.currentDirectoryPath) -> String {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        if path.hasPrefix(base), path.count > base.count { return String(path.dropFirst(base.count)) }
        return path
    }
}
