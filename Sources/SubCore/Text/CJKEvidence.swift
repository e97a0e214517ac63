import Foundation

/// The three CJK writing systems a face is first chosen between; Chinese then splits into its two scripts.
public enum CJKScript: String, Sendable, Hashable {
    case chinese, japanese, korean
}

/// What one stretch of text says about its CJK language, counted in one pass with table lookups
/// (`HanTable`): Han, kana and Hangul, the Han characters only one Chinese script writes, and the signs that
/// only Chinese writes (those characters outside Japanese's JIS X 0208 set, and the full-width `，`, `；`
/// and `：` Japanese does not use).
///
///     CJKEvidence("翻译：小林さくら　校对：王").script      // .chinese (3 kana against 4 Chinese-only signs)
///     CJKEvidence("评论").variant                          // .simplifiedChinese
public struct CJKEvidence: Sendable, Hashable {
    public private(set) var han = 0
    public private(set) var kana = 0
    public private(set) var hangul = 0
    /// Han characters only Traditional Chinese writes (`們`), and only Simplified Chinese (`们`). Characters
    /// both write (`舍`, `台`, `后`) count for neither.
    public private(set) var traditionalOnly = 0
    public private(set) var simplifiedOnly = 0
    /// Characters and punctuation Chinese writes and Japanese does not.
    public private(set) var chineseOnly = 0

    /// No evidence.
    public init() {}

    /// The evidence of `text`.
    public init(_ text: some StringProtocol) {
        for scalar in text.unicodeScalars { add(scalar) }
    }

    /// The evidence of UTF-8 bytes (invalid sequences count as nothing).
    public init(utf8 bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { add(utf8: $0) }
    }

    /// Counts the characters of UTF-8 bytes, decoding only the three- and four-byte sequences (every CJK
    /// character is one; ASCII and two-byte letters count for nothing), so that a whole script is counted at
    /// about a byte a nanosecond.
    public mutating func add(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0xE0 {
                index += 1
                continue
            }
            if lead < 0xF0, index + 2 < count {
                let value =
                    UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6
                    | UInt32(bytes[index + 2] & 0x3F)
                if let scalar = Unicode.Scalar(value) { add(scalar) }
                index += 3
            } else if lead < 0xF8, index + 3 < count {
                let value =
                    UInt32(lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                    | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                if let scalar = Unicode.Scalar(value) { add(scalar) }
                index += 4
            } else {
                index += 1
            }
        }
    }

    /// Counts one character.
    public mutating func add(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        if value < 0x3000 { return }
        if CJKText.isHan(scalar) {
            han += 1
            let flags = HanTable.flags(value)
            if flags & HanTable.traditionalOnly != 0 {
                traditionalOnly += 1
            } else if flags & HanTable.simplifiedOnly != 0 {
                simplifiedOnly += 1
            }
            if flags & (HanTable.traditionalOnly | HanTable.simplifiedOnly) != 0, flags & HanTable.japanese == 0 {
                chineseOnly += 1
            }
        } else if CJKText.isKana(scalar) {
            kana += 1
        } else if CJKText.isHangul(scalar) {
            hangul += 1
        } else if value == 0xFF0C || value == 0xFF1B || value == 0xFF1A {
            chineseOnly += 1
        }
    }

    /// Both stretches' evidence together.
    public static func + (a: CJKEvidence, b: CJKEvidence) -> CJKEvidence {
        var sum = a
        sum.han += b.han
        sum.kana += b.kana
        sum.hangul += b.hangul
        sum.traditionalOnly += b.traditionalOnly
        sum.simplifiedOnly += b.simplifiedOnly
        sum.chineseOnly += b.chineseOnly
        return sum
    }

    /// How many Han, kana and Hangul characters.
    public var cjk: Int { han + kana + hangul }

    /// The writing system this text alone shows, or nil when it does not tell (Han characters both languages
    /// write, or no CJK). Hangul makes it Korean and kana Japanese, each when at least one in ten of its CJK
    /// characters; kana must also outweigh the Chinese-only signs, so that a few kana names in a Chinese
    /// credits line leave it Chinese.
    public var script: CJKScript? {
        if hangul > 0, hangul * 10 >= cjk { return .korean }
        if kana > 0, kana * 10 >= cjk, kana > chineseOnly { return .japanese }
        if chineseOnly > 0 { return .chinese }
        return nil
    }

    /// Which Chinese script the text is written in, when its own characters tell: more Traditional-only than
    /// Simplified-only characters, or the other way round.
    public var variant: CJKLanguage? {
        if traditionalOnly > simplifiedOnly { return .traditionalChinese }
        if simplifiedOnly > traditionalOnly { return .simplifiedChinese }
        return nil
    }

    /// Whether this text alone decides everything a context would: its writing system, and for Chinese its
    /// script (so the levels around it need not be read).
    public var decidesAlone: Bool {
        guard let script else { return false }
        return script != .chinese || variant != nil
    }

    /// Whether the text holds both languages in earnest: kana in one of ten CJK characters, and at least three
    /// Chinese-only signs that are one in fifty of its Han (a Japanese+Chinese bilingual script).
    public var isJapaneseAndChinese: Bool {
        kana > 0 && kana * 10 >= cjk && chineseOnly >= 3 && chineseOnly * 50 >= han
    }
}

/// Per Han character of the BMP blocks (Extension A and the unified block), whether only Traditional or only
/// Simplified Chinese writes it (ICU's `Hant-Hans` / `Hans-Hant` transforms, built into Foundation, less the
/// characters both scripts write), and whether Japanese writes it (it is in JIS X 0208, through iconv's
/// EUC-JP). Built once, on first use, in about 30 ms; read without locks afterwards.
enum HanTable {
    static let traditionalOnly: UInt8 = 1
    static let simplifiedOnly: UInt8 = 2
    static let japanese: UInt8 = 4

    static let first: UInt32 = 0x3400
    static let last: UInt32 = 0x9FFF

    /// The flags of `value` (0 outside the table: other blocks count as common characters).
    static func flags(_ value: UInt32) -> UInt8 {
        guard value >= first, value <= last else { return 0 }
        return table[Int(value - first)]
    }

    /// Characters both Chinese scripts write, which `Hans-Hant` still changes because they also stand for a
    /// Traditional character merged into them (`舍` for 捨, `台` for 臺). Each is in everyday Traditional use
    /// in its own sense (宿舍, 台灣, 皇后, ...). Compiled for subfix from the one-to-many Simplified mappings.
    static let writtenByBoth: String =
        "干后里面只台系松谷丑出冲几斗范丰划回伙借卷困累帘蒙朴仆千秋曲舍沈术涂向余吁御愿云扎折征制致周注准咸表卜才"
        + "采党吊冬刮胡姜克夸蜡了霉凄洒叶佣游郁岳占筑据腊苹杰症卤尸拐麻"

    private static let table: [UInt8] = build()

    private static func build() -> [UInt8] {
        var table = [UInt8](repeating: 0, count: Int(last - first) + 1)
        var characters: [Unicode.Scalar] = []
        characters.reserveCapacity(table.count)
        for value in first...last { if let scalar = Unicode.Scalar(value) { characters.append(scalar) } }
        let toSimplified = HanTransform.map(characters, StringTransform("Hant-Hans"))
        let toTraditional = HanTransform.map(characters, StringTransform("Hans-Hant"))
        let both = Set(writtenByBoth.unicodeScalars)
        for (index, character) in characters.enumerated() where !both.contains(character) {
            let changedToSimplified = toSimplified[index] != character
            let changedToTraditional = toTraditional[index] != character
            let slot = Int(character.value - first)
            if changedToSimplified && !changedToTraditional {
                table[slot] = traditionalOnly
            } else if changedToTraditional && !changedToSimplified {
                table[slot] = simplifiedOnly
            }
        }
        // JIS X 0208's kanji rows (16 to 84) in EUC-JP: two bytes from 0xB0A1 to 0xF4FE, one conversion each (an
        // unassigned code fails alone). Without iconv's EUC-JP, no character counts as Japanese.
        if let converter = try? IconvConverter(from: .eucJP, to: .utf32LE) {
            for lead in UInt8(0xB0)...0xF4 {
                for trail in UInt8(0xA1)...0xFE {
                    guard let out = try? converter.convert([lead, trail]), out.count == 4 else { continue }
                    let value = out.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                    if value >= first && value <= last { table[Int(value - first)] |= japanese }
                }
            }
        }
        return table
    }
}
