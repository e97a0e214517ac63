import Foundation
import Testing

@testable import SubCore

/// The catalog reads faces with FreeType: names (localized, Mac Roman), weight, collections, memory fonts,
/// broken files; and resolves requests the way libass's font selector does.
@Suite struct FontCatalogTests {
    static let regular = FontTestSupport.fixtures.appendingPathComponent("subfix-test-sans.otf")
    static let bold = FontTestSupport.fixtures.appendingPathComponent("subfix-test-sans-bold.otf")
    static let collection = FontTestSupport.fixtures.appendingPathComponent("subfix-test-sans.ttc")

    /// A catalog without system fonts over copies of `files` in a fresh folder.
    static func catalog(_ files: [URL], extra: [(String, Data)] = []) throws -> (FontCatalog, URL) {
        let folder = try FontTestSupport.temporaryDirectory()
        for file in files {
            try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent(file.lastPathComponent))
        }
        for (name, data) in extra { try data.write(to: folder.appendingPathComponent(name)) }
        return (try FontCatalog(setup: FontSetup(systemFonts: false, directories: [folder.path])), folder)
    }

    @Test func readsEveryNameStyleAndCoverage() throws {
        let (catalog, folder) = try Self.catalog([Self.regular])
        defer { try? FileManager.default.removeItem(at: folder) }
        let face = try #require(catalog.faces.first)
        #expect(catalog.faces.count == 1)
        #expect(catalog.warnings.isEmpty)
        #expect(face.source == .file(path: folder.appendingPathComponent("subfix-test-sans.otf").path))
        #expect(face.origin == .directory)
        #expect(face.families == ["subfix Test Sans", "字幕测试黑体"])
        #expect(face.matchFamilies == ["subfix Test Sans", "字幕测试黑体"])
        #expect(face.fullNames == ["subfix Test Sans Regular", "字幕测试黑体 Regular"])
        #expect(face.postScriptName == "SubfixTestSans-Regular")
        #expect(face.weight == 400)
        #expect(!face.isItalic)
        #expect(face.hasPostScriptOutlines)
        #expect(face.coverage.missing(in: "ABCabc测试字体かな") == [])
        #expect(face.coverage.missing(in: "ABD中") == ["D", "中"])
    }

    @Test func decodesMacRomanNames() {
        #expect(FontNameRecord.decode([0x43, 0x61, 0x66, 0x8E], platform: 1, encoding: 0) == "Café")
        #expect(FontNameRecord.decode([0x00, 0x41, 0x4E, 0x2D], platform: 3, encoding: 1) == "A中")
        #expect(FontNameRecord.decode([0x00, 0x41, 0x4E], platform: 3, encoding: 1) == nil)
        #expect(FontNameRecord.decode([0x41], platform: 2, encoding: 0) == nil)
    }

    @Test func readsEveryFaceOfACollection() throws {
        let (catalog, folder) = try Self.catalog([Self.collection])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(catalog.faces.map(\.index) == [0, 1])
        #expect(catalog.faces.map(\.weight) == [400, 700])
        #expect(catalog.faces.map(\.postScriptName) == ["SubfixTestSans-Regular", "SubfixTestSans-Bold"])
        #expect(catalog.faces[1].displayName == "subfix Test Sans (subfix-test-sans.ttc#1)")
    }

    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")))
    func readsTheSystemNotoCollection() throws {
        let library = try FreeTypeLibrary()
        var warnings: [FontWarning] = []
        var budget = FaceBudget()
        let faces = FontCatalog.read(
            path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", origin: .system, library: library,
            budget: &budget, warnings: &warnings)
        #expect(warnings.isEmpty)
        #expect(faces.count == 10)
        #expect(faces[2].families.first == "Noto Sans CJK SC")
        #expect(faces[2].index == 2)
    }

    @Test func readsInMemoryAttachments() throws {
        let data = try Data(contentsOf: Self.bold)
        let catalog = try FontCatalog(
            setup: FontSetup(systemFonts: false, attachments: [FontAttachment(name: "TestBold.otf", data: data)]))
        let face = try #require(catalog.faces.first)
        #expect(face.source == .memory(name: "TestBold.otf"))
        #expect(face.origin == .attachment)
        #expect(face.weight == 700)
        #expect(face.coverage.contains("测"))
    }

    @Test func addsAttachmentsInFrontOfACatalog() throws {
        let (catalog, folder) = try Self.catalog([Self.regular])
        defer { try? FileManager.default.removeItem(at: folder) }
        let bold = FontAttachment(name: "Bold.otf", data: try Data(contentsOf: Self.bold))
        let broken = FontAttachment(name: "Broken.ttf", data: Data("nope".utf8))
        let combined = try catalog.adding(attachments: [bold, broken])
        #expect(combined.faces.map(\.postScriptName) == ["SubfixTestSans-Bold", "SubfixTestSans-Regular"])
        #expect(combined.faces.first?.origin == .attachment)
        #expect(
            combined.warnings.map(\.description) == [
                "Broken.ttf: FT_New_Memory_Face failed: invalid stream operation (0x55)"
            ])
        #expect(combined.setup.attachments == [bold, broken])
        #expect(try catalog.adding(attachments: []).faces == catalog.faces)
    }

    @Test func skipsBrokenAndTruncatedFontsWithAWarning() throws {
        let font = try Data(contentsOf: Self.regular)
        let truncated = font.prefix(font.count / 2)
        let (catalog, folder) = try Self.catalog(
            [Self.regular],
            extra: [("truncated.otf", Data(truncated)), ("notes.ttf", Data("not a font".utf8)), ("empty.ttc", Data())])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(catalog.faces.map(\.postScriptName) == ["SubfixTestSans-Regular"])
        #expect(
            catalog.warnings.map(\.description) == [
                "\(folder.path)/empty.ttc: FT_New_Face failed: unknown file format (0x02)",
                "\(folder.path)/notes.ttf: FT_New_Face failed: unknown file format (0x02)",
                "\(folder.path)/truncated.otf: FT_New_Face failed: horizontal metrics (hmtx) table missing (0x93)",
            ])
        let attachment = try FontCatalog(
            setup: FontSetup(systemFonts: false, attachments: [FontAttachment(name: "cut.ttf", data: Data(truncated))]))
        #expect(attachment.faces.isEmpty)
        #expect(
            attachment.warnings.map(\.description) == [
                "cut.ttf: FT_New_Memory_Face failed: horizontal metrics (hmtx) table missing (0x93)"
            ])
    }

    @Test func warnsAboutMissingFolders() throws {
        let catalog = try FontCatalog(setup: FontSetup(systemFonts: false, directories: ["/nonexistent/fonts"]))
        #expect(catalog.faces.isEmpty)
        #expect(catalog.warnings.map(\.description) == ["/nonexistent/fonts: not a folder"])
    }

    @Test func resolvesNamesTheWayLibassDoes() throws {
        let (catalog, folder) = try Self.catalog([Self.regular, Self.bold])
        defer { try? FileManager.default.removeItem(at: folder) }
        func pick(_ name: String, bold: Bool = false) -> String? {
            catalog.resolve(FontRequest(name: name, bold: bold)).face?.postScriptName
        }
        #expect(pick("subfix Test Sans") == "SubfixTestSans-Regular")
        #expect(pick("SUBFIX TEST SANS", bold: true) == "SubfixTestSans-Bold")
        #expect(pick("字幕测试黑体") == "SubfixTestSans-Regular")
        #expect(pick("@字幕测试黑体", bold: true) == "SubfixTestSans-Bold")
        #expect(pick("  @subfix test sans ") == "SubfixTestSans-Regular")
        #expect(pick("subfixtestsans-bold") == "SubfixTestSans-Bold")
        // CFF faces match their PostScript name, not their full name (libass's GDI rule).
        #expect(pick("subfix Test Sans Bold") == nil)
        #expect(pick("微软雅黑") == nil)
        #expect(catalog.resolve(FontRequest(name: "SubfixTestSans-Bold")).match == .fullName)
        #expect(catalog.resolve(FontRequest(name: "@字幕测试黑体")).request.isVertical)
        #expect(FontRequest(name: " @SimHei").family == "SimHei")
    }

    @Test func reportsCharactersNoUsableFaceCovers() throws {
        let (catalog, folder) = try Self.catalog([Self.regular])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(catalog.missing(in: "测试 ABC 中文", for: FontRequest(name: "subfix Test Sans")) == ["中", "文"])
        #expect(catalog.missing(in: "AB", for: FontRequest(name: "微软雅黑")) == ["A", "B"])
    }
}
