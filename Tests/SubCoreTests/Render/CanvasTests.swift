import Foundation
import Testing

@testable import SubCore

@Suite struct CanvasTests {
    @Test(arguments: [
        "0x10", "8193x10", "10x8193", "640", "640x", "x480", "-1x5", "640X480X1", "６４０x480", "1e3x10", "",
    ])
    func rejectsBadSizes(text: String) {
        #expect(throws: RenderError.badSize(text)) { try Canvas.parseSize(text) }
    }

    @Test func parsesSizesUpToTheLimit() throws {
        #expect(try Canvas.parseSize("8192x8192") == (8192, 8192))
        #expect(try Canvas.parseSize("640X360") == (640, 360))
        #expect(RenderError.badSize("0x10").description == "invalid size '0x10' (expected WxH from 1x1 to 8192x8192)")
        #expect(throws: RenderError.badSize("9000x10")) { try Canvas(width: 9000, height: 10) }
    }

    @Test func fillsBackgrounds() throws {
        #expect(try Canvas(width: 2, height: 2).pixel(x: 1, y: 1) == (0, 0, 0, 0))
        #expect(try Canvas(width: 2, height: 2, background: .black).pixel(x: 1, y: 1) == (0, 0, 0, 255))
        let checker = try Canvas(width: 40, height: 40, background: .checker)
        #expect(checker.pixel(x: 0, y: 0) == (0x99, 0x99, 0x99, 255))
        #expect(checker.pixel(x: 16, y: 0) == (0x66, 0x66, 0x66, 255))
        #expect(checker.pixel(x: 16, y: 16) == (0x99, 0x99, 0x99, 255))
    }

    /// A libass drawing (an opaque or half-transparent square; libass needs a resolvable font even for
    /// drawings) lands with exact colours: opaque pixels take
    /// the colour; 50% alpha over black gives half the colour; over transparent it stays premultiplied.
    @Test func blendsLibassImagesWithTheirColourAndAlpha() throws {
        let script = """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 100
            PlayResY: 100

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Box,subfix Test Sans,20,&H000000FF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,7,0,0,0,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:00.00,0:00:01.00,Box,,0,0,0,,{\\pos(10,10)\\p1}m 0 0 l 40 0 40 40 0 40{\\p0}
            Dialogue: 0,0:00:00.00,0:00:01.00,Box,,0,0,0,,{\\pos(60,10)\\1a&H80&\\1c&HFF0000&\\p1}m 0 0 l 30 0 30 30 0 30{\\p0}
            """
        let renderer = try SubtitleRenderer(
            input: SubtitleInput(name: "box.ass", assText: script),
            setup: FontSetup(systemFonts: false, directories: [FontTestSupport.fixtures.path]),
            width: 100, height: 100)
        var black = try Canvas(width: 100, height: 100, background: .black)
        renderer.render(at: 500, into: &black)
        #expect(black.pixel(x: 30, y: 30) == (255, 0, 0, 255))
        #expect(black.pixel(x: 75, y: 25) == (0, 0, 127, 255))
        #expect(black.pixel(x: 5, y: 5) == (0, 0, 0, 255))
        var clear = try Canvas(width: 100, height: 100)
        renderer.render(at: 500, into: &clear)
        #expect(clear.pixel(x: 75, y: 25) == (0, 0, 127, 127))
        let png = try PNGEncoder(width: 100, height: 100).encode(clear)
        let decoded = try PNGDecoder.decode(png)
        let offset = (25 * 100 + 75) * 4
        #expect(Array(decoded.rgba[offset..<offset + 4]) == [0, 0, 255, 127])
        #expect(Array(decoded.rgba[0..<4]) == [0, 0, 0, 0])
        // Nothing is shown after the last event ends.
        var after = try Canvas(width: 100, height: 100)
        renderer.render(at: 1500, into: &after)
        #expect(after.pixels.allSatisfy { $0 == 0 })
        #expect(renderer.endTime == 1000)
    }

    /// Rendering frame after frame onto one canvas (skipping unchanged frames, clearing only what the last
    /// frame drew) gives exactly the pixels of rendering each frame afresh.
    @Test(arguments: [RenderBackground.transparent, .black, .checker])
    func incrementalFramesEqualFreshOnes(background: RenderBackground) throws {
        let input = try SubtitleInput(
            contentsOf: FontTestSupport.fixtures.appendingPathComponent("render-basic.ass").path)
        let setup = FontSetup(systemFonts: false, directories: [FontTestSupport.fontsDirectory.path])
        let incremental = try SubtitleRenderer(input: input, setup: setup, width: 320, height: 180)
        let fresh = try SubtitleRenderer(input: input, setup: setup, width: 320, height: 180)
        var canvas = try Canvas(width: 320, height: 180)
        var changes: [Bool] = []
        for time in [0, 1000, 1500, 2000, 3000, 4500, 5000, 5500, 7000, 2500, 2500] {
            changes.append(
                incremental.render(at: time, into: &canvas, background: background, onlyIfChanged: true).changed)
            var expected = try Canvas(width: 320, height: 180, background: background)
            fresh.render(at: time, into: &expected)
            #expect(canvas == expected, "frame at \(time) ms")
        }
        #expect(changes == [true, true, false, true, true, true, true, false, true, true, false])
    }

    @Test func contactSheetsHoldWhatFitsInTheSizeLimit() throws {
        #expect(ContactSheet.capacity(width: 1920, height: 1080) == 16 * 26)
        let frames = try (0..<3).map {
            (time: $0 * 1000, canvas: try Canvas(width: 960, height: 540, background: .black))
        }
        let (sheet, placed) = try ContactSheet.make(frames: frames, background: .black)
        #expect(placed == 3)
        #expect(sheet.width == 8 + 2 * (480 + 8))
        #expect(sheet.height == 8 + 2 * (270 + 28 + 8))
        #expect(sheet.isOpaque)
        #expect(sheet.pixel(x: 2, y: 2) == (0x30, 0x30, 0x30, 255))
        #expect(sheet.pixel(x: 10, y: 10) == (0, 0, 0, 255))
    }

    /// Opaque canvases are written as RGB (four pixels at a time, then the rest of the row one by one).
    @Test(arguments: [1, 4, 7, 13])
    func writesOpaqueCanvasesAsRGBExactly(width: Int) throws {
        var canvas = try Canvas(width: width, height: 3, background: .black)
        for index in stride(from: 0, to: canvas.pixels.count, by: 4) {
            canvas.pixels[index] = UInt8(index % 251)
            canvas.pixels[index + 1] = UInt8((index * 7) % 256)
            canvas.pixels[index + 2] = UInt8((index * 13) % 256)
        }
        let decoded = try PNGDecoder.decode(try PNGEncoder(width: width, height: 3, opaque: true).encode(canvas))
        #expect(decoded.rgba == canvas.pixels)
    }

    @Test func rejectsUndecodablePNG() {
        #expect(throws: RenderError.self) { try PNGDecoder.decode(Data("not a png".utf8), name: "x.png") }
    }
}
