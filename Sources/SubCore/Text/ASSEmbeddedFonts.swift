import Foundation

/// A font carried inside an ASS/SSA script's `[Fonts]` section (or to be put there).
public struct EmbeddedFont: Sendable, Hashable {
    /// The name on its `fontname:` line (`subfix-NotoSansCJKJP_0.otf`).
    public var name: String
    /// The font's bytes.
    public var data: Data

    /// A font named `name` holding `data`.
    public init(name: String, data: Data) {
        self.name = name
        self.data = data
    }

    /// The prefix of the names subfix gives the fonts it embeds, so that a later run replaces them.
    public static let subfixPrefix = "subfix-"
}

/// SSA's own UUencoding of `[Fonts]` data, as VSFilter writes and libass reads it: every 3 bytes become 4
/// characters, each 6 bits plus 33; a last 1 or 2 bytes become 2 or 3 characters. Lines hold 80 characters,
/// or a multiple of 4 fewer where the next line would start with `[` (which a parser may take for a section).
public enum SSAFontEncoding {
    /// How many encoded characters a data line holds (what Aegisub and VSFilter write).
    public static let lineLength = 80

    /// Whether `character` is one of the 64 the encoding writes (`!` to `` ` ``).
    static func isEncodedCharacter(_ character: UInt8) -> Bool { character >= 33 && character < 33 + 64 }

    /// Where each data line of `encoded` ends: every `lineLength` characters, or 4, 8, ... sooner when the next
    /// line would start with `[`, so that no line but the first reads as `[...]`. Lines stay whole groups of 4,
    /// for readers that decode line by line.
    static func lineEnds(_ encoded: [UInt8]) -> [Int] {
        var ends: [Int] = []
        var start = 0
        while start < encoded.count {
            var end = min(start + lineLength, encoded.count)
            while end < encoded.count, encoded[end] == 0x5B, end - 4 > start { end -= 4 }
            if end < encoded.count, encoded[end] == 0x5B { end = min(start + lineLength, encoded.count) }
            ends.append(end)
            start = end
        }
        return ends
    }

    /// The encoded characters of `data`, without line breaks.
    public static func encode(_ data: Data) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((data.count + 2) / 3 * 4)
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var index = 0
            while index < bytes.count {
                let b0 = UInt32(bytes[index])
                let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
                let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
                let group = b0 << 16 | b1 << 8 | b2
                let count = min(3, bytes.count - index) + 1
                for shift in [18, 12, 6, 0].prefix(count) {
                    output.append(UInt8((group >> UInt32(shift)) & 0x3F) + 33)
                }
                index += 3
            }
        }
        return output
    }

    /// The bytes of encoded characters (line breaks already removed); nil when the length cannot come from
    /// `encode` (one character left over) or a character is outside the 64 the encoding uses.
    public static func decode(_ characters: some Collection<UInt8>) -> Data? {
        guard characters.count % 4 != 1 else { return nil }
        var output = Data()
        output.reserveCapacity(characters.count / 4 * 3 + 2)
        var group: UInt32 = 0
        var count = 0
        for character in characters {
            guard isEncodedCharacter(character) else { return nil }
            group = group << 6 | UInt32(character - 33)
            count += 1
            if count == 4 {
                output.append(contentsOf: [UInt8(group >> 16 & 0xFF), UInt8(group >> 8 & 0xFF), UInt8(group & 0xFF)])
                group = 0
                count = 0
            }
        }
        if count == 2 {
            output.append(UInt8(group >> 4 & 0xFF))
        } else if count == 3 {
            output.append(contentsOf: [UInt8(group >> 10 & 0xFF), UInt8(group >> 2 & 0xFF)])
        }
        return output
    }
}

/// One `fontname:` entry of a `[Fonts]` section: its name and the lines from its `fontname:` line through its
/// last data line.
struct ASSFontEntry {
    var name: String
    /// Indexes into `ASSDocument.lines`.
    var lines: Range<Int>
}

extension ASSDocument {
    /// The `fontname:` entries of every `[Fonts]` section, in order.
    func fontEntries() -> [ASSFontEntry] {
        var entries: [ASSFontEntry] = []
        utf8.withUnsafeBufferPointer { buffer in
            for section in sections where section.name.lowercased() == "fonts" {
                var current: (name: String, first: Int, last: Int)?
                for index in section.bodyLines {
                    let line = lines[index]
                    let content = buffer.trimmingBlanks(line.content)
                    if buffer.hasPrefixIgnoringCase("fontname:", at: line.start, limit: line.end) {
                        if let current {
                            entries.append(ASSFontEntry(name: current.name, lines: current.first..<(current.last + 1)))
                        }
                        let name = buffer.string(buffer.trimmingBlanks((line.start + 9)..<line.end))
                        current = (name, index, index)
                    } else if !content.isEmpty, current != nil {
                        current?.last = index
                    }
                }
                if let current {
                    entries.append(ASSFontEntry(name: current.name, lines: current.first..<(current.last + 1)))
                }
            }
        }
        return entries
    }

    /// The fonts of its `[Fonts]` sections, decoded, and the names of entries whose data cannot be decoded.
    public func embeddedFonts() -> (fonts: [EmbeddedFont], undecodable: [String]) {
        var fonts: [EmbeddedFont] = []
        var undecodable: [String] = []
        utf8.withUnsafeBufferPointer { buffer in
            for entry in fontEntries() {
                var characters: [UInt8] = []
                for index in entry.lines.dropFirst() {
                    characters.append(contentsOf: buffer[buffer.trimmingBlanks(lines[index].content)])
                }
                if let data = SSAFontEncoding.decode(characters), !data.isEmpty {
                    fonts.append(EmbeddedFont(name: entry.name, data: data))
                } else {
                    undecodable.append(entry.name)
                }
            }
        }
        return (fonts, undecodable)
    }

    /// The edits that put `fonts` in the script's `[Fonts]` section in place of the fonts subfix embedded
    /// before (names starting with `EmbeddedFont.subfixPrefix`); other fonts stay as they are. Without a
    /// `[Fonts]` section, one is added before `[Events]` (or at the end), as Aegisub places it. Line breaks
    /// follow the script's own. Embedding the same fonts twice gives the same bytes.
    public func embedding(_ fonts: [EmbeddedFont]) -> [TextEdit] {
        let newline: [UInt8] = lineBreak()
        var block: [UInt8] = []
        for font in fonts {
            block += Array("fontname: \(font.name)".utf8) + newline
            let encoded = SSAFontEncoding.encode(font.data)
            var start = 0
            for end in SSAFontEncoding.lineEnds(encoded) {
                block += encoded[start..<end] + newline
                start = end
            }
        }
        let ours = fontEntries().filter { $0.name.hasPrefix(EmbeddedFont.subfixPrefix) }
        if let first = ours.first, let last = ours.last,
            zip(ours, ours.dropFirst()).allSatisfy({ $0.lines.upperBound == $1.lines.lowerBound })
        {
            // One run of old fonts: one edit, so that the same fonts again are no change at all.
            let range = lines[first.lines.lowerBound].start..<lines[last.lines.upperBound - 1].next
            return [TextEdit(range: range, replacement: block)]
        }
        if !ours.isEmpty {
            // The new fonts take the place of the first old one; the others are removed.
            return ours.enumerated().map { offset, entry in
                let range = lines[entry.lines.lowerBound].start..<lines[entry.lines.upperBound - 1].next
                return TextEdit(range: range, replacement: offset == 0 ? block : [])
            }
        }
        guard !fonts.isEmpty else { return [] }
        if let section = sections.first(where: { $0.name.lowercased() == "fonts" }) {
            // After the section's last non-blank line.
            let last = section.bodyLines.last { !lines[$0].content.isEmpty } ?? section.headerLine
            let at = lines[last].next
            let prefix = at == lines[last].end ? newline : []
            return [TextEdit(range: at..<at, replacement: prefix + block)]
        }
        let section = Array("[Fonts]".utf8) + newline + block + newline
        if let events = sections.first(where: { $0.kind == .events }) {
            let at = lines[events.headerLine].start
            return [TextEdit(range: at..<at, replacement: section)]
        }
        let end = utf8.count
        let needsBreak = !(utf8.last == 0x0A || utf8.last == 0x0D)
        return [TextEdit(range: end..<end, replacement: (needsBreak ? newline : []) + newline + section)]
    }

    /// The script's line break: that of its first line (CRLF, CR or LF).
    func lineBreak() -> [UInt8] {
        guard let first = lines.first(where: { $0.next > $0.end }) else { return [0x0A] }
        return Array(utf8[first.end..<first.next])
    }
}
