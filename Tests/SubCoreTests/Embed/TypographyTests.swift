import Foundation
import Testing

@testable import SubCore

private let notoFolder = "/usr/share/fonts/opentype/noto"
private let hasNotoFamilies = ["NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc", "NotoSerifCJK-Regular.ttc"]
    .allSatisfy { FileManager.default.fileExists(atPath: notoFolder + "/" + $0) }

/// A script with a bold style and ASS's full style fields (the Bold field is the eighth).
private func typesetScript(styles: [(name: String, font: String, bold: String)], events: [(String, String)]) -> String {
    var text = "[Script Info]\nScriptType: v4.00+\nPlayResX: 640\nPlayResY: 360\n\n[V4+ Styles]\n"
    text +=
        "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, "
    text += "Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, "
    text += "MarginR, MarginV, Encoding\n"
    for style in styles {
        text += "Style: \(style.name),\(style.font),40,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,\(style.bold),0,0,0,"
        text += "100,100,0,0,1,2,0,2,10,10,10,1\n"
    }
    text += "\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
    for (index, (style, line)) in events.enumerated() {
        text += "Dialogue: 0,0:00:0\(index).00,0:00:0\(index + 1).00,\(style),,0,0,0,,\(line)\n"
    }
    return text
}

/// The fixed file as its author meant it (issue 29, items 3 and 4): serif for serif, the real bold face for
/// bold text, and one note where a face is missing here.
@Suite(.enabled(if: hasNotoFamilies)) struct TypographyTests {
    static func systemCatalog() throws -> FontCatalog {
        try FontCatalog(setup: FontSetup(bundledDirectory: nil), systemFamilies: FaceChooser.families)
    }

    /// A catalog with only the Regular sans collection (no Bold, no Serif): a machine with part of the fonts.
    static func regularOnlyCatalog() throws -> (FontCatalog, URL) {
        let folder = try FontTestSupport.temporaryDirectory()
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/NotoSansCJK-Regular.ttc",
            withDestinationPath: notoFolder + "/NotoSansCJK-Regular.ttc")
        return (try FontCatalog(setup: FontSetup(systemFonts: false, directories: [folder.path])), folder)
    }

    @Test func serifNamesGetNotoSerifOfTheirLanguage() throws {
        let text = typesetScript(
            styles: [("Letter", "ＭＳ 明朝", "0"), ("Song", "宋体", "0"), ("Hei", "黑体", "0"), ("Kai", "楷体", "0")],
            events: [("Letter", "拝啓　春の候"), ("Song", "敬启者：春日安好"), ("Hei", "没事，还来得及"), ("Kai", "这里")])
        let rewriter = FontRewriter(
            target: .auto(FaceChooser(catalog: try Self.systemCatalog())), policy: .text(also: []))
        let result = rewriter.rewrite(try ASSDocument(utf8: Array(text.utf8), file: "t.ass"))
        let faces = Dictionary(
            uniqueKeysWithValues: result.references.compactMap { ref in ref.replacement.map { (ref.style ?? "", $0) } })
        #expect(
            faces == [
                "Letter": "Noto Serif CJK JP", "Song": "Noto Serif CJK SC", "Hei": "Noto Sans CJK SC",
                "Kai": "Noto Serif CJK SC",
            ])
        #expect(result.references.first { $0.style == "Song" }?.reason.hasSuffix("; Song (宋) is serif") == true)
        #expect(result.degradations.isEmpty)
    }

    /// A bold style and a `\b1` run are drawn with the Bold face: it is embedded as a subset of its own, cut to
    /// the characters drawn bold, while the regular subset keeps the rest.
    @Test func boldTextGetsTheBoldFace() throws {
        let text = typesetScript(
            styles: [("Title", "微软雅黑", "-1"), ("Default", "微软雅黑", "0")],
            events: [("Title", "第一话"), ("Default", "{\\b1}粗体{\\b0}正常"), ("Default", "{\\b700}重{\\b400}轻")])
        let catalog = try Self.systemCatalog()
        let rewriter = FontRewriter(target: .auto(FaceChooser(catalog: catalog)), policy: .text(also: []))
        let document = try ASSDocument(utf8: Array(text.utf8), file: "t.ass")
        let rewrite = rewriter.rewrite(document)
        let fixed = try ASSDocument(utf8: TextEdit.apply(rewrite.edits, to: document.utf8), file: "t.ass")
        let embedder = FontEmbedder(catalog: catalog, families: FaceChooser.families)
        let (edits, fonts) = try embedder.embed(in: fixed, also: rewrite.targetFamilies)
        #expect(fonts.map(\.fileName) == ["subfix-NotoSansCJKSC_0.otf", "subfix-NotoSansCJKSC-Bold_0.otf"])
        #expect(fonts.map(\.weight) == [400, 700])
        #expect(fonts.map(\.characters) == [3, 6])
        let embedded = try ASSDocument(utf8: TextEdit.apply(edits, to: fixed.utf8), file: "t.ass").embeddedFonts().fonts
        let boldFace = try #require(
            try FontCatalog(setup: FontSetup(systemFonts: false)).adding(attachments: [
                FontAttachment(name: embedded[1].name, data: embedded[1].data)
            ]).faces.first)
        #expect(boldFace.weight == 700)
        #expect(boldFace.coverage.missing(in: "第一话粗体重") == [])
        #expect(boldFace.coverage.missing(in: "正常轻") == ["正", "常", "轻"])
    }

    /// Without the Bold and Serif collections: serif text is drawn with the sans face and bold text with the
    /// regular face (synthetic bold), each said once, and nothing fails.
    @Test func missingBoldAndSerifFacesDegradeWithOneNote() throws {
        let (catalog, folder) = try Self.regularOnlyCatalog()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = typesetScript(
            styles: [("Letter", "ＭＳ 明朝", "0"), ("Title", "微软雅黑", "1"), ("Letter2", "MS Mincho", "0")],
            events: [("Letter", "拝啓　春の候"), ("Title", "第一话"), ("Letter2", "お元気ですか")])
        let rewriter = FontRewriter(target: .auto(FaceChooser(catalog: catalog)), policy: .text(also: []))
        let document = try ASSDocument(utf8: Array(text.utf8), file: "t.ass")
        let rewrite = rewriter.rewrite(document)
        #expect(rewrite.references.first { $0.style == "Letter" }?.replacement == "Noto Sans CJK JP")
        #expect(
            rewrite.degradations == [
                "no Noto Serif CJK JP face is available here: its text is drawn with Noto Sans CJK JP (Debian's"
                    + " fonts-noto-cjk has it, or give --fonts-dir)"
            ])
        let fixed = try ASSDocument(utf8: TextEdit.apply(rewrite.edits, to: document.utf8), file: "t.ass")
        let (_, fonts) = try FontEmbedder(catalog: catalog, families: FaceChooser.families)
            .embed(in: fixed, also: rewrite.targetFamilies)
        let sc = try #require(fonts.first { $0.family == "Noto Sans CJK SC" })
        #expect(sc.weight == 400)
        #expect(sc.note == "no bold face of Noto Sans CJK SC here: its bold text is drawn with synthetic bold")
        #expect(!fonts.contains { $0.weight >= 600 })
    }

    /// Under `--policy text`, a Latin font kept must draw only what a Latin default font covers: one that draws
    /// CJK punctuation or symbols is rewritten.
    @Test func keptFontsDrawNoCJKSymbols() throws {
        let text = typesetScript(
            styles: [("Heart", "Arial", "0"), ("Quote", "Arial Narrow", "0"), ("Plain", "Georgia", "0")],
            events: [("Heart", "I ♥ NY"), ("Quote", "「Hello」"), ("Plain", "Hello, world")])
        let rewriter = FontRewriter(target: .family("Noto Sans CJK SC"), policy: .text(also: []))
        let result = rewriter.rewrite(try ASSDocument(utf8: Array(text.utf8), file: "t.ass"))
        #expect(result.unknownFonts == ["Georgia"])
        #expect(
            result.references.filter { $0.replacement != nil }.map(\.reason)
                == Array(
                    repeating: "draws CJK text or symbols", count: 2))
    }
}
