import Foundation
import SubCore

/// Pairs media files with their sidecar subtitles the way players do: in the same folder, `Movie.mkv` with
/// `Movie.ass`, `Movie.zh.ass`, `Movie.0.jpn.ass` (what `extract` and `fix` write).
struct SidecarFinder {
    /// Folder listings already read, by folder.
    private var listings: [String: [String]] = [:]

    /// For a media file, its sidecar subtitles; for a subtitle file, the media files it is a sidecar of; in
    /// name order, as paths next to `path`.
    mutating func related(to path: String) -> [String] {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let prefix = slash == nil ? "" : folder + "/"
        let names = listing(folder)
        if FixInputs.isMedia(name) {
            let stem = self.stem(name)
            return names.filter { $0 != name && SubtitleFormat(path: $0) != nil && $0.hasPrefix(stem + ".") }
                .map { prefix + $0 }
        }
        guard SubtitleFormat(path: name) != nil else { return [] }
        return names.filter { $0 != name && FixInputs.isMedia($0) && name.hasPrefix(stem($0) + ".") }.map {
            prefix + $0
        }
    }

    private func stem(_ name: String) -> String {
        name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
    }

    private mutating func listing(_ folder: String) -> [String] {
        if let names = listings[folder] { return names }
        let names: [String]
        switch PathBytes.names(inFolder: folder) {
        case .success(let found): names = found.sorted()
        case .failure: names = []
        }
        listings[folder] = names
        return names
    }
}
