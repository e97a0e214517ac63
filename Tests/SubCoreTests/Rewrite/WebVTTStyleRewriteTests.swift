import SubCore
import Testing

/// `::cue { font-family: ... }` in a WebVTT `STYLE` block is how a WebVTT file names a font; it is rewritten as
/// `<font face>` is (issue 16, item 15).
@Suite struct WebVTTStyleRewriteTests {
    func rewritten(_ text: String, policy: RewritePolicy = .all) throws -> (String, FontRewrite) {
        let document = try WebVTTDocument(utf8: Array(text.utf8), file: "s.vtt")
        let result = FontRewriter(policy: policy).rewrite(document)
        return (String(decoding: TextEdit.apply(result.edits, to: document.utf8), as: UTF8.self), result)
    }

    @Test func cueFontFamiliesAreRewritten() throws {
        let text = """
            WEBVTT

            STYLE
            ::cue {
              font-family: "Microsoft YaHei", SimHei , sans-serif !important;
            }
            /* font-family: Kept In A Comment; */
            ::cue(.a) { color: red; FONT-FAMILY:Arial }

            00:00:01.000 --> 00:00:02.000
            font-family: SimHei is dialogue here

            """
        let (fixed, result) = try rewritten(text)
        #expect(
            fixed == """
                WEBVTT

                STYLE
                ::cue {
                  font-family: "Noto Sans CJK SC", "Noto Sans CJK SC" , sans-serif !important;
                }
                /* font-family: Kept In A Comment; */
                ::cue(.a) { color: red; FONT-FAMILY:"Noto Sans CJK SC" }

                00:00:01.000 --> 00:00:02.000
                font-family: SimHei is dialogue here

                """)
        #expect(result.fontTags == 3)
        let (again, second) = try rewritten(fixed)
        #expect(again == fixed)
        #expect(second.isEmpty)
    }

    @Test func cjkPolicyKeepsOtherFamilies() throws {
        let text = "WEBVTT\n\nSTYLE\n::cue { font-family: 'SimHei', Arial; }\n\n00:00:01.000 --> 00:00:02.000\n你好\n"
        let (fixed, result) = try rewritten(text, policy: .cjk(also: []))
        #expect(fixed.contains("font-family: 'Noto Sans CJK SC', Arial;"))
        #expect(result.unknownFonts == ["Arial"])
    }

    @Test func webvttExtensionIsWebVTT() {
        #expect(SubtitleFormat(path: "movie.webvtt") == .vtt)
        #expect(SubtitleFormat(path: "movie.WebVTT") == .vtt)
        #expect(SubtitleFormat(path: "movie.vtt") == .vtt)
    }
}
