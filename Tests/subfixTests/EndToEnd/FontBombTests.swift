import Foundation
import SubCore
import TestSupport
import Testing

/// A font collection that lists one face 20,000 times (issue 35, item 1) took about 1 MB an entry: `check` of a
/// 6 MB script aborted at 4-6 GB, `render` with it in `--fonts-dir` crashed. Each path now reads the face once,
/// warns once, and runs in a bounded address space (`ulimit -v`).
@Suite struct FontBombTests {
    static let testFont = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SubCoreTests/Fixtures/subfix-test-sans.otf")
    /// 800 MB of address space: the clean run needs under 300 MB; the bomb took 3.9 GB before the bound.
    static let addressSpaceKB = 800_000

    /// A folder holding `bomb.ttc`, `fonts/bomb.ttc`, `bomb.ass` (the collection in `[Fonts]`) and `plain.ass`.
    static func folder() throws -> String {
        let folder = try SubfixBinary.folder("fontbomb")
        let bomb = FontBomb.collection(of: try Data(contentsOf: testFont), count: 20_000, copies: true)
        try bomb.write(to: URL(fileURLWithPath: folder + "/bomb.ttc"))
        try FileManager.default.createDirectory(atPath: folder + "/fonts", withIntermediateDirectories: false)
        try bomb.write(to: URL(fileURLWithPath: folder + "/fonts/bomb.ttc"))
        let encoded = SSAFontEncoding.encode(bomb)
        let lines = stride(from: 0, to: encoded.count, by: 80).map {
            String(decoding: encoded[$0..<min($0 + 80, encoded.count)], as: UTF8.self)
        }
        let script = """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 640
            PlayResY: 360

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, \
            Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, \
            MarginL, MarginR, MarginV, Encoding
            Style: Default,subfix Test Sans,40,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,\
            2,10,10,10,1

            %FONTS%
            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,测试ABC

            """
        try SubfixBinary.write(
            script.replacingOccurrences(
                of: "%FONTS%", with: "[Fonts]\nfontname: bomb_0.ttf\n" + lines.joined(separator: "\n") + "\n"),
            to: folder + "/bomb.ass")
        try SubfixBinary.write(script.replacingOccurrences(of: "%FONTS%", with: ""), to: folder + "/plain.ass")
        return folder
    }

    @Test(arguments: [
        ("check bomb.ass --no-system-fonts", "bomb_0.ttf"),
        ("render bomb.ass --at 1.5 --out a.png --no-system-fonts", "bomb_0.ttf"),
        ("check plain.ass --no-system-fonts --fonts-dir fonts", "fonts/bomb.ttc"),
        ("render plain.ass --at 1.5 --out b.png --no-system-fonts --fonts-dir fonts", "fonts/bomb.ttc"),
        ("report bomb.ass --out report", "bomb_0.ttf"),
    ])
    func eachPathReadsTheFaceOnceInBoundedMemory(command: String, fontName: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try SubfixBinary.shell(
            "ulimit -v \(Self.addressSpaceKB); \"$SUBFIX\" \(command)", in: folder, limit: 120)
        #expect(!run.hung)
        #expect(run.signal == nil)
        #expect(run.status == 0, "\(run.stderr)")
        let warning = "subfix: warning: \(fontName): collection lists 20000 faces, 1 distinct: read 1"
        #expect(run.errorLines.filter { $0 == warning }.count == 1, "\(run.stderr)")
    }

    /// The same collection attached to an MKV: `check` reads the attachment's face once.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
    func anAttachedCollectionIsReadOnce() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mux = try SubfixBinary.shell(
            "ffmpeg -v error -f lavfi -i color=black:s=64x36:d=3 -i plain.ass -c:v mpeg4 -c:s ass"
                + " -attach bomb.ttc -metadata:s:t mimetype=application/x-truetype-font out.mkv",
            in: folder)
        try #require(mux.status == 0, "\(mux.stderr)")
        let run = try SubfixBinary.shell(
            "ulimit -v \(Self.addressSpaceKB); \"$SUBFIX\" check out.mkv --no-system-fonts", in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.errorLines.filter { $0.hasSuffix("bomb.ttc: collection lists 20000 faces, 1 distinct: read 1") }
                .count == 1, "\(run.stderr)")
    }
}
