import Foundation

/// Samples and temporary folders for the probe/extract command tests.
enum MediaCLIFixtures {
    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")
    static var mkv: String { samples.appendingPathComponent("tram.mkv").path }
    static var mp4: String { samples.appendingPathComponent("tram.mp4").path }

    /// A fresh empty folder for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("subfix-cli-media-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A copy of `path` (or its first `fraction` of bytes) in `directory`.
    static func copy(_ path: String, to directory: URL, as name: String, fraction: Double = 1) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let url = directory.appendingPathComponent(name)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: url)
        return url.path
    }

    /// The names in `directory`, sorted.
    static func listing(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }
}
