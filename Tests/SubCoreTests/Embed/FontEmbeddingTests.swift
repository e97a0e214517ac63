import Foundation
import SubCore
import Testing

/// Debian's fonts-noto-cjk collection: faces 0 to 3 are JP, KR, SC, TC (CFF outlines in a TTC).
private let notoCollection = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

/// A catalog with the system's Noto CJK faces (what `subfix fix` reads for `--font auto`).
private func notoCatalog() throws -> FontCatalog {
    try FontCatalog(setup: FontSetup(bundledDirectory: nil), systemFamilies: FaceChooser.families)
}

/// The characters a font file maps, through FreeType (as the catalog reads any face).
private func coverage(of data: Data, name: String = "subset.otf") throws -> Set<UInt32> {
    let catalog = try FontCatalog(setup: FontSetup(systemFonts: false)).adding(attachments: [
        FontAttachment(name: name, data: data)
    ])
    let face = try #require(catalog.faces.first)
    return Set((0...0x2FFFF).filter { face.coverage.contains(value: UInt32($0)) }.map(UInt32.init))
}

private func script(styles: [(String, String)], events: [(String, String)]) -> String {
    var text = "[Script Info]\nScriptType: v4.00+\nPlayResX: 640\nPlayResY: 360\n\n[V4+ Styles]\n"
    text += "Format: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Alignment, MarginV\n"
    for (name, font) in styles { text += "Style: \(name),\(font),40,&H00FFFFFF,0,0,2,20\n" }
    text += "\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
    for (index, (style, line)) in events.enumerated() {
        text += "Dialogue: 0,0:00:0\(index).00,0:00:0\(index + 1).00,\(style),,0,0,0,,\(line)\n"
    }
    return text
}

@Suite struct CJKLanguageTests {
    @Test(arguments: [
        ("終電に乗り遅れたので、歩いて帰ります。", CJKLanguage.japanese),
        ("오늘은 정말 좋은 날이에요.", .korean),
        ("我们明天在车站见面，别忘了带伞。", .simplifiedChinese),
        ("我們明天在車站見面，別忘了帶傘。", .traditionalChinese),
        ("這個問題很難", .traditionalChinese),
        ("这个问题很难", .simplifiedChinese),
    ])
    func guessesTheLanguageOfTheText(text: String, language: CJKLanguage) {
        #expect(CJKText.guess(text).language == language)
    }

    /// Every occurrence counts, the first time a character is seen (classified through ICU) and after (remembered):
    /// three Simplified-only 这 outweigh two Traditional-only 這, and the reverse.
    @Test func repeatedCharactersCountEachTime() {
        for _ in 0..<2 {
            #expect(CJKText.guess("這這这这这").language == .simplifiedChinese)
            #expect(CJKText.guess("這這這这这").language == .traditionalChinese)
            #expect(CJKText.guess("龘這这").language == .simplifiedChinese)  // 龘 is common to both: a tie, the default
        }
    }

    /// A stray の in Chinese text does not make it Japanese; Kanji-only text follows a Japanese hint.
    @Test func hintsBreakTiesOnly() {
        #expect(CJKText.guess("这是我们的の学校，我们都很喜欢这里。").language == .simplifiedChinese)
        #expect(CJKText.guess("東京", hint: .language(.japanese)).language == .japanese)
        #expect(CJKText.guess("你好", hint: .language(.traditionalChinese)).language == .traditionalChinese)
        #expect(CJKText.guess("你好").language == .simplifiedChinese)
        #expect(CJKText.guess("這個問題", hint: .language(.simplifiedChinese)).language == .traditionalChinese)
        #expect(CJKText.guess("Hello").language == nil)
    }

    @Test(arguments: [
        ("jpn", LanguageHint.language(.japanese)), ("kor", .language(.korean)),
        ("zh-Hant", .language(.traditionalChinese)),
        ("zh-Hans", .language(.simplifiedChinese)), ("chi", .chinese), ("繁體中文", .language(.traditionalChinese)),
        ("简体中文", .language(.simplifiedChinese)), ("zh_TW", .language(.traditionalChinese)),
    ])
    func readsTrackTags(tag: String, hint: LanguageHint) {
        #expect(CJKLanguage.hint(from: tag) == hint)
    }

    @Test func readsFileNameTokens() {
        #expect(LanguageTags(fileName: "/a/b/Show.S01E01.chs.ass")?.languages == [.simplifiedChinese])
        #expect(LanguageTags(fileName: "movie.ja.srt")?.languages == [.japanese])
        #expect(LanguageTags(fileName: "movie.srt") == nil)
        #expect(LanguageTags(fileName: "tc.srt") == nil)  // the base name is not a token
        #expect(LanguageTags(fileName: "garbage.\u{1B}[31m.\u{0}.ass") == nil)
    }
}

@Suite struct FaceChoiceTests {
    /// A bilingual script gets one face per style; Latin-only typesetting keeps its font under `.text`.
    @Test func bilingualScriptGetsOneFacePerStyle() throws {
        let text = script(
            styles: [("JP", "MS Gothic"), ("CN", "微软雅黑"), ("TW", "Some Font"), ("KR", "Gulim"), ("Sign", "Arial")],
            events: [
                ("JP", "駅の前で待っています"), ("CN", "我们在车站前面等你"), ("TW", "我們在車站前面等你"),
                ("KR", "역 앞에서 기다릴게요"), ("Sign", "Episode 1"),
            ])
        let document = try ASSDocument(utf8: Array(text.utf8), file: "t.ass")
        let rewriter = FontRewriter(target: .auto(FaceChooser(catalog: try notoCatalog())), policy: .text(also: []))
        let result = rewriter.rewrite(document)
        let faces = Dictionary(
            uniqueKeysWithValues: result.references.compactMap { ref in ref.replacement.map { (ref.style ?? "", $0) } })
        #expect(
            faces == [
                "JP": "Noto Sans CJK JP", "CN": "Noto Sans CJK SC", "TW": "Noto Sans CJK TC", "KR": "Noto Sans CJK KR",
            ])
        #expect(result.unknownFonts == ["Arial"])
        #expect(result.references.first { $0.style == "Sign" }?.reason == "draws no CJK text")
        #expect(result.references.first { $0.style == "JP" }?.reason.contains("kana in its style's text") == true)
    }

    /// Policies: `all` rewrites Latin typesetting too, `cjk` only known names, `text` CJK text or known names;
    /// an empty Fontname and a bare `@` are references.
    @Test func policiesDecideWhatIsRewritten() throws {
        let text = script(
            styles: [("A", "Arial"), ("B", "Unknown Sans"), ("C", "SimHei"), ("D", ""), ("E", "@")],
            events: [("A", "Hello"), ("B", "你好"), ("C", "Hi"), ("D", "中文"), ("E", "縦")])
        let document = try ASSDocument(utf8: Array(text.utf8), file: "t.ass")
        func rewritten(_ policy: RewritePolicy) -> [String] {
            FontRewriter(targetFont: "T", policy: policy).rewrite(document).references.compactMap {
                $0.replacement == nil ? nil : $0.style
            }
        }
        #expect(rewritten(.all) == ["A", "B", "C", "D", "E"])
        #expect(rewritten(.cjk(also: [])) == ["C"])
        #expect(rewritten(.text(also: [])) == ["B", "C", "D", "E"])
        let fixed = TextEdit.apply(
            FontRewriter(targetFont: "T", policy: .text(also: [])).rewrite(document).edits, to: Array(text.utf8))
        #expect(String(decoding: fixed, as: UTF8.self).contains("Style: E,@T,40"))
        #expect(String(decoding: fixed, as: UTF8.self).contains("Style: D,T,40"))
    }

    /// A face that lacks characters gives way to one that has them, and the reason says so.
    @Test func missingFaceFallsBackToOneThatCovers() throws {
        let bundled = FontTestSupport.fontsDirectory.path
        let catalog = try FontCatalog(setup: FontSetup(systemFonts: false, directories: [bundled]))
        let choice = FaceChooser(catalog: catalog).choose(for: "오늘은 좋은 날")
        // The bundled SC subset has no Hangul: nothing covers it, so the preferred face is named anyway.
        #expect(choice.family == "Noto Sans CJK KR")
        #expect(choice.face == nil)
        #expect(choice.reason.contains("not available"))
        let japanese = FaceChooser(catalog: catalog).choose(for: "ひらがな")
        #expect(japanese.family == "Noto Sans CJK SC")
        #expect(japanese.reason.contains("Noto Sans CJK JP is not available, Noto Sans CJK SC covers it"))
    }
}

@Suite struct FontSubsetterTests {
    /// The subset maps exactly the characters asked for that the face has (from a CFF face in a TTC).
    @Test func subsetHoldsExactlyTheCharactersUsed() throws {
        let wanted: Set<Unicode.Scalar> = Set("駅の前で待っていますABC。".unicodeScalars)
        let subset = try FontSubsetter.subset(.file(path: notoCollection), index: 0, characters: wanted)
        #expect(try coverage(of: subset) == Set(wanted.map(\.value)))
        #expect(subset.count < 40_000)
    }

    /// Each face of the collection can be cut, and keeps its own family name (what references name).
    @Test(arguments: [
        (0, "Noto Sans CJK JP"), (1, "Noto Sans CJK KR"), (2, "Noto Sans CJK SC"), (3, "Noto Sans CJK TC"),
    ])
    func collectionFacesKeepTheirFamily(index: Int, family: String) throws {
        let subset = try FontSubsetter.subset(.file(path: notoCollection), index: index, characters: ["中"])
        let catalog = try FontCatalog(setup: FontSetup(systemFonts: false)).adding(attachments: [
            FontAttachment(name: "s.otf", data: subset)
        ])
        #expect(catalog.faces.first?.matchFamilies == [family])
    }

    /// A font held in memory (a media attachment) gives the same subset as the same file on disk.
    @Test func memoryFontsSubsetLikeFiles() throws {
        let path = FontTestSupport.bundledFont.path
        let data = try Data(contentsOf: FontTestSupport.bundledFont)
        let characters: Set<Unicode.Scalar> = Set("字幕测试".unicodeScalars)
        let fromFile = try FontSubsetter.subset(.file(path: path), index: 0, characters: characters)
        let fromMemory = try FontSubsetter.subset(.memory(name: "a.otf"), index: 0, data: data, characters: characters)
        #expect(fromMemory == fromFile)
        #expect(try coverage(of: fromMemory) == Set(characters.map(\.value)))
    }

    @Test func brokenFontsAreErrorsNotCrashes() throws {
        let folder = try FontTestSupport.temporaryDirectory()
        let garbage = folder.appendingPathComponent("garbage.otf")
        try Data(repeating: 0x41, count: 1000).write(to: garbage)
        #expect(throws: FontError.self) {
            try FontSubsetter.subset(.file(path: garbage.path), index: 0, characters: ["a"])
        }
        let truncated = folder.appendingPathComponent("truncated.otf")
        let bundled = try Data(contentsOf: FontTestSupport.bundledFont)
        try bundled.prefix(5000).write(to: truncated)
        #expect(throws: FontError.self) {
            try FontSubsetter.subset(.file(path: truncated.path), index: 0, characters: ["中"])
        }
        #expect(throws: FontError.self) {
            try FontSubsetter.subset(.file(path: notoCollection), index: 99, characters: ["中"])
        }
        #expect(throws: FontError.self) {
            try FontSubsetter.subset(
                .file(path: folder.appendingPathComponent("absent.otf").path), index: 0, characters: ["a"])
        }
        #expect(throws: FontError.self) {
            try FontSubsetter.subset(.memory(name: "empty"), index: 0, data: Data(), characters: ["a"])
        }
    }
}

@Suite struct EmbeddedFontsTests {
    @Test(arguments: [0, 1, 2, 3, 4, 5, 80, 1000])
    func uuencodingRoundTrips(size: Int) throws {
        let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        let encoded = SSAFontEncoding.encode(data)
        #expect(encoded.allSatisfy { $0 >= 33 && $0 < 97 })
        #expect(SSAFontEncoding.decode(encoded) == data)
    }

    /// The characters each font draws follow `\fn`, `\r`, `\r<style>` and `\t(...)` as libass applies them;
    /// drawings and comments draw no characters.
    @Test func charactersAreCountedPerFont() throws {
        let text = script(
            styles: [("Default", "@Base"), ("Other", "Second")],
            events: [("Default", "a{\\fnOne}b{\\r}c{\\rOther}d{\\t(\\fnTwo)}e{\\p1}m 0 0 l 9 9{\\p0}f{comment}")])
        let characters = try ASSDocument(utf8: Array(text.utf8), file: "t.ass").charactersByFont()
        #expect(characters[FontUse("Base")] == ["a", "c"])
        #expect(characters[FontUse("One")] == ["b"])
        #expect(characters[FontUse("Second")] == ["d"])
        #expect(characters[FontUse("Two")] == ["e", "f"])
        #expect(characters.values.allSatisfy { !$0.contains("m") && !$0.contains("9") })
    }

    /// Encoded data with `[` and `]` in the places where an 80-character line would begin and end with them.
    static func bracketedData(everyGroup: Bool = false) throws -> Data {
        var characters = (0..<240).map { UInt8(33 + ($0 * 7) % 58) }  // letters, digits, punctuation; no brackets
        characters[80] = 0x5B
        characters[159] = 0x5D
        if everyGroup { for index in stride(from: 0, to: 240, by: 4) { characters[index] = 0x5B } }
        return try #require(SSAFontEncoding.decode(characters))
    }

    /// An 80-character data line that reads `[...]` (1 line in about 4,000) is data inside `[Fonts]`, as libass
    /// reads it: only a section libass knows, in any case, starts a new one.
    @Test func dataLinesThatLookLikeSectionsStayData() throws {
        let data = try Self.bracketedData()
        let encoded = SSAFontEncoding.encode(data)
        let lines = stride(from: 0, to: encoded.count, by: 80).map {
            String(decoding: encoded[$0..<min($0 + 80, encoded.count)], as: UTF8.self)
        }
        #expect(lines[1].hasPrefix("[") && lines[1].hasSuffix("]"))
        for next in ["[Events]", "[EVENTS]", "[Aegisub Project Garbage]"] {
            let text =
                "[Script Info]\nScriptType: v4.00+\n\n[Fonts]\nfontname: a_0.ttf\n" + lines.joined(separator: "\n")
                + "\n\n\(next)\nFormat: Layer, Start, End, Style, Text\n"
            let document = try ASSDocument(utf8: Array(text.utf8), file: "t.ass")
            #expect(document.sections.map(\.name) == ["Script Info", "Fonts", String(next.dropFirst().dropLast())])
            #expect(document.embeddedFonts().fonts.first?.data == data)
            #expect(document.embeddedFonts().undecodable.isEmpty)
        }
    }

    /// subfix writes no data line that starts with `[` (lines end 4 characters sooner instead), for players whose
    /// parsers take any `[...]` line for a section; lines stay whole groups of 4. When every group starts with `[`
    /// there is no such break, and the reader above still keeps the data.
    @Test(arguments: [false, true])
    func embeddedDataLinesDoNotStartWithABracket(everyGroup: Bool) throws {
        let data = try Self.bracketedData(everyGroup: everyGroup)
        let text = script(styles: [("Default", "Noto Sans CJK SC")], events: [("Default", "你好")])
        let document = try ASSDocument(utf8: Array(text.utf8), file: "t.ass")
        let edits = document.embedding([EmbeddedFont(name: "subfix-x_0.otf", data: data)])
        let fixed = TextEdit.apply(edits, to: Array(text.utf8))
        let output = String(decoding: fixed, as: UTF8.self)
        let dataLines = output.components(separatedBy: "fontname: subfix-x_0.otf\n")[1]
            .components(separatedBy: "\n\n")[0].split(separator: "\n")
        #expect(dataLines.count == 3 + (everyGroup ? 0 : 1))
        #expect(dataLines.dropLast().allSatisfy { $0.count % 4 == 0 && $0.count <= 80 })
        #expect(dataLines.dropFirst().contains { $0.hasPrefix("[") } == everyGroup)
        #expect(try ASSDocument(utf8: fixed, file: "t.ass").embeddedFonts().fonts.first?.data == data)
    }

    @Test func uuencodingRejectsImpossibleInput() {
        #expect(SSAFontEncoding.decode(Array("!!!!!".utf8)) == nil)  // one character left over
        #expect(SSAFontEncoding.decode(Array("ab c".utf8)) == nil)  // a blank is not a code
    }

    /// Embedding keeps the script's other fonts, and embedding again replaces subfix's own: same bytes.
    @Test func embeddingIsIdempotentAndKeepsOtherFonts() throws {
        let theirs = String(decoding: SSAFontEncoding.encode(Data("not really a font".utf8)), as: UTF8.self)
        var text = script(styles: [("Default", "Noto Sans CJK JP")], events: [("Default", "駅の前で")])
        text = text.replacingOccurrences(
            of: "[Events]", with: "[Fonts]\nfontname: theirs_0.ttf\n\(theirs)\n\n[Events]")
        let embedder = FontEmbedder(catalog: try notoCatalog(), families: FaceChooser.families)
        let first = try embedder.embed(in: try ASSDocument(utf8: Array(text.utf8), file: "t.ass"))
        let once = TextEdit.apply(first.edits, to: Array(text.utf8))
        #expect(first.fonts.map(\.family) == ["Noto Sans CJK JP"])
        let again = try embedder.embed(in: try ASSDocument(utf8: once, file: "t.ass"))
        #expect(TextEdit.apply(again.edits, to: once) == once)
        let fonts = try ASSDocument(utf8: once, file: "t.ass").embeddedFonts()
        #expect(fonts.fonts.map(\.name) == ["theirs_0.ttf", "subfix-NotoSansCJKJP_0.otf"])
        #expect(fonts.fonts.first?.data == Data("not really a font".utf8))
        #expect(fonts.undecodable.isEmpty)
        // Every data line is at most 80 characters.
        let lines = String(decoding: once, as: UTF8.self).split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("fontname:") || $0.hasPrefix("Dialogue:") || $0.count <= 200 })
    }

    /// libass reads the embedded subset back: with no system fonts and no folders, nothing is missing, and
    /// the text draws pixels.
    @Test func libassReadsTheEmbeddedSubset() throws {
        let text = script(styles: [("Default", "Noto Sans CJK SC")], events: [("Default", "我们明天见")])
        let embedder = FontEmbedder(catalog: try notoCatalog(), families: ["Noto Sans CJK SC"])
        let (edits, _) = try embedder.embed(in: try ASSDocument(utf8: Array(text.utf8), file: "t.ass"))
        let fixed = String(decoding: TextEdit.apply(edits, to: Array(text.utf8)), as: UTF8.self)
        let sandbox = FontSetup(systemFonts: false, bundledDirectory: nil)
        for (script, expectMissing) in [(text, true), (fixed, false)] {
            let input = SubtitleInput(name: "t.ass", assText: script)
            let renderer = try SubtitleRenderer(input: input, setup: sandbox, width: 640, height: 360)
            let catalog = try FontCatalog(setup: sandbox).adding(attachments: input.embeddedFonts().fonts)
            let report = try GlyphChecker.check(renderer, catalog: catalog)
            #expect(report.missing.isEmpty != expectMissing)
        }
        let renderer = try SubtitleRenderer(
            input: SubtitleInput(name: "t.ass", assText: fixed), setup: sandbox, width: 640, height: 360)
        var canvas = try Canvas(width: 640, height: 360)
        renderer.render(at: 500, into: &canvas)
        #expect(canvas.pixels.contains { $0 != 0 })
    }

    /// A script already carrying 50 MB of fonts: parsed, kept byte for byte, and our font added after them.
    @Test func largeExistingFontsSectionIsKept() throws {
        let big = Data(count: 37_500_000)  // 50 MB once encoded
        var encoded = SSAFontEncoding.encode(big)
        var lines: [UInt8] = []
        lines.reserveCapacity(encoded.count + encoded.count / 80 + 16)
        var start = 0
        while start < encoded.count {
            let end = min(start + 80, encoded.count)
            lines += encoded[start..<end] + [0x0A]
            start = end
        }
        encoded = []
        let head =
            Array("[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize\n".utf8)
            + Array("Style: Default,Noto Sans CJK SC,40\n\n[Fonts]\nfontname: big_0.ttf\n".utf8)
        let text =
            head + lines + Array("\n[Events]\nFormat: Layer, Start, End, Style, Text\n".utf8)
            + Array("Dialogue: 0,0:00:00.00,0:00:01.00,Default,你好\n".utf8)
        let document = try ASSDocument(utf8: text, file: "big.ass")
        let embedder = FontEmbedder(catalog: try notoCatalog(), families: ["Noto Sans CJK SC"])
        let (edits, fonts) = try embedder.embed(in: document)
        #expect(fonts.count == 1)
        #expect(edits.count == 1)
        // Inserted after the big font's last line: everything before is untouched.
        let at = try #require(edits.first?.range.lowerBound)
        #expect(at == head.count + lines.count)
        #expect(edits.first?.range.isEmpty == true)
    }
}
