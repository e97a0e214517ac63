import Foundation
import Synchronization

/// The fallback list of font names known to be CJK fonts (Windows, macOS, Linux and foundry names in Chinese,
/// Japanese and Korean), matched ignoring case, a leading `@`, blanks, `-`/`_`, and full-width/half-width forms.
///
///     KnownCJKFonts.contains("＠ＭＳ ゴシック")   // true
///     KnownCJKFonts.contains("FZLanTingHei-R-GBK")  // true (a 方正/FZ family)
///     KnownCJKFonts.contains("Arial")               // false
public enum KnownCJKFonts {
    /// Exact names, as written by the foundries; compared through `key(_:)`.
    public static let names: [String] = [
        // Simplified Chinese (Windows, Office)
        "SimHei", "SimSun", "NSimSun", "SimSun-ExtB", "SimKai", "SimFang", "SimLi", "SimYou", "KaiTi", "KaiTi_GB2312",
        "FangSong", "FangSong_GB2312", "LiSu", "YouYuan", "DengXian", "DengXian Light", "Microsoft YaHei",
        "Microsoft YaHei UI", "Microsoft YaHei Light", "黑体", "宋体", "新宋体", "楷体", "楷体_GB2312", "仿宋",
        "仿宋_GB2312", "隶书", "幼圆", "等线", "微软雅黑", "微软雅黑 Light", "中易黑体", "中易宋体",
        // Traditional Chinese
        "Microsoft JhengHei", "Microsoft JhengHei UI", "Microsoft JhengHei Light", "微軟正黑體", "微软正黑体",
        "MingLiU", "PMingLiU", "MingLiU_HKSCS", "MingLiU-ExtB", "PMingLiU-ExtB", "細明體", "新細明體", "细明体",
        "新细明体", "標楷體", "标楷体", "DFKai-SB", "儷黑 Pro", "LiHei Pro", "LiSong Pro", "儷宋 Pro",
        // macOS and iOS
        "PingFang SC", "PingFang TC", "PingFang HK", "苹方", "蘋方", "苹方-简", "蘋方-繁", "Heiti SC", "Heiti TC",
        "黑体-简", "黑體-繁", "Songti SC", "Songti TC", "宋体-简", "Kaiti SC", "Kaiti TC", "楷体-简", "Yuanti SC",
        "Hiragino Sans GB", "冬青黑体简体中文", "Lantinghei SC", "Lantinghei TC", "兰亭黑-简", "Apple LiGothic",
        "Apple LiSung", "Osaka", "Apple SD Gothic Neo", "AppleGothic", "AppleMyungjo",
        // Linux and open fonts
        "WenQuanYi Micro Hei", "WenQuanYi Micro Hei Mono", "WenQuanYi Zen Hei", "WenQuanYi Zen Hei Mono",
        "文泉驿微米黑", "文泉驛微米黑", "文泉驿正黑", "文泉驛正黑", "AR PL UMing CN", "AR PL UKai CN",
        "AR PL New Sung", "Droid Sans Fallback", "Arial Unicode MS", "Unifont", "IPAGothic", "IPAPGothic",
        "IPAMincho", "IPAPMincho", "IPAexGothic", "IPAexMincho", "TakaoGothic", "TakaoPGothic", "TakaoMincho",
        "VL Gothic", "M+ 1p", "Sarasa Gothic SC", "更纱黑体 SC",
        // Japanese (Windows)
        "MS Gothic", "MS PGothic", "MS UI Gothic", "MS Mincho", "MS PMincho", "ＭＳ ゴシック", "ＭＳ Ｐゴシック",
        "ＭＳ 明朝", "ＭＳ Ｐ明朝", "Meiryo", "Meiryo UI", "メイリオ", "Yu Gothic", "Yu Gothic UI", "Yu Gothic Medium",
        "Yu Mincho", "游ゴシック", "游明朝", "BIZ UDGothic", "BIZ UDPGothic", "BIZ UDMincho", "HGGothicE",
        "HGMinchoE", "HGSeikaishotaiPRO", "UD Digi Kyokasho N-R",
        // Korean
        "Malgun Gothic", "맑은 고딕", "Gulim", "굴림", "GulimChe", "굴림체", "Dotum", "돋움", "DotumChe", "돋움체",
        "Batang", "바탕", "BatangChe", "바탕체", "Gungsuh", "궁서", "GungsuhChe", "궁서체", "New Gulim", "새굴림",
    ]

    /// Families known by their prefix (方正…/FZ…, 华文…/ST…, Source Han…, Noto Sans/Serif CJK…, ...), and any
    /// name written with Han, kana or Hangul characters. Matched against `key(_:)`.
    public static let patterns: [String] = [
        #"^(方正|fz[a-z])"#,
        #"^(华文|華文|st(heiti|song|kaiti|fangsong|xihei|zhongsong|caiyun|hupo|liti|xingkai|xinwei|yuanti))"#,
        #"^(sourcehan(sans|serif)|思源(黑|宋)|源(ノ角|様))"#,
        #"^noto(sans|serif)(cjk|sc$|tc$|hk$|jp$|kr$|mono ?cjk)"#,
        #"^(汉仪|漢儀|hy[a-z]{2}|华康|華康|dfp?[a-z]|文鼎|造字工房|站酷|lxgw|霞鹜|霞鶩|cwtex|王漢宗)"#,
        #"^(hiragino|ヒラギノ|小塚|kozuka|kozgo|kozmin|aotf|モリサワ|morisawa|nanum|나눔|sarasa|更纱|更紗)"#,
        #"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]"#,
    ]

    nonisolated(unsafe) private static let compiled: [Regex<AnyRegexOutput>] = patterns.compactMap {
        try? Regex($0)
    }

    private static let keys: Set<String> = Set(names.map(key))

    /// The answers given so far, by name as written: a library's files ask about the same few dozen names
    /// thousands of times, and normalizing and matching a name costs microseconds. Bounded by `cacheLimit`.
    /// Matching runs under the lock, so the compiled regexes are never used from two threads at once.
    private static let answers = Mutex<[String: Bool]>([:])
    private static let cacheLimit = 4096

    /// Whether `name` is on the list or matches one of its family patterns.
    public static func contains(_ name: String) -> Bool {
        answers.withLock { answers in
            if let known = answers[name] { return known }
            let known = matches(name)
            if answers.count < cacheLimit { answers[name] = known }
            return known
        }
    }

    /// Foundry prefixes told apart by their case and punctuation, so matched against the name as written (less
    /// a vertical `@`): Fontworks' `FOT-`, Morisawa's `A-OTF`, Ricoh's `HG` before a capital or a CJK letter
    /// (`HGMaruGothicMPRO`, `HG丸ｺﾞｼｯｸM-PRO`, not `Hgv Sans`).
    public static let writtenPrefixes = #"^(FOT-|A-OTF|HG[A-Z\p{Han}\p{Katakana}\p{Hiragana}])"#

    nonisolated(unsafe) private static let writtenPrefix: Regex<AnyRegexOutput>? = try? Regex(writtenPrefixes)

    private static func matches(_ name: String) -> Bool {
        let normalized = key(name)
        if normalized.isEmpty { return false }
        if keys.contains(normalized) { return true }
        var written = name.trimmingCharacters(in: .whitespaces)
        if written.hasPrefix("@") || written.hasPrefix("＠") { written.removeFirst() }
        if let writtenPrefix, written.firstMatch(of: writtenPrefix) != nil { return true }
        return compiled.contains { normalized.firstMatch(of: $0) != nil }
    }

    /// The form names are compared in: blanks trimmed, a leading `@` (vertical writing) removed, NFKC
    /// (full-width Latin becomes ASCII, half-width kana becomes full-width), lower case, without blanks, `-`, `_`.
    public static func key(_ name: String) -> String {
        var text = name.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("@") || text.hasPrefix("＠") { text.removeFirst() }
        text = text.precomposedStringWithCompatibilityMapping.lowercased()
        text.unicodeScalars.removeAll { $0 == " " || $0 == "\t" || $0 == "-" || $0 == "_" || $0 == "\u{3000}" }
        return text
    }
}
