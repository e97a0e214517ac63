import Foundation
import Testing

@testable import SubCore

/// The class table (issue 29, item 4): serif names go to Noto Serif CJK, sans and rounded names to Noto Sans CJK,
/// Kai and handwriting faces to serif as the nearest class; foundry prefixes are known CJK names.
@Suite struct FaceClassTests {
    @Test(arguments: [
        "SimSun", "NSimSun", "宋体", "华文中宋", "MS Mincho", "ＭＳ 明朝", "@ＭＳ Ｐ明朝", "PMingLiU", "新細明體", "MingLiU_HKSCS",
        "FangSong", "仿宋_GB2312", "Batang", "바탕", "Hiragino Mincho ProN", "Yu Mincho", "游明朝", "Songti SC",
        "Source Han Serif SC", "思源宋体", "AR PL UMing CN", "FOT-RodinMincho", "A-OTF Ryumin Pro",
    ])
    func serifNames(name: String) {
        #expect(FaceClass.of(name).faceClass == .serif, "\(name)")
    }

    @Test(arguments: [
        "Microsoft YaHei", "微软雅黑", "Microsoft JhengHei", "黑体", "SimHei", "MS Gothic", "ＭＳ ゴシック", "Meiryo",
        "方正兰亭圆_GBK", "YouYuan", "幼圆", "HG丸ｺﾞｼｯｸM-PRO", "FOT-RodinPro-DB", "Noto Sans CJK JP", "Malgun Gothic",
        "sans-serif", "",
    ])
    func sansNames(name: String) {
        #expect(FaceClass.of(name).faceClass == .sans, "\(name)")
    }

    /// Kai and handwriting faces have no face of their own here: serif, and the reason says it is the nearest.
    @Test(arguments: ["KaiTi", "楷体", "標楷體", "DFKai-SB", "华文行楷", "隶书", "STXingkai"])
    func kaiAndHandwritingGoToTheNearestClass(name: String) {
        let (faceClass, reason) = FaceClass.of(name)
        #expect(faceClass == .serif, "\(name)")
        #expect(reason.contains("nearest class"), "\(name): \(reason)")
    }

    /// The Japanese, Chinese and Korean foundries' family prefixes are known CJK names.
    @Test(arguments: [
        "FOT-RodinPro-DB", "A-OTF Shin Go Pro", "DFPKaiW5-B5", "HGMaruGothicMPRO", "FZLanTingHei-R-GBK", "方正粗黑",
        "HYGothic-Extra", "华文细黑", "華康儷中黑", "DFKai-SB",
    ])
    func foundryPrefixesAreKnown(name: String) {
        #expect(KnownCJKFonts.contains(name), "\(name)")
    }

    @Test func latinNamesAreNotKnown() {
        for name in ["Arial", "Helvetica", "Fotograf", "Hgv Sans", "Dejavu Sans"] {
            #expect(!KnownCJKFonts.contains(name), "\(name)")
        }
    }
}
