import Foundation
import Testing

@testable import SubCore

/// The bundled font must cover what Fonts/README.md promises, checked through FreeType's own charmap and
/// enumerated with glibc's iconv (independent of the Python codecs make-font.sh used).
@Suite struct BundledFontCoverageTests {
    static let face: FontFace? = {
        guard let library = try? FreeTypeLibrary(),
            let face = try? library.face(path: FontTestSupport.bundledFont.path, index: 0)
        else { return nil }
        return FontFace(
            reading: face, source: .file(path: FontTestSupport.bundledFont.path), index: 0, origin: .bundled)
    }()

    func uncovered(_ scalars: [Unicode.Scalar]) throws -> [String] {
        let face = try #require(Self.face)
        return scalars.filter { !face.coverage.contains($0) }.map {
            "U+" + String($0.value, radix: 16, uppercase: true)
        }
    }

    @Test func isTheNamedFamilyAndSmallEnough() throws {
        let face = try #require(Self.face)
        #expect(face.families.first == BundledFont.familyName)
        #expect(face.matchFamilies.contains(BundledFont.familyName))
        #expect(face.postScriptName == "NotoSansCJKsc-Regular")
        #expect(face.hasPostScriptOutlines)
        #expect(face.weight == 400)
        let size = try FileManager.default.attributesOfItem(atPath: FontTestSupport.bundledFont.path)[.size] as? Int
        #expect((size ?? .max) <= 10_000_000)
        let license = FontTestSupport.fontsDirectory.appendingPathComponent("LICENSE")
        #expect(try String(contentsOf: license, encoding: .utf8).contains("SIL OPEN FONT LICENSE Version 1.1"))
    }

    @Test func coversAllOfGB2312() throws {
        let all = FontTestSupport.decodeDoubleByte("GB2312", lead: 0xA1...0xF7, trail: Array(0xA1...0xFE))
        let hanzi = all.filter { (0x4E00...0x9FFF).contains($0.value) }
        #expect(all.count == 7445)
        #expect(hanzi.count == 6763)
        #expect(try uncovered(all) == [])
    }

    @Test func coversBig5LevelOne() throws {
        let trail = Array(0x40...0x7E) + Array(0xA1...0xFE) as [UInt8]
        let level1 = FontTestSupport.decodeDoubleByte("BIG5", lead: 0xA4...0xC6, trail: trail)
            .filter { (0x4E00...0x9FFF).contains($0.value) }
        #expect(level1.count == 5401)
        #expect(try uncovered(level1) == [])
    }

    @Test func coversKanaAndJISLevelOneKanji() throws {
        let rows = FontTestSupport.decodeDoubleByte("EUC-JP", lead: 0xA4...0xCF, trail: Array(0xA1...0xFE))
        let kanji = rows.filter { (0x4E00...0x9FFF).contains($0.value) }
        let kana = rows.filter { (0x3040...0x30FF).contains($0.value) }
        #expect(kanji.count == 2965)
        #expect(kana.count == 169)
        #expect(try uncovered(rows) == [])
    }

    @Test func coversLatinPunctuationAndFullWidthForms() throws {
        let latin = (0x20...0x7E).map { $0 } + (0xA0...0x17F).map { $0 }
        let cjk = (0x3000...0x303F).map { $0 } + (0xFF01...0xFF60).map { $0 } + (0xFFE0...0xFFE6).map { $0 }
        #expect(try uncovered((latin + cjk).compactMap(Unicode.Scalar.init)) == [])
    }
}
