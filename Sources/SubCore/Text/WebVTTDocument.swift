/// A WebVTT file as UTF-8 bytes with its header, cues, NOTE, STYLE and REGION blocks located.
/// Writing it back gives the same bytes.
///
///     let document = try WebVTTDocument(utf8: text.utf8, file: "movie.vtt")
///     document.blocks.filter { $0.kind == .cue }.count
public struct WebVTTDocument: Sendable {
    /// The text (UTF-8, without a byte order mark).
    public let utf8: [UInt8]
    /// Every line of the text.
    public let lines: [LineSpan]
    /// The blocks (runs of lines between blank lines) in file order; the first is the header.
    public let blocks: [WebVTTBlock]
    /// The file as the user named it, for error messages.
    public let file: String

    /// Locates the blocks. Throws when the first line is not `WEBVTT` or a cue's times cannot be read.
    public init(utf8: [UInt8], file: String) throws(SubtitleParseError) {
        self.utf8 = utf8
        self.file = file
        let lines = TextLines.split(utf8)
        self.lines = lines
        var blocks: [WebVTTBlock] = []
        var failure: SubtitleParseError?
        utf8.withUnsafeBufferPointer { buffer in
            guard let first = lines.first, buffer.hasPrefixIgnoringCase("WEBVTT", at: first.start, limit: first.end),
                first.end == first.start + 6 || buffer[first.start + 6].isBlank
            else {
                failure = SubtitleParseError(
                    file: file, line: 1, column: 1,
                    message: "missing 'WEBVTT' header (expected the first line to start with WEBVTT)")
                return
            }
            var index = 0
            while index < lines.count {
                if lines[index].start == lines[index].end {
                    index += 1
                    continue
                }
                var end = index
                while end < lines.count, lines[end].start != lines[end].end { end += 1 }
                let kind: WebVTTBlock.Kind
                var timing: CueTiming?
                var timingLine: Int?
                if blocks.isEmpty && index == 0 {
                    kind = .header
                } else if WebVTTDocument.starts(buffer, lines[index], with: "NOTE") {
                    kind = .note
                } else if WebVTTDocument.starts(buffer, lines[index], with: "STYLE") {
                    kind = .style
                } else if WebVTTDocument.starts(buffer, lines[index], with: "REGION") {
                    kind = .region
                } else {
                    kind = .cue
                    for candidate in index..<min(index + 2, end) {
                        guard let arrow = SRTDocument.arrow(in: buffer, lines[candidate].content) else { continue }
                        switch CueTiming.parse(buffer, lines[candidate].content, arrow: arrow) {
                        case .success(let parsed):
                            timing = parsed
                            timingLine = candidate
                        case .failure(let offset, let token):
                            let position = textPosition(of: offset, in: utf8, lines: lines)
                            failure = SubtitleParseError(
                                file: file, line: position.line, column: position.column,
                                message: "malformed timestamp '\(token)' (expected HH:MM:SS.mmm)")
                            return
                        }
                        break
                    }
                }
                if kind == .cue, let timing, let timingLine {
                    blocks.append(
                        WebVTTBlock(
                            kind: .cue, lines: index..<end, timingLine: timingLine,
                            startMilliseconds: timing.start, endMilliseconds: timing.end,
                            settings: buffer.string(buffer.trimmingBlanks(timing.settingsStart..<lines[timingLine].end))
                        ))
                } else {
                    blocks.append(WebVTTBlock(kind: kind == .cue ? .unknown : kind, lines: index..<end))
                }
                index = end
            }
        }
        if let failure { throw failure }
        self.blocks = blocks
    }

    /// The text, byte for byte as it was read.
    public func write() -> [UInt8] { utf8 }

    /// The text with `edits` applied.
    public func write(applying edits: [TextEdit]) -> [UInt8] { TextEdit.apply(edits, to: utf8) }

    /// The byte range of a cue's payload (the lines after its timing line).
    public func textRange(of block: WebVTTBlock) -> Range<Int> {
        guard let timingLine = block.timingLine, timingLine + 1 < block.lines.upperBound else {
            let at = lines[block.lines.upperBound - 1].end
            return at..<at
        }
        return lines[timingLine + 1].start..<lines[block.lines.upperBound - 1].end
    }

    /// Every cue for the dialogue index: times, raw payload, and text without tags.
    public func dialogueLines() -> [DialogueLine] {
        utf8.withUnsafeBufferPointer { buffer in
            blocks.filter { $0.kind == .cue }.map { block in
                let range = textRange(of: block)
                return DialogueLine(
                    startMilliseconds: block.startMilliseconds, endMilliseconds: block.endMilliseconds,
                    style: "", rawText: buffer.string(range),
                    plainText: MarkupText.plain(buffer, range, lines: lines, entities: true))
            }
        }
    }

    private static func starts(_ buffer: UnsafeBufferPointer<UInt8>, _ line: LineSpan, with word: StaticString) -> Bool
    {
        let length = word.utf8CodeUnitCount
        guard buffer.hasPrefixIgnoringCase(word, at: line.start, limit: line.end) else { return false }
        return line.end == line.start + length || buffer[line.start + length].isBlank
    }
}

/// A block of a WebVTT file: lines between blank lines.
public struct WebVTTBlock: Sendable, Equatable {
    /// What the block is.
    public enum Kind: Sendable, Equatable {
        /// The `WEBVTT` line and the header lines after it.
        case header
        /// A `NOTE` comment.
        case note
        /// A `STYLE` block (CSS).
        case style
        /// A `REGION` definition.
        case region
        /// A cue: optional identifier, timing line with settings, payload.
        case cue
        /// Anything else, kept verbatim.
        case unknown
    }

    /// What the block is.
    public var kind: Kind
    /// Indexes of its lines in `WebVTTDocument.lines`.
    public var lines: Range<Int>
    /// For a cue, its timing line.
    public var timingLine: Int?
    /// For a cue, its start time in milliseconds.
    public var startMilliseconds: Int = 0
    /// For a cue, its end time in milliseconds.
    public var endMilliseconds: Int = 0
    /// For a cue, the settings after the end time (`align:center line:85%`).
    public var settings: String = ""
}

/// Plain text of SRT/WebVTT cue payloads.
enum MarkupText {
    /// `range` without `<...>` tags and `{\...}` blocks; line breaks become "\n"; with `entities`, `&amp;`, `&lt;`,
    /// `&gt;`, `&nbsp;` are decoded.
    static func plain(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, lines: [LineSpan], entities: Bool = false
    ) -> String {
        var output: [UInt8] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = buffer[index]
            if byte == 0x3C, let close = tagEnd(buffer, from: index + 1, to: range.upperBound) {
                index = close + 1
                continue
            }
            if byte == 0x7B, index + 1 < range.upperBound, buffer[index + 1] == 0x5C,
                let close = firstIndex(of: 0x7D, in: buffer, from: index + 1, to: range.upperBound)
            {
                index = close + 1
                continue
            }
            if byte == 0x0D {
                output.append(0x0A)
                index += index + 1 < range.upperBound && buffer[index + 1] == 0x0A ? 2 : 1
                continue
            }
            if entities, byte == 0x26 {
                let table: [(StaticString, [UInt8])] = [
                    ("&amp;", [0x26]), ("&lt;", [0x3C]), ("&gt;", [0x3E]), ("&nbsp;", [0xC2, 0xA0]),
                ]
                if let (name, value) = table.first(where: {
                    buffer.hasPrefixIgnoringCase($0.0, at: index, limit: range.upperBound)
                }) {
                    output.append(contentsOf: value)
                    index += name.utf8CodeUnitCount
                    continue
                }
            }
            output.append(byte)
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The `>` that ends a tag whose `<` is just before `start`, skipping quoted attribute values
    /// (`<font face="a>b">` ends at the last `>`); a quote without its closing quote is an ordinary byte. Nil when
    /// no `>` ends it before `end`. The rewriter reads `<font>` tags the same way, so a tag's text does not change
    /// when its attribute values are rewritten.
    static func tagEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            let byte = buffer[index]
            if byte == 0x3E { return index }
            if byte == 0x22 || byte == 0x27, let closing = firstIndex(of: byte, in: buffer, from: index + 1, to: end) {
                index = closing + 1
                continue
            }
            index += 1
        }
        return nil
    }
}
