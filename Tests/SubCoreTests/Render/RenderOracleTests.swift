import Foundation
import Testing

@testable import SubCore

/// Frames rendered by subfix match what ffmpeg's libass filters draw onto the same canvas: PSNR of at least
/// 40 dB over RGB. The ffmpeg CLI is the oracle (installed by `make deps`).
///
/// ffmpeg 5.1's `subtitles` filter shapes text with `ASS_SHAPING_SIMPLE` (its `shaping` field stays 0), so it
/// is compared with subfix rendering with `.simple` shaping; the `ass` filter (complex shaping by default, like
/// players and subfix) is compared with subfix's default.
@Suite struct RenderOracleTests {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs ffmpeg's subtitles filter over a black RGB canvas and returns the frame at `time` (ms, a
    /// multiple of 40 so it is exactly a frame of the 25 fps source).
    static func ffmpegFrame(
        filter: String, script: URL, fontsDirectory: URL, time: Int, width: Int, height: Int, in folder: URL
    ) throws -> DecodedImage {
        let output = folder.appendingPathComponent("ffmpeg-\(time).png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ffmpeg))
        let frameNumber = time / 40
        process.arguments = [
            "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
            "-i", "color=black:s=\(width)x\(height):r=25:d=\(time / 1000 + 2),format=rgb24",
            "-vf", "\(filter)=\(script.path):fontsdir=\(fontsDirectory.path),select=eq(n\\,\(frameNumber))",
            "-frames:v", "1", output.path,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try PNGDecoder.decode(try Data(contentsOf: output), name: output.path)
    }

    @Test(arguments: [
        ("subtitles", 1000, 640, 360), ("subtitles", 2000, 640, 360), ("subtitles", 2000, 1280, 720),
        ("subtitles", 5000, 480, 480), ("ass", 2000, 640, 360), ("ass", 5000, 1920, 1080),
    ])
    func matchesFFmpeg(filter: String, time: Int, width: Int, height: Int) throws {
        try #require(Self.ffmpeg != nil, "ffmpeg CLI not installed")
        let folder = try FontTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = FontTestSupport.fixtures.appendingPathComponent("render-basic.ass")
        let expected = try Self.ffmpegFrame(
            filter: filter, script: script, fontsDirectory: FontTestSupport.fontsDirectory, time: time, width: width,
            height: height,
            in: folder)

        let renderer = try SubtitleRenderer(
            input: SubtitleInput(contentsOf: script.path),
            setup: FontSetup(systemFonts: false, directories: [FontTestSupport.fontsDirectory.path]),
            width: width, height: height, shaping: filter == "subtitles" ? .simple : .complex)
        var canvas = try Canvas(width: width, height: height, background: .black)
        renderer.render(at: time, into: &canvas)
        let png = try PNGEncoder(width: width, height: height).encode(canvas)
        let ours = try PNGDecoder.decode(png)

        #expect(ours.width == width && ours.height == height)
        let lit = stride(from: 0, to: ours.rgba.count, by: 4).filter { ours.rgba[$0] > 128 }.count
        #expect(lit > 500, "the frame shows text")
        let psnr = ours.psnrRGB(against: expected)
        #expect(psnr >= 40, "PSNR \(psnr) dB")
    }
}
