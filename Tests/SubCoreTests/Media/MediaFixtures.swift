import Foundation
import TestSupport
import Testing

/// Samples, temporary folders and the ffmpeg CLI (the oracle) for the media tests.
enum MediaFixtures {
    /// The checkout's `Samples/` folder.
    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    static var mkv: String { samples.appendingPathComponent("tram.mkv").path }
    static var mp4: String { samples.appendingPathComponent("tram.mp4").path }
    static func source(_ name: String) -> String { samples.appendingPathComponent("media-src/\(name)").path }

    /// A fresh empty folder for one test.
    static func temporaryDirectory() throws -> URL { try TestFiles.temporaryDirectory("subfix-media") }

    /// Runs `ffmpeg -hide_banner -loglevel error -y ARGS` and throws with its stderr when it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        try FFmpegCLI.run(arguments)
    }

    /// What `ffmpeg -i INPUT -map 0:s:N out.EXT` writes.
    static func ffmpegExtract(_ input: String, subtitleIndex: Int, format: String, in directory: URL) throws -> Data {
        let output = directory.appendingPathComponent("ffmpeg-\(subtitleIndex).\(format)")
        try ffmpeg(["-i", input, "-map", "0:s:\(subtitleIndex)", output.path])
        return try Data(contentsOf: output)
    }

    /// The first `fraction` of a file's bytes written to `name` in `directory`.
    static func truncated(_ path: String, fraction: Double, as name: String, in directory: URL) throws -> String {
        try TestFiles.truncatedCopy(of: path, fraction: fraction, as: name, in: directory)
    }

    /// An MKV with a text track (SubRip) and a PGS bitmap track, made from a hand-built `.sup` (ffmpeg 5.1
    /// cannot encode bitmap subtitles from text).
    static func bitmapMKV(in directory: URL) throws -> String {
        var sup = Data()
        func segment(_ pts: UInt32, _ type: UInt8, _ payload: [UInt8]) {
            sup.append(contentsOf: Array("PG".utf8))
            sup.append(contentsOf: withUnsafeBytes(of: pts.bigEndian, Array.init))
            sup.append(contentsOf: [0, 0, 0, 0, type, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
            sup.append(contentsOf: payload)
        }
        for (number, (start, end)) in [(0.2, 1.4), (1.5, 2.8)].enumerated() {
            for (time, state, composition) in [(start, UInt8(0x80), number * 2), (end, UInt8(0), number * 2 + 1)] {
                let pts = UInt32(time * 90_000)
                // Presentation composition: 320x180, frame rate code, composition number and state, no objects.
                segment(pts, 0x16, [0x01, 0x40, 0x00, 0xB4, 0x10, 0, UInt8(composition), state, 0, 0, 0])
                segment(pts, 0x80, [])
            }
        }
        let supURL = directory.appendingPathComponent("pgs.sup")
        try sup.write(to: supURL)
        let output = directory.appendingPathComponent("bitmap.mkv").path
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:duration=3", "-i", source("en.srt"), "-i", supURL.path,
            "-map", "0:v", "-map", "1:s", "-map", "2:s", "-c:v", "mpeg4", "-c:s", "copy",
            "-metadata:s:s:1", "language=eng", output,
        ])
        return output
    }
}

extension MediaFixtures {
    /// An MKV whose SubRip track was muxed (codec copy) from a GBK-encoded file: its first cue is not UTF-8.
    static func gbkMKV(in directory: URL) throws -> String {
        var srt = Data("1\r\n00:00:00,500 --> 00:00:01,500\r\n".utf8)
        srt.append(contentsOf: [0xD6, 0xD0, 0xCE, 0xC4, 0xD7, 0xD6, 0xC4, 0xBB])  // 中文字幕 in GBK
        srt.append(Data("\r\n\r\n2\r\n00:00:02,000 --> 00:00:03,000\r\nplain ascii\r\n".utf8))
        let source = directory.appendingPathComponent("gbk.srt")
        try srt.write(to: source)
        let output = directory.appendingPathComponent("gbk.mkv").path
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=64x36:rate=5:duration=3", "-i", source.path,
            "-map", "0:v", "-map", "1:s", "-c:v", "mpeg4", "-c:s", "copy", "-metadata:s:s:0", "language=chi", output,
        ])
        return output
    }
}
