import Foundation
import Testing

@testable import SubCore

/// A run's language from its context (issue 29, item 1): its own text, its line, its style, the file's tags,
/// the whole script, nearest first; Chinese-only signs against kana; characters both scripts write.
@Suite struct LanguageContextTests {
    /// The context of a run in a script: its own text, its line, its style's text, tags and the whole script.
    static func resolve(
        _ run: String, line: String = "", style: String = "", tags: LanguageTags? = nil, script: String = ""
    ) -> LanguageGuess {
        var levels = [LanguageContext.Level("the run", CJKEvidence(run))]
        if !line.isEmpty { levels.append(.init("its line", CJKEvidence(line))) }
        if !style.isEmpty { levels.append(.init("its style's text", CJKEvidence(style))) }
        return LanguageContext(levels: levels, tags: tags, script: script.isEmpty ? nil : CJKEvidence(script))
            .resolve()
    }

    /// A Japanese+Chinese script's text: kana lines and Simplified lines.
    static let jpscScript = "終電に乗り遅れたらどうしよう\n要是赶不上末班车怎么办\n大丈夫、まだ間に合うよ\n没事，还来得及"
    static let jptcScript = "終電に乗り遅れたらどうしよう\n要是趕不上末班車怎麼辦\n大丈夫、まだ間に合うよ\n沒事，還來得及"

    /// The short runs: 1 to 3 Han characters that only one Chinese script writes are that script, even
    /// in a script whose other half is Japanese.
    @Test(arguments: [
        ("评论", CJKLanguage.simplifiedChinese), ("开始了！", .simplifiedChinese), ("們", .traditionalChinese),
        ("沒事！！", .traditionalChinese),
    ])
    func shortRunsOfOneScriptAreChinese(run: String, language: CJKLanguage) {
        let script = language == .traditionalChinese ? Self.jptcScript : Self.jpscScript
        #expect(Self.resolve(run, script: script).language == language)
        let tags = LanguageTags(fileName: language == .traditionalChinese ? "ep01.JPTC.ass" : "ep01.JPSC.ass")
        #expect(Self.resolve(run, tags: tags, script: script).language == language)
    }

    /// Runs with no telling character in a file tagged `.JPSC.` / `.JPTC.`: Chinese, of the tag's script.
    @Test(arguments: ["我不明白！", "要下梅雨了", "世界第一的偶像"])
    func runsThatTellNothingFollowABilingualTag(run: String) {
        let jpsc = Self.resolve(run, tags: LanguageTags(fileName: "[Group] Show 01.JPSC.ass"))
        #expect(jpsc.language == .simplifiedChinese)
        #expect(
            jpsc.reason == "Han only, in a file tagged Japanese and Chinese (file name); tagged zh-Hans (file name)")
        #expect(Self.resolve(run, tags: LanguageTags(fileName: "Show 01.JPTC.ass")).language == .traditionalChinese)
        // Untagged, the whole script decides: a Japanese+Chinese script makes a Han-only run Chinese.
        #expect(Self.resolve(run, script: Self.jptcScript).language == .traditionalChinese)
    }

    /// The line and the style decide before the tags and the script: a Han-only run in a Chinese line of a
    /// Japanese-tagged file is Chinese, of the line's script where the run's own characters do not tell; in a
    /// Japanese line it is Japanese.
    @Test func theLineAndTheStyleComeFirst() {
        let chineseLine = Self.resolve("北京", line: "我们去北京吧", tags: LanguageTags(tag: "jpn", source: "track language"))
        #expect(chineseLine.language == .simplifiedChinese)
        #expect(chineseLine.reason == "Simplified-only characters in its line")
        let japaneseLine = Self.resolve("東京", line: "東京に行こう", script: Self.jpscScript)
        #expect(japaneseLine == LanguageGuess(language: .japanese, reason: "kana in its line"))
        let byStyle = Self.resolve("我不明白", line: "我不明白", style: "没事，还来得及\n要下梅雨了", script: Self.jpscScript)
        #expect(byStyle.language == .simplifiedChinese)
        #expect(byStyle.reason == "Simplified-only characters in its style's text")
    }

    /// A Chinese credits line with Japanese names in kana stays Chinese: 3 kana against 译, 对 and two ：.
    @Test func kanaNamesInAChineseLineLeaveItChinese() {
        let credits = CJKEvidence("翻译：小林さくら　校对：王小明")
        #expect(credits.kana == 3)
        #expect(credits.chineseOnly == 4)
        #expect(credits.script == .chinese)
        #expect(CJKEvidence("小林さくらです").script == .japanese)
        #expect(Self.resolve("翻译：小林さくら　校对：王小明", script: Self.jpscScript).language == .simplifiedChinese)
    }

    /// Characters both scripts write count for neither (舍 in 宿舍, 台 in 台灣); shinjitai shared with
    /// Simplified Chinese (学, 国) are not Chinese-only, since Japanese writes them too.
    @Test func sharedCharactersCountForNeither() {
        for shared in ["舍", "台", "后", "里", "干"] {
            let evidence = CJKEvidence(shared)
            #expect(evidence.traditionalOnly == 0 && evidence.simplifiedOnly == 0, "\(shared)")
        }
        #expect(CJKEvidence("宿舍").variant == nil)
        #expect(CJKEvidence("學校").variant == .traditionalChinese)
        #expect(CJKEvidence("学校").simplifiedOnly == 1)
        #expect(CJKEvidence("学校国会").chineseOnly == 0)
        #expect(CJKEvidence("们").chineseOnly == 1)
    }

    /// Korean from around a run only for a run without Han: Han beside Korean lines is the Chinese of a
    /// Korean+Chinese script.
    @Test func koreanAroundHanDoesNotMakeItKorean() {
        let krzh = "오늘은 좋은 날이에요\n今天天气很好\n내일 봐요\n明天见"
        #expect(Self.resolve("明天见", script: krzh).language == .simplifiedChinese)
        #expect(Self.resolve("안녕", script: krzh).language == .korean)
        #expect(Self.resolve("！", line: "내일 봐요！").language == .korean)
    }

    /// Text with nothing CJK anywhere is Simplified Chinese by default; no context at all never crashes.
    @Test func nothingToGoByIsTheDefault() {
        #expect(
            Self.resolve("Hello")
                == LanguageGuess(language: .simplifiedChinese, reason: "no CJK text, Simplified Chinese by default"))
        #expect(LanguageContext(levels: []).resolve().language == .simplifiedChinese)
    }

    /// Tags: single languages, the combined fansub forms, bracketed words of the title, and hostile names.
    @Test func readsTags() throws {
        #expect(LanguageTags(fileName: "Show.S01E01.JPSC.ass")?.languages == [.japanese, .simplifiedChinese])
        #expect(LanguageTags(fileName: "Show.S01E01.jptc.ass")?.languages == [.japanese, .traditionalChinese])
        #expect(LanguageTags(fileName: "Show.chs&jpn.ass")?.languages == [.japanese, .simplifiedChinese])
        #expect(LanguageTags(fileName: "[Group] Show - 01 [简日双语].ass")?.languages == [.japanese, .simplifiedChinese])
        #expect(LanguageTags(fileName: "[Group] Show - 01 [繁].ass")?.languages == [.traditionalChinese])
        #expect(LanguageTags(fileName: "Movie.zh-Hant.srt")?.variant == .traditionalChinese)
        #expect(LanguageTags(fileName: "Japan.Trip.2019.ass") == nil)
        #expect(LanguageTags(fileName: "Disc.sc2.ass") == nil)
        #expect(LanguageTags(tag: "繁日雙語", source: "track title")?.namesJapaneseAndChinese == true)
        #expect(LanguageTags(tag: "\u{0}\u{1B}[", source: "track title") == nil)
        let both = try #require(LanguageTags(tag: "jpn", source: "track language"))
            .adding(try #require(LanguageTags(fileName: "a.chs.ass")))
        #expect(both.namesJapaneseAndChinese && both.source == "track language and file name")
    }
}
