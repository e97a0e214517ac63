import Foundation
import Testing

@testable import subfix

/// A folder for `subfix report`, written by the tests: one file of each status, and hostile ones whose dialogue,
/// font name and file name are markup that would run script if the page did not escape it.
enum ReportSamples {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The bundled font alone: the faces the fix may use, the same on every machine.
    static let fontOptions = ["--no-system-fonts", "--fonts-dir", root.appendingPathComponent("Fonts").path]

    /// What the hostile markup does if it ever runs: renames the page and adds a `pwned` element.
    static let payload =
        "document.title='pwned';document.body.insertAdjacentHTML('beforeend','<p id=pwned>pwned</p>')"
    static let scriptLine = "你好<script>\(payload)</script>"
    static let imageLine = "<img src=x onerror=\"\(payload)\">再见"
    /// A font name that closes the markup around it.
    static let fontName = "</li><script>\(payload)</script>Evil\"Font"
    /// A file name with a quote, an apostrophe and `<`.
    static let hostileName = "name\"<img src=x onerror='\(payload.prefix(25))'>.ass"

    /// An ASS script whose one style uses `font`, with one event per line.
    static func ass(font: String, lines: [String]) -> String {
        var text = """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 640
            PlayResY: 360

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
            Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, \
            MarginR, MarginV, Encoding
            Style: Default,\(font),40,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,20,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

            """
        for (index, line) in lines.enumerated() {
            text += "Dialogue: 0,0:00:0\(2 * index + 1).00,0:00:0\(2 * index + 3).00,Default,,0,0,0,,\(line)\n"
        }
        return text
    }

    /// Writes the folder: `hostile.ass` and the hostile name (needs fixing), `fixed/hostile.ass` (as
    /// `fix --embed` wrote it: fixed), `plain.srt` (SRT cannot carry fonts: missing glyphs), `broken.srt` and
    /// `binary.srt` (failed), and `movie.mkv` (not media: failed) with its sidecar `movie.zh.ass`.
    static func write(into folder: URL) throws {
        let hostile = ass(font: fontName, lines: [scriptLine, imageLine])
        try Data(hostile.utf8).write(to: folder.appendingPathComponent("hostile.ass"))
        try Data(hostile.utf8).write(to: folder.appendingPathComponent(hostileName))
        try Data("1\n00:00:01,000 --> 00:00:02,000\n你好\n".utf8).write(to: folder.appendingPathComponent("plain.srt"))
        try Data("1\n00:00:01,000 --> garbage\n你好\n".utf8).write(to: folder.appendingPathComponent("broken.srt"))
        try Data([0x78, 0, 0x79]).write(to: folder.appendingPathComponent("binary.srt"))
        try Data("not a video".utf8).write(to: folder.appendingPathComponent("movie.mkv"))
        try Data(ass(font: "SimHei", lines: ["今晚的月色"]).utf8).write(
            to: folder.appendingPathComponent("movie.zh.ass"))
        let (io, output) = CommandIO.capturing()
        let status = SubfixCLI.run(
            [
                "fix", folder.appendingPathComponent("hostile.ass").path, "--embed", "--out",
                folder.appendingPathComponent("fixed").path,
            ] + fontOptions, io: io)
        #expect(status == .success, "fix --embed of the sample failed: \(output.stderr)")
    }
}
