/// The typeface class a CJK font name stands for: the class of the face it is rewritten to. Song/Ming/Mincho
/// faces are serif; Hei/Gothic, YaHei, JhengHei and rounded faces are sans. Kai and handwriting faces have no
/// face of their own here and go to serif, the nearest class (their strokes have entries and ends).
public enum FaceClass: String, Sendable, Hashable, Codable {
    case sans, serif

    /// What a font name says of its class, and why: the first row of `FaceClassTable.rows` whose pattern is
    /// in the name (`KnownCJKFonts.key` form); sans when none is.
    ///
    ///     FaceClass.of("ＭＳ 明朝")   // (.serif, "Mincho (明朝) is serif")
    ///     FaceClass.of("微软雅黑")    // (.sans, "sans by default")
    public static func of(_ name: String) -> (faceClass: FaceClass, reason: String) {
        let key = KnownCJKFonts.key(name)
        for row in FaceClassTable.rows where row.patterns.contains(where: { key.contains($0) }) {
            return (row.faceClass, row.reason)
        }
        return (.sans, "sans by default")
    }
}

/// The one table of font-name classes. Sources: the foundries' own naming (Microsoft's SimSun/NSimSun/
/// FangSong/KaiTi and MingLiU; Apple's Songti/STSong/LiSung; Japanese 明朝/Mincho and ゴシック/Gothic, Morisawa's
/// Ryumin; Korean 바탕/Batang, 명조/Myungjo, 궁서/Gungsuh) and the Chinese type classes 宋/明 (serif), 黑 (sans),
/// 圆/圓 (rounded sans), 楷 (regular script), 行/隶/魏碑 (handwriting and calligraphy). Matched against the
/// lower-cased key without blanks, `-` or `_`; the first row that matches wins, so rounded and Kai names are
/// tried before the broad serif patterns.
public enum FaceClassTable {
    /// One class of names: the patterns (substrings of the key) and the reason a report gives.
    public struct Row: Sendable {
        public var patterns: [String]
        public var faceClass: FaceClass
        public var reason: String
    }

    public static let rows: [Row] = [
        Row(patterns: ["sansserif"], faceClass: .sans, reason: "sans-serif is sans"),
        Row(
            patterns: ["圆", "圓", "youyuan", "yuanti", "maru", "丸ゴ", "rounded"], faceClass: .sans,
            reason: "rounded (圆/Maru) is sans"),
        Row(
            patterns: ["楷", "kai", "教科書", "kyokasho"], faceClass: .serif,
            reason: "Kai (楷) has no face here: serif is the nearest class"),
        Row(
            patterns: [
                "行书", "行書", "行楷", "xingkai", "xingshu", "草书", "草書", "隶书", "隸書", "lishu", "simli",
                "魏碑", "手写", "手書", "brush", "궁서", "gungsuh",
            ],
            faceClass: .serif, reason: "a handwriting face has no face here: serif is the nearest class"),
        Row(patterns: ["仿宋", "fangsong", "simfang"], faceClass: .serif, reason: "FangSong (仿宋) is serif"),
        Row(
            patterns: ["明朝", "mincho", "ryumin", "リュウミン", "kozmin"], faceClass: .serif,
            reason: "Mincho (明朝) is serif"),
        Row(patterns: ["宋", "song", "sung", "simsun"], faceClass: .serif, reason: "Song (宋) is serif"),
        Row(patterns: ["明體", "明体", "細明", "细明", "ming"], faceClass: .serif, reason: "Ming (明) is serif"),
        Row(patterns: ["바탕", "batang", "명조", "myungjo"], faceClass: .serif, reason: "Myungjo (명조) is serif"),
        Row(patterns: ["serif"], faceClass: .serif, reason: "a serif face"),
    ]
}
