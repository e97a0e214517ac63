import Foundation
import TestSupport

/// Samples and temporary folders for the probe/extract command tests.
enum MediaCLIFixtures {
    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")
    static var mkv: String { samples.appendingPathComponent("tram.mkv").path }
    static var mp4: String { samples.appendingPathComponent("tram.mp4").path }

    /// A fresh empty folder for one test.
    static func temporaryDirectory() throws -> URL { try TestFiles.temporaryDirectory("subfix-cli-media") }

    /// A copy of `path` (or its first `fraction` of bytes) in `directory`.
    static func copy(_ path: String, to directory: URL, as name: String, fraction: Double = 1) throws -> String {
        try TestFiles.truncatedCopy(of: path, fraction: fraction, as: name, in: directory)
    }

    /// The names in `directory`, sorted.
    static func listing(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }
}

extension MediaCLIFixtures {
    /// Runs `ffmpeg -loglevel error -y ARGS`; throws with its standard error when it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        try FFmpegCLI.run(arguments)
    }

    /// An MKV whose only subtitle track is PGS (bitmap), muxed from a hand-built `.sup` presentation segment
    /// stream (ffmpeg 5.1 cannot encode bitmap subtitles from text).
    static func pgsOnlyMKV(in directory: URL) throws -> String {
        var sup = Data()
        for (time, state, composition) in [(0.5, UInt8(0x80), UInt8(0)), (1.5, UInt8(0), UInt8(1))] {
            let pts = UInt32(time * 90_000)
            for (type, payload) in [
                (UInt8(0x16), [0x01, 0x40, 0x00, 0xB4, 0x10, 0, composition, state, 0, 0, 0]), (0x80, []),
            ]
                as [(UInt8, [UInt8])]
            {
                sup.append(contentsOf: Array("PG".utf8) + withUnsafeBytes(of: pts.bigEndian, Array.init))
                sup.append(contentsOf: [0, 0, 0, 0, type, 0, UInt8(payload.count)] + payload)
            }
        }
        let supURL = directory.appendingPathComponent("pgs.sup")
        try sup.write(to: supURL)
        let output = directory.appendingPathComponent("pgs.mkv").path
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:duration=2", "-i", supURL.path,
            "-map", "0:v", "-map", "1:s", "-c:v", "mpeg4", "-c:s", "copy", output,
        ])
        return output
    }
}
