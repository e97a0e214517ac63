/// Which CJK character sets each BMP code point belongs to, read from the encodings' own tables through iconv:
/// the standards order their characters in a common level and a rarer one, which is the frequency knowledge
/// detection uses.
///
/// | flag | set | bytes enumerated |
/// | --- | --- | --- |
/// | `gbLevel1` | GB2312 level 1, the 3,755 most common simplified Hanzi | GB18030 0xB0A1 to 0xD7FE |
/// | `gbLevel2` | GB2312 level 2 (3,008 less common Hanzi) | GB18030 0xD8A1 to 0xF7FE |
/// | `big5Level1` | Big5 common characters (5,401) | CP950 0xA440 to 0xC67E |
/// | `big5Level2` | Big5 less common characters (7,652) | CP950 0xC940 to 0xF9D5 |
/// | `jisLevel1` | JIS X 0208 level 1 kanji (2,965) | CP932 0x889F to 0x9872 |
/// | `jisLevel2` | JIS X 0208 level 2 kanji (3,390) | CP932 0x989F to 0xEAA4 |
/// | `ksHangul` | KS X 1001 Hangul syllables (the 2,350 in common use) | CP949 0xB0A1 to 0xC8FE |
/// | `ksHanja` | KS X 1001 Hanja (4,888) | CP949 0xCAA1 to 0xFDFE |
struct CharacterTiers: Sendable {
    struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        static let gbLevel1 = Flags(rawValue: 1 << 0)
        static let gbLevel2 = Flags(rawValue: 1 << 1)
        static let big5Level1 = Flags(rawValue: 1 << 2)
        static let big5Level2 = Flags(rawValue: 1 << 3)
        static let jisLevel1 = Flags(rawValue: 1 << 4)
        static let jisLevel2 = Flags(rawValue: 1 << 5)
        static let ksHangul = Flags(rawValue: 1 << 6)
        static let ksHanja = Flags(rawValue: 1 << 7)
    }

    /// One byte of flags per BMP code point.
    private let table: [UInt8]

    /// The tables, built once (about 35,000 two-byte sequences through iconv, a few milliseconds).
    static let shared = CharacterTiers()

    /// The sets `scalar` belongs to.
    func flags(_ scalar: Unicode.Scalar) -> Flags {
        scalar.value < 0x10000 ? Flags(rawValue: table[Int(scalar.value)]) : []
    }

    private init() {
        var table = [UInt8](repeating: 0, count: 0x10000)
        let ranges: [(TextEncoding, ClosedRange<UInt8>, ClosedRange<UInt16>, Flags, UInt16, UInt16)] = [
            (.gb18030, 0xB0...0xD7, 0xA1...0xFE, .gbLevel1, 0xB0A1, 0xD7FE),
            (.gb18030, 0xD8...0xF7, 0xA1...0xFE, .gbLevel2, 0xD8A1, 0xF7FE),
            (.big5, 0xA4...0xC6, 0x40...0xFE, .big5Level1, 0xA440, 0xC67E),
            (.big5, 0xC9...0xF9, 0x40...0xFE, .big5Level2, 0xC940, 0xF9D5),
            (.shiftJIS, 0x88...0x98, 0x40...0xFC, .jisLevel1, 0x889F, 0x9872),
            (.shiftJIS, 0x98...0xEA, 0x40...0xFC, .jisLevel2, 0x989F, 0xEAA4),
            (.eucKR, 0xB0...0xC8, 0xA1...0xFE, .ksHangul, 0xB0A1, 0xC8FE),
            (.eucKR, 0xCA...0xFD, 0xA1...0xFE, .ksHanja, 0xCAA1, 0xFDFE),
        ]
        for (encoding, leads, trails, flag, first, last) in ranges {
            guard let converter = try? IconvConverter(from: encoding, to: .utf8) else { continue }
            for lead in leads {
                for trail in trails where trail != 0x7F {
                    let code = UInt16(lead) << 8 | trail
                    guard code >= first, code <= last,
                        let utf8 = try? converter.convert([lead, UInt8(trail)]),
                        let scalar = String(decoding: utf8, as: UTF8.self).unicodeScalars.first,
                        scalar.value < 0x10000, String(decoding: utf8, as: UTF8.self).unicodeScalars.count == 1
                    else { continue }
                    table[Int(scalar.value)] |= flag.rawValue
                }
            }
        }
        self.table = table
    }
}
