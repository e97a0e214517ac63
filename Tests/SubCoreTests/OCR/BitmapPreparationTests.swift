import Foundation
import Testing

@testable import SubCore

@Suite struct BitmapPreparationTests {
    /// A 12x8 picture: a 2-pixel outline of colour 2 around a 4x2 fill of colour 1, on transparent 0.
    static func outlined(fill: UInt32, outline: UInt32) -> SubtitleBitmap {
        var indexes = [UInt8](repeating: 0, count: 12 * 8)
        for y in 1..<7 { for x in 2..<10 { indexes[y * 12 + x] = 2 } }
        for y in 3..<5 { for x in 4..<8 { indexes[y * 12 + x] = 1 } }
        return SubtitleBitmap(x: 0, y: 0, width: 12, height: 8, indexes: indexes, palette: [0, fill, outline, 0])
    }

    @Test(arguments: [
        (UInt32(0xFFFF_FFFF), UInt32(0xFF00_0000)), (0xFF00_0000, 0xFFFF_FFFF), (0xFFFF_FF00, 0xFF20_2020),
    ])
    func theFillIsInkWhateverItsColour(fill: UInt32, outline: UInt32) throws {
        let ink = try #require(BitmapPreparation.inkMap(Self.outlined(fill: fill, outline: outline)))
        #expect(ink[3 * 12 + 4] == 255)  // fill
        #expect(ink[1 * 12 + 2] == 0)  // outline
        #expect(ink[0] == 0)  // transparent ground
    }

    @Test func textWithoutOutlineIsItsShape() throws {
        let bitmap = Self.outlined(fill: 0xFFFF_FFFF, outline: 0xFFFF_FFFF)
        let ink = try #require(BitmapPreparation.inkMap(bitmap))
        #expect(ink[1 * 12 + 2] == 255 && ink[3 * 12 + 4] == 255 && ink[0] == 0)
    }

    @Test func preparedImagesAreDarkOnLightCroppedAndPadded() throws {
        let outcome = try BitmapPreparation.prepare(
            Self.outlined(fill: 0xFFFF_FFFF, outline: 0xFF00_0000), mayBeVertical: false)
        guard case .ready(let image, let layout) = outcome else {
            Issue.record("not ready: \(outcome)")
            return
        }
        #expect(layout == .horizontal)
        // The 4x2 fill, scaled up 4 times (it is far below the target line height), plus the margin each side.
        #expect(image.width == 16 + 2 * BitmapPreparation.margin)
        #expect(image.height == 8 + 2 * BitmapPreparation.margin)
        #expect(image.pixels[0] == 255)
        #expect(image.pixels[(image.height / 2) * image.width + image.width / 2] < 64)
    }

    @Test func emptyFlatAndMalformedPictures() throws {
        let transparent = SubtitleBitmap(
            x: 0, y: 0, width: 4, height: 4, indexes: [UInt8](repeating: 0, count: 16), palette: [0])
        #expect(try BitmapPreparation.prepare(transparent, mayBeVertical: false) == .blank)
        let solid = SubtitleBitmap(
            x: 0, y: 0, width: 4, height: 4, indexes: [UInt8](repeating: 1, count: 16), palette: [0, 0xFF80_8080])
        #expect(try BitmapPreparation.prepare(solid, mayBeVertical: false) == .noContrast)
        let short = SubtitleBitmap(x: 0, y: 0, width: 4, height: 4, indexes: [1, 1], palette: [0, 0xFFFF_FFFF])
        #expect(try BitmapPreparation.prepare(short, mayBeVertical: false) == .blank)
        let indexesPastPalette = SubtitleBitmap(
            x: 0, y: 0, width: 2, height: 2, indexes: [255, 200, 7, 9], palette: [0xFFFF_FFFF])
        #expect(BitmapPreparation.inkMap(indexesPastPalette) == [0, 0, 0, 0])
    }

    @Test func aTallNarrowPictureIsVerticalOnlyWhereTheLanguageWritesSo() throws {
        var indexes = [UInt8](repeating: 0, count: 20 * 100)
        for y in 5..<95 { for x in 5..<15 where y % 12 < 9 { indexes[y * 20 + x] = 1 } }
        let column = SubtitleBitmap(x: 0, y: 0, width: 20, height: 100, indexes: indexes, palette: [0, 0xFFFF_FFFF])
        guard case .ready(_, let vertical) = try BitmapPreparation.prepare(column, mayBeVertical: true),
            case .ready(_, let horizontal) = try BitmapPreparation.prepare(column, mayBeVertical: false)
        else {
            Issue.record("not ready")
            return
        }
        #expect(vertical == .vertical)
        #expect(horizontal == .horizontal)
    }

    @Test func runsSkipSpecksAndSmallGaps() {
        #expect(BitmapPreparation.runs([0, 3, 3, 3, 3, 0, 0, 0, 0, 1, 0, 0, 0, 5, 5, 0, 5, 5, 5][...]) == [4, 6])
        #expect(BitmapPreparation.runs([1, 1, 1, 1][...]) == [4])
        #expect(BitmapPreparation.runs([][...]) == [])
    }
}

@Suite struct OCRLanguageTests {
    @Test(arguments: [
        ("eng", "eng"), ("en", "eng"), ("zh-Hant", "chi_tra"), ("zh-TW", "chi_tra"), ("chi", "chi_sim"),
        ("ja", "jpn"), ("jpn", "jpn"), ("ko", "kor"), ("chi_sim", "chi_sim"), ("jpn+eng", "jpn+eng"),
        ("fra", "fra"),
    ])
    func tagsBecomeTesseractCodes(tag: String, code: String) {
        #expect(OCRLanguage(tag)?.code == code)
    }

    @Test(arguments: ["", "x!", "english", "../eng", "eng+", "ja_JP_x"])
    func nonsenseIsRefused(tag: String) {
        #expect(OCRLanguage(tag) == nil)
    }

    @Test func theTrackSaysWhichChinese() {
        var stream = MediaStream(
            index: 2, kind: .subtitle, codec: "dvd_subtitle", subtitleEncoding: .bitmap, language: "chi",
            title: nil, isDefault: false, isForced: false, subtitleIndex: 0, playerIndex: 1)
        #expect(OCRLanguage.forTrack(stream).code == "chi_sim")
        stream.title = "繁體中文"
        #expect(OCRLanguage.forTrack(stream).code == "chi_tra")
        stream.title = nil
        stream.language = nil
        #expect(OCRLanguage.forTrack(stream).code == "eng")
        #expect(OCRLanguage.debianPackage(for: "chi_sim") == "tesseract-ocr-chi-sim")
        #expect(OCRLanguage("jpn")?.vertical.code == "jpn_vert")
    }
}

@Suite struct OCRTextCleanupTests {
    @Test func aLoneBarIsTheEnglishI() throws {
        let english = try #require(OCRLanguage("eng"))
        #expect(
            OCRTextCleanup.clean("l was at home.\n| think l'm late, l.", language: english)
                == "I was at home.\nI think I'm late, I.")
        #expect(OCRTextCleanup.clean("lately, let lo", language: english) == "lately, let lo")
        let japanese = try #require(OCRLanguage("jpn"))
        #expect(OCRTextCleanup.clean("l was", language: japanese) == "l was")
    }

    @Test func asciiMarksBesideCJKAreFullWidth() throws {
        let chinese = try #require(OCRLanguage("chi_tra"))
        #expect(OCRTextCleanup.clean("下雨了,記得帶傘出門?OK, fine", language: chinese) == "下雨了，記得帶傘出門？OK, fine")
        let english = try #require(OCRLanguage("eng"))
        #expect(OCRTextCleanup.clean("下雨了,記得", language: english) == "下雨了,記得")
    }
}
