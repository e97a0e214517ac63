import Testing

@testable import SubCore

/// The word-at-a-time scanners agree with a byte-by-byte count.
@Suite struct ScanningTests {
    private static func naiveCommas(_ word: UInt64) -> Int {
        (0..<8).filter { (word >> (8 * UInt64($0))) & 0xFF == 0x2C }.count
    }

    @Test func commaCountMatchesAByteByByteCount() {
        // Every byte value next to commas and to bytes one off a comma ('+', '-'), which fool the borrow-based test.
        for value in 0...255 {
            for position in 0..<8 {
                for filler: UInt64 in [0x2C, 0x2B, 0x2D, 0x00, 0xFF] {
                    var word: UInt64 = 0
                    for byte in 0..<8 { word |= filler << (8 * UInt64(byte)) }
                    word &= ~(0xFF << (8 * UInt64(position)))
                    word |= UInt64(value) << (8 * UInt64(position))
                    #expect(ASSDocument.commaCount(word) == Self.naiveCommas(word), "word \(String(word, radix: 16))")
                }
            }
        }
        // And pseudo-random words (a fixed linear congruential sequence).
        var state: UInt64 = 0x1234_5678
        for _ in 0..<10_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let word = state & 0x3F3F_3F3F_3F3F_3F3F  // many bytes near 0x2C
            #expect(ASSDocument.commaCount(word) == Self.naiveCommas(word))
        }
    }

    @Test func eventTextFoundAfterItsCommasAtEveryAlignment() throws {
        // The Text field starts after nine commas wherever they fall relative to eight-byte words.
        for padding in 0..<9 {
            let name = String(repeating: "n", count: padding)
            let text =
                "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,\(name),0,0,0,,{\\fnSimHei}a,b,c\n"
            let document = try ASSDocument(utf8: Array(text.utf8), file: "t.ass")
            let texts = document.utf8.withUnsafeBufferPointer { buffer in
                var found: [String] = []
                document.forEachEventText(buffer) { text, style in
                    found.append(String(decoding: buffer[text], as: UTF8.self))
                    found.append(style().map { String(decoding: buffer[$0], as: UTF8.self) } ?? "-")
                }
                return found
            }
            #expect(texts == ["{\\fnSimHei}a,b,c", "Default"])
        }
    }
}

/// Section headers are read as libass reads them (issue 35, item 7): a line that starts with a header libass
/// knows is that header, whatever follows, so `[Events]x` holds events in subfix as in a player.
@Suite struct LibassHeaderTests {
    static func events(under header: String) throws -> [String] {
        let text =
            "[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname\nStyle: Default,SimHei\n\n"
            + header + "\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\fnSimHei}你好\n"
        return try ASSDocument(utf8: Array(text.utf8), file: "t.ass").events.map(\.style)
    }

    @Test(arguments: ["[Events]", "[Events]x", "[EVENTS] ; comment", "  [events]]"])
    func headersLibassKnowsArePrefixes(header: String) throws {
        #expect(try Self.events(under: header) == ["Default"])
    }

    @Test(arguments: ["[Eventsx]", "[Event]", "Events]"])
    func otherLinesAreNot(header: String) throws {
        #expect(try Self.events(under: header) == [])
    }

    /// A fix of such a file rewrites its `\fn` runs, as libass would draw them.
    @Test func fixRewritesEventsUnderAPrefixHeader() throws {
        let text =
            "[Script Info]\nScriptType: v4.00+\n\n[Events]x\n"
            + "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\fnSimHei}你好\n"
        let rewrite = FontRewriter(targetFont: "Noto Sans CJK SC").rewrite(
            try ASSDocument(utf8: Array(text.utf8), file: "t.ass"))
        #expect(rewrite.fnTags == 1)
    }
}
