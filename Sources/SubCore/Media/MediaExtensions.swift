/// The file name extensions subfix takes for media files (containers whose text subtitle tracks it reads): one
/// list for `fix`, `index` and the folder walks of every command.
public enum MediaExtensions {
    /// The extensions, lowercase, without the dot.
    public static let all: Set<String> = ["mkv", "mka", "mks", "mp4", "m4v", "mov", "webm", "avi", "ts", "m2ts"]

    /// Whether `path` ends in one of `all` (any case).
    public static func matches(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return all.contains(path[path.index(after: dot)...].lowercased())
    }
}
