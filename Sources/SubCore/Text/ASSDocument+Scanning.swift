import Glibc

extension ASSDocument {
    static let standardStyleFormat = [
        "Name", "Fontname", "Fontsize", "PrimaryColour", "SecondaryColour", "OutlineColour", "BackColour", "Bold",
        "Italic", "Underline", "StrikeOut", "ScaleX", "ScaleY", "Spacing", "Angle", "BorderStyle", "Outline",
        "Shadow", "Alignment", "MarginL", "MarginR", "MarginV", "Encoding",
    ]
    static let standardEventFormat = [
        "Layer", "Start", "End", "Style", "Name", "MarginL", "MarginR", "MarginV", "Effect", "Text",
    ]

    /// The sections libass knows by name: the only ones a line can start inside `[Fonts]` or `[Graphics]`.
    static let knownSectionNames: Set<String> = [
        "script info", "v4 styles", "v4+ styles", "v4++ styles", "events", "fonts", "graphics",
    ]

    /// The headers libass knows, matched as it matches them: at the start of the line, ignoring case, whatever
    /// follows.
    static let knownHeaders: [(bytes: [UInt8], kind: ASSSection.Kind)] = {
        let headers: [(String, ASSSection.Kind)] = [
            ("[script info]", .scriptInfo), ("[v4 styles]", .styles), ("[v4+ styles]", .styles),
            ("[v4++ styles]", .styles), ("[events]", .events), ("[fonts]", .other), ("[graphics]", .other),
        ]
        return headers.map { (Array($0.0.utf8), $0.1) }
    }()

    /// The known header `content` starts with, if any.
    static func knownHeader(
        _ buffer: UnsafeBufferPointer<UInt8>, _ content: Range<Int>
    ) -> (name: String, kind: ASSSection.Kind)? {
        guard content.count >= 7, buffer[content.lowerBound] == 0x5B else { return nil }
        for header in knownHeaders where content.count >= header.bytes.count {
            let prefix = content.lowerBound..<(content.lowerBound + header.bytes.count)
            if zip(buffer[prefix], header.bytes).allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }) {
                // The name as written (`EVENTS`), without the brackets.
                return (buffer.string((prefix.lowerBound + 1)..<(prefix.upperBound - 1)), header.kind)
            }
        }
        return nil
    }

    /// Finds section headers (`[...]` alone on a line) and each section's `Format:` line. Inside `[Fonts]` and
    /// `[Graphics]`, whose encoded data lines may start with `[` and end with `]` (both are among the 64
    /// characters of `SSAFontEncoding`), such a line made only of those characters is data unless it names a
    /// section libass knows, as libass reads it.
    static func findSections(_ buffer: UnsafeBufferPointer<UInt8>, lines: [LineSpan]) -> [ASSSection] {
        var sections: [ASSSection] = []
        for (index, line) in lines.enumerated() {
            let content = buffer.trimmingBlanks(line.content)
            // libass takes a line that starts with a header it knows for that header, whatever follows it
            // (`[Events]x`, `[Events] ; comment`): so does subfix, or a file fixed here would read otherwise there.
            if let known = knownHeader(buffer, content) {
                if let last = sections.indices.last {
                    sections[last].bodyLines = sections[last].bodyLines.lowerBound..<index
                }
                sections.append(
                    ASSSection(
                        name: known.name, kind: known.kind, headerLine: index, bodyLines: (index + 1)..<lines.count,
                        format: []))
                continue
            }
            let bracketed =
                content.count >= 2 && buffer[content.lowerBound] == 0x5B && buffer[content.upperBound - 1] == 0x5D
            let inData = sections.last.map { ["fonts", "graphics"].contains($0.name.lowercased()) } ?? false
            let isData =
                bracketed && inData && buffer[content].allSatisfy(SSAFontEncoding.isEncodedCharacter)
                && !knownSectionNames.contains(
                    buffer.string((content.lowerBound + 1)..<(content.upperBound - 1)).lowercased())
            guard bracketed, !isData else {
                if let last = sections.indices.last, sections[last].format.isEmpty,
                    sections[last].kind == .styles || sections[last].kind == .events,
                    buffer.hasPrefixIgnoringCase("Format:", at: content.lowerBound, limit: content.upperBound)
                {
                    var names: [String] = []
                    var start = content.lowerBound + 7
                    while true {
                        let end = firstIndex(of: 0x2C, in: buffer, from: start, to: content.upperBound)
                        names.append(buffer.string(buffer.trimmingBlanks(start..<(end ?? content.upperBound))))
                        guard let end else { break }
                        start = end + 1
                    }
                    sections[last].format = names
                }
                continue
            }
            if let last = sections.indices.last {
                sections[last].bodyLines = sections[last].bodyLines.lowerBound..<index
            }
            let name = buffer.string((content.lowerBound + 1)..<(content.upperBound - 1))
            let kind: ASSSection.Kind
            switch name.lowercased() {
            case "script info": kind = .scriptInfo
            case "v4+ styles", "v4 styles", "v4++ styles": kind = .styles
            case "events": kind = .events
            default: kind = .other
            }
            sections.append(
                ASSSection(
                    name: name, kind: kind, headerLine: index, bodyLines: (index + 1)..<lines.count,
                    format: []))
        }
        for index in sections.indices where sections[index].format.isEmpty {
            switch sections[index].kind {
            case .styles:
                var format = standardStyleFormat
                if sections[index].name.lowercased() == "v4 styles" {
                    format = [
                        "Name", "Fontname", "Fontsize", "PrimaryColour", "SecondaryColour", "TertiaryColour",
                        "BackColour", "Bold", "Italic", "BorderStyle", "Outline", "Shadow", "Alignment", "MarginL",
                        "MarginR", "MarginV", "AlphaLevel", "Encoding",
                    ]
                }
                sections[index].format = format
            case .events:
                sections[index].format = standardEventFormat
            case .scriptInfo, .other:
                break
            }
        }
        return sections
    }

    /// Calls `body` with (line index, name range, Fontname field range) for every `Style:` line.
    func forEachStyle(
        _ buffer: UnsafeBufferPointer<UInt8>, _ body: (Int, Range<Int>, Range<Int>) -> Void
    ) {
        forEachStyle(buffer) { line, name, font, _ in body(line, name, font) }
    }

    /// Calls `body` with (line index, name range, Fontname field range, Bold field range when the line has one)
    /// for every `Style:` line.
    func forEachStyle(
        _ buffer: UnsafeBufferPointer<UInt8>, _ body: (Int, Range<Int>, Range<Int>, Range<Int>?) -> Void
    ) {
        for section in sections where section.kind == .styles {
            let fontIndex = section.format.firstIndex { $0.lowercased() == "fontname" }
            let nameIndex = section.format.firstIndex { $0.lowercased() == "name" } ?? 0
            let boldIndex = section.format.firstIndex { $0.lowercased() == "bold" }
            guard let fontIndex else { continue }
            let needed = max(fontIndex, nameIndex, boldIndex ?? 0) + 1
            for lineIndex in section.bodyLines {
                let line = lines[lineIndex]
                var start = line.start
                while start < line.end, buffer[start].isBlank { start += 1 }
                guard buffer.hasPrefixIgnoringCase("Style:", at: start, limit: line.end) else { continue }
                let fields = splitFields(buffer, (start + 6)..<line.end, count: needed, lastTakesRest: false)
                guard fields.count > max(fontIndex, nameIndex) else { continue }
                let bold = boldIndex.flatMap { $0 < fields.count ? buffer.trimmingBlanks(fields[$0]) : nil }
                body(lineIndex, buffer.trimmingBlanks(fields[nameIndex]), fields[fontIndex], bold)
            }
        }
    }

    /// Calls `body` with (line index, is comment, fields, Text range) for every `Dialogue:`/`Comment:` line.
    func forEachEvent(
        _ buffer: UnsafeBufferPointer<UInt8>, _ body: (Int, Bool, ASSFields, Range<Int>) -> Void
    ) {
        for section in sections where section.kind == .events {
            let format = section.format.map { $0.lowercased() }
            guard let textIndex = format.firstIndex(of: "text") else { continue }
            let startIndex = format.firstIndex(of: "start")
            let endIndex = format.firstIndex(of: "end")
            let styleIndex = format.firstIndex(of: "style")
            for lineIndex in section.bodyLines {
                let line = lines[lineIndex]
                var start = line.start
                while start < line.end, buffer[start].isBlank { start += 1 }
                let isComment: Bool
                let prefixLength: Int
                if buffer.hasPrefixIgnoringCase("Dialogue:", at: start, limit: line.end) {
                    isComment = false
                    prefixLength = 9
                } else if buffer.hasPrefixIgnoringCase("Comment:", at: start, limit: line.end) {
                    isComment = true
                    prefixLength = 8
                } else {
                    continue
                }
                let ranges = splitFields(
                    buffer, (start + prefixLength)..<line.end, count: format.count,
                    lastTakesRest: true)
                guard ranges.count == format.count else { continue }
                var text = ranges[textIndex]
                // libass skips the blanks after the colon only; the Text field starts right after its comma.
                if textIndex == 0 { text = buffer.trimmingBlanks(text).lowerBound..<text.upperBound }
                body(
                    lineIndex, isComment,
                    ASSFields(
                        ranges: ranges, startIndexField: startIndex, endIndexField: endIndex,
                        styleIndexField: styleIndex), text)
            }
        }
    }

    /// Calls `body` with the Text range of every `Dialogue:`/`Comment:` line, without splitting the other fields
    /// (the rewriter's fast path), and a function that finds the line's Style field when it is asked for.
    func forEachEventText(
        _ buffer: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, _ style: () -> Range<Int>?) -> Void
    ) {
        for section in sections where section.kind == .events {
            guard let textIndex = section.format.firstIndex(where: { $0.lowercased() == "text" }) else { continue }
            let styleIndex = section.format.firstIndex { $0.lowercased() == "style" }
            let textIsLast = textIndex == section.format.count - 1
            for lineIndex in section.bodyLines {
                let line = lines[lineIndex]
                var start = line.start
                while start < line.end, buffer[start].isBlank { start += 1 }
                guard start + 8 <= line.end else { continue }
                let first = buffer[start] | 0x20
                if first == 0x64, buffer.hasPrefixIgnoringCase("Dialogue:", at: start, limit: line.end) {
                    start += 9
                } else if first == 0x63, buffer.hasPrefixIgnoringCase("Comment:", at: start, limit: line.end) {
                    start += 8
                } else {
                    continue
                }
                let fieldsStart = start
                var commas = 0
                var index = start
                // Eight bytes at a time while the Text field's comma is not among them, then byte by byte.
                while index + 8 <= line.end {
                    let word = UnsafeRawPointer(buffer.baseAddress.unsafelyUnwrapped + index)
                        .loadUnaligned(as: UInt64.self)
                    let inWord = Self.commaCount(word)
                    if commas + inWord >= textIndex { break }
                    commas += inWord
                    index += 8
                }
                while commas < textIndex, index < line.end {
                    if buffer[index] == 0x2C { commas += 1 }
                    index += 1
                }
                guard commas == textIndex else { continue }
                if textIndex == 0 {
                    while index < line.end, buffer[index].isBlank { index += 1 }
                }
                var end = line.end
                if !textIsLast {
                    // Text before other fields (never seen in practice) ends at its comma, as splitFields reads it.
                    end = firstIndex(of: 0x2C, in: buffer, from: index, to: line.end) ?? line.end
                }
                let lineEnd = line.end
                body(index..<end) {
                    guard let styleIndex else { return nil }
                    let fields = splitFields(buffer, fieldsStart..<lineEnd, count: styleIndex + 1, lastTakesRest: false)
                    return fields.count == styleIndex + 1 ? buffer.trimmingBlanks(fields[styleIndex]) : nil
                }
            }
        }
    }

    /// How many of the eight bytes of `word` are commas: the exact zero-byte test (no false positive from a
    /// borrow) on `word ^ 0x2C2C...`, counted.
    @inline(__always)
    static func commaCount(_ word: UInt64) -> Int {
        let x = word ^ 0x2C2C_2C2C_2C2C_2C2C
        let low7 = 0x7F7F_7F7F_7F7F_7F7F as UInt64
        let zeroBytes = ~(((x & low7) &+ low7) | x | low7)
        return zeroBytes.nonzeroBitCount
    }

    /// Splits `range` at commas into at most `count` fields; with `lastTakesRest` the last field runs to the end
    /// of the line, commas included (the Text field). Leading blanks of the first field are skipped.
    func splitFields(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, count: Int, lastTakesRest: Bool
    ) -> [Range<Int>] {
        var fields: [Range<Int>] = []
        fields.reserveCapacity(count)
        var start = range.lowerBound
        while start < range.upperBound, buffer[start].isBlank { start += 1 }
        var index = start
        while index < range.upperBound, fields.count < count {
            if lastTakesRest && fields.count == count - 1 { break }
            if buffer[index] == 0x2C {
                fields.append(start..<index)
                start = index + 1
            }
            index += 1
        }
        if fields.count < count { fields.append(start..<range.upperBound) }
        return fields
    }

    /// The text of an event as shown: closed `{...}` blocks removed, `\N` and `\n` as line breaks, `\h` as a
    /// no-break space, and drawings (`{\p1}m 0 0 l 10 0 ...{\p0}`, vector commands, not words) left out.
    /// A `{` without its `}` is text, as libass reads it.
    static func plainText(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        appendPlainText(buffer, range, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the UTF-8 of `plainText(buffer, range)` to `output`, building no string (the rewriter gathers
    /// the text of hundreds of thousands of events this way).
    static func appendPlainText(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to output: inout [UInt8]) {
        var drawing = false
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = buffer[index]
            if byte == 0x7B, let close = firstIndex(of: 0x7D, in: buffer, from: index + 1, to: range.upperBound) {
                if let scale = drawingScale(buffer, index + 1..<close) { drawing = scale > 0 }
                index = close + 1
                continue
            }
            if drawing {
                index += 1
                continue
            }
            if byte == 0x5C, index + 1 < range.upperBound {
                let next = buffer[index + 1]
                if next == 0x4E || next == 0x6E {
                    output.append(0x0A)
                    index += 2
                    continue
                }
                if next == 0x68 {
                    output.append(contentsOf: [0xC2, 0xA0])
                    index += 2
                    continue
                }
            }
            output.append(byte)
            index += 1
        }
    }
}

extension ASSDocument {
    /// The value of the last `\p<digits>` tag in an override block (`\p1` starts a drawing, `\p0` ends it), or
    /// nil when the block has none (`\pos` and `\pbo` are other tags).
    static func drawingScale(_ buffer: UnsafeBufferPointer<UInt8>, _ block: Range<Int>) -> Int? {
        var scale: Int?
        var index = block.lowerBound
        while index + 1 < block.upperBound {
            if buffer[index] == 0x5C, buffer[index + 1] == 0x70 {  // "\p"
                var value = 0
                var digits = 0
                var cursor = index + 2
                while cursor < block.upperBound, buffer[cursor].isDigit, digits < 9 {
                    value = value * 10 + Int(buffer[cursor] - 0x30)
                    digits += 1
                    cursor += 1
                }
                if digits > 0 { scale = value }
                index = cursor
                continue
            }
            index += 1
        }
        return scale
    }

    /// Whether an event's text switches drawing mode on in any closed override block.
    static func hasDrawing(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            guard let open = firstIndex(of: 0x7B, in: buffer, from: index, to: range.upperBound),
                let close = firstIndex(of: 0x7D, in: buffer, from: open + 1, to: range.upperBound)
            else { return false }
            if let scale = drawingScale(buffer, open + 1..<close), scale > 0 { return true }
            index = close + 1
        }
        return false
    }
}

/// The first offset of `byte` in `buffer[from..<to]` (through `memchr`).
@inline(__always)
func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    guard from < to, let base = buffer.baseAddress else { return nil }
    guard let found = memchr(base + from, Int32(byte), to - from) else { return nil }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
}
