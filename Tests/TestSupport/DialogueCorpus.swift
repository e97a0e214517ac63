/// A deterministic generator (SplitMix64), so that a failing generated corpus can be reproduced from its seed.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Generated dialogue lines for the search tests: Chinese (simplified and traditional), Japanese (with half-width
/// katakana), Korean, Latin words and full-width forms, with the separators subtitles use.
public enum DialogueCorpus {
    public static let kana = Array("こんにちはありがとうカタナｶﾞｷ")
    public static let hangul = Array("한국어안녕")
    public static let separators = ["", "", "", " ", "，", "。", "！", "\n", "…", "、", "「", "」"]

    /// `count` lines from `seed`: half Han characters from `han`, then kana, Hangul and `words`.
    public static func lines(count: Int, seed: UInt64, han: [Character], words: [String]) -> [String] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { _ in
            var line = ""
            for _ in 0..<Int.random(in: 1...14, using: &random) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5: line.append(han.randomElement(using: &random) ?? "你")
                case 5..<7: line.append(kana.randomElement(using: &random) ?? "こ")
                case 7: line.append(hangul.randomElement(using: &random) ?? "한")
                default: line += " " + (words.randomElement(using: &random) ?? "the") + " "
                }
                line += separators.randomElement(using: &random) ?? ""
            }
            return line
        }
    }
}
