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

    @Test func explainsWhatItKeptPerName() throws {
        let policy = MissingFontPolicy(catalog: try Self.catalog())
        #expect(!policy.shouldRewrite("subfix Test Sans", shownWith: "ABC"))
        #expect(!policy.shouldRewrite("subfix Test Sans", shownWith: "cab\nA"))
        #expect(policy.shouldRewrite("subfix Test Sans", shownWith: "中"))
        #expect(!policy.shouldRewrite("字幕测试黑体", shownWith: "测"))
        #expect(!policy.shouldRewrite("SubfixTestSans-Regular", shownWith: " "))
        #expect(
            policy.keptFonts(["subfix Test Sans", "@字幕测试黑体", "SubfixTestSans-Regular", "微软雅黑"]) == [
                .init(font: "subfix Test Sans", reason: "resolves to subfix Test Sans, covers all 6 characters shown"),
                .init(font: "@字幕测试黑体", reason: "resolves to subfix Test Sans, covers the 1 character shown"),
                .init(font: "SubfixTestSans-Regular", reason: "resolves to subfix Test Sans, no text is shown with it"),
            ])
    }
}
