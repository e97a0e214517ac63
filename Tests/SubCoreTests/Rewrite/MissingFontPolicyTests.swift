import Foundation
import Testing

@testable import SubCore

/// `MissingFontPolicy` against a catalog of the test fonts alone: "subfix Test Sans" (also 字幕测试黑体,
/// SubfixTestSans-Regular) covers `ABCabc 测试字体かな` and nothing else.
@Suite struct MissingFontPolicyTests {
    static func catalog() throws -> FontCatalog {
        try FontCatalog(
            setup: FontSetup(systemFonts: false, directories: [FontTestSupport.fixtures.path], bundledDirectory: nil))
    }

    @Test(arguments: [
        ("subfix Test Sans", "ABC 测试", false),
        ("SUBFIX TEST SANS", "abc", false),  // libass compares ASCII case-insensitively
        ("字幕测试黑体", "字体かな", false),  // the localized family
        ("@subfix Test Sans", "测试", false),  // vertical
        ("SubfixTestSans-Regular", "cab", false),  // PostScript name of a CFF face
        ("subfix Test Sans", "中文", true),  // resolves, lacks the glyphs
        ("subfix Test Sans", "ABCD", true),  // one Latin letter too many
        ("微软雅黑", "ABC", true),  // not in the catalog
        ("", "ABC", true),
    ])
    func decidesByResolutionAndCoverage(name: String, text: String, rewrite: Bool) throws {
        let policy = MissingFontPolicy(catalog: try Self.catalog())
        #expect(policy.shouldRewrite(name, shownWith: text) == rewrite)
    }

    /// Each decision carries its reason: what the name resolves to and how much of the text it covers.
    @Test func explainsEachDecision() throws {
        let policy = MissingFontPolicy(catalog: try Self.catalog())
        #expect(
            policy.decide("subfix Test Sans", shownWith: "cab\nA")
                == RewriteDecision(
                    rewrite: false, reason: "resolves to subfix Test Sans, covers all 4 characters shown"))
        #expect(
            policy.decide("@字幕测试黑体", shownWith: "测")
                == RewriteDecision(rewrite: false, reason: "resolves to subfix Test Sans, covers the 1 character shown")
        )
        #expect(
            policy.decide("SubfixTestSans-Regular", shownWith: " ")
                == RewriteDecision(rewrite: false, reason: "resolves to subfix Test Sans, no text is shown with it"))
        #expect(policy.decide("微软雅黑", shownWith: "ABC") == RewriteDecision(rewrite: true, reason: "does not resolve"))
        #expect(
            policy.decide("subfix Test Sans", shownWith: "中")
                == RewriteDecision(rewrite: true, reason: "subfix Test Sans lacks 1 character shown"))
    }

    /// The rewriter reports the kept fonts with the policy's reasons, once per distinct decision.
    @Test func rewriteReportsKeptFontsWithReasons() throws {
        let policy = MissingFontPolicy(catalog: try Self.catalog())
        let text =
            "[V4+ Styles]\nFormat: Name, Fontname, Fontsize\nStyle: Default,subfix Test Sans,20\n\n[Events]\n"
            + "Format: Layer, Start, End, Style, Text\nDialogue: 0,0:00:00.00,0:00:01.00,Default,ABC\n"
            + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,{\\fn微软雅黑}中文\n"
        let document = try ASSDocument(utf8: Array(text.utf8), file: "t.ass")
        let result = FontRewriter(targetFont: "X", policy: policy.policy).rewrite(document)
        #expect(result.references.map(\.font) == ["subfix Test Sans", "微软雅黑"])
        #expect(result.references.map(\.replacement) == [nil, "X"])
        #expect(result.references.first?.reason == "resolves to subfix Test Sans, covers all 3 characters shown")
    }
}
