/// A SubRip file as UTF-8 bytes with its cues located, tolerant of real-world damage: missing blank lines,
/// `.` instead of `,`, extra spaces, missing indexes. Writing it back gives the same bytes.
///
///     let document = try SRTDocument(utf8: text.utf8, file: "movie.srt")
///     document.cues.count
public struct SRTDocument: Sendable {
    /// The text (UTF-8, without a byte order mark).
    public let utf8: [UInt8]
    /// Every line of the text.
    public let lines: [LineSpan]
    /// The cues in file order.
    public let cues: [SRTCue]
    /// The file as the user named it, for error messages.
    public let file: String

    /// Locates the cues. Throws on a line with `-->` whose times cannot be read.
    public init(utf8: [UInt8], file: String) throws(SubtitleParseError) {
        self.utf8 = utf8
        self.file = file
        let lines = TextLines.split(utf8)
        self.lines = lines
        var cues: [SRTCue] = []
        var failure: SubtitleParseError?
        utf8.withUnsafeBufferPointer { buffer in
            for (index, line) in lines.enumerated() {
                guard let arrow = SRTDocument.arrow(in: buffer, line.content) else { continue }
                // Dialogue such as "A --> B" is text: a timing line starts with a digit.
                let left = buffer.trimmingBlanks(line.start..<arrow)
                guard let first = left.first, buffer[first].isDigit else { continue }
                switch CueTiming.parse(buffer, line.content, arrow: arrow) {
                case .success(let timing):
                    // The line before, when it is a number, is this cue's index, not the last cue's text.
                    var indexLine: Int?
                    if index > 0 {
                        let previous = buffer.trimmingBlanks(lines[index - 1].content)
                        if !previous.isEmpty, previous.allSatisfy({ buffer[$0].isDigit }),
                            cues.last.map({ $0.timingLine != index - 1 }) ?? true
                        {
                            indexLine = index - 1
                        }
                    }
                    if let last = cues.indices.last {
                        let end = indexLine ?? index
                        var textEnd = end
                        while textEnd > cues[last].textLines.lowerBound,
                            buffer.trimmingBlanks(lines[textEnd - 1].content).isEmpty
                        { textEnd -= 1 }
                        cues[last].textLines = cues[last].textLines.lowerBound..<textEnd
                    }
                    cues.append(
                        SRTCue(
                            indexLine: indexLine, timingLine: index, startMilliseconds: timing.start,
                            endMilliseconds: timing.end, textLines: (index + 1)..<lines.count))
                case .failure(let offset, let token):
                    let position = textPosition(of: offset, in: utf8, lines: lines)
                    failure = SubtitleParseError(
                        file: file, line: position.line, column: position.column,
                        message: "malformed timestamp '\(token)' (expected HH:MM:SS,mmm)")
                    return
                }
            }
            if let last = cues.indices.last {
                var textEnd = lines.count
                while textEnd > cues[last].textLines.lowerBound,
                    buffer.trimmingBlanks(lines[textEnd - 1].content).isEmpty
                { textEnd -= 1 }
                cues[last].textLines = cues[last].textLines.lowerBound..<textEnd
            }
        }
        if let failure { throw failure }
        if cues.isEmpty, utf8.contains(where: { $0 > 0x20 }) {
            throw SubtitleParseError(
                file: file, line: 1, column: 1,
                message: "not a SubRip file (no 'HH:MM:SS,mmm --> HH:MM:SS,mmm' timing line)")
        }
        self.cues = cues
    }

    /// The text, byte for byte as it was read.
    public func write() -> [UInt8] { utf8 }

    /// The text with `edits` applied.
    public func write(applying edits: [TextEdit]) -> [UInt8] { TextEdit.apply(edits, to: utf8) }

    /// The byte range of a cue's text (its lines and the line breaks between them).
    public func textRange(of cue: SRTCue) -> Range<Int> {
        guard let first = cue.textLines.first, let last = cue.textLines.last else {
            let at = lines[cue.timingLine].next
            return at..<at
        }
        return lines[first].start..<lines[last].end
    }

    /// Every cue for the dialogue index: times, raw text, and text without tags.
    public func dialogueLines() -> [DialogueLine] {
        utf8.withUnsafeBufferPointer { buffer in
            cues.map { cue in
                let range = textRange(of: cue)
                return DialogueLine(
                    startMilliseconds: cue.startMilliseconds, endMilliseconds: cue.endMilliseconds,
                    style: "", rawText: buffer.string(range), plainText: MarkupText.plain(buffer, range, lines: lines))
            }
        }
    }

    /// The offset of `-->` in `range`, if any.
    static func arrow(in buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index + 3 <= range.upperBound {
            if buffer[index] == 0x2D, buffer[index + 1] == 0x2D, buffer[index + 2] == 0x3E { return index }
            index += 1
        }
        return nil
    }
}

/// A cue of a SubRip file, as line indexes into `SRTDocument.lines`.
public struct SRTCue: Sendable, Equatable {
    /// The index line, when the cue has one.
    public var indexLine: Int?
    /// The `start --> end` line.
    public var timingLine: Int
    /// Start time in milliseconds.
    public var startMilliseconds: Int
    /// End time in milliseconds.
    public var endMilliseconds: Int
    /// The text lines (trailing blank lines excluded).
    public var textLines: Range<Int>
}

/// The `start --> end [settings]` line shared by SubRip and WebVTT.
struct CueTiming {
    var start: Int
    var end: Int
    /// Where the settings after the end time begin (WebVTT).
    var settingsStart: Int

    enum Outcome {
        case success(CueTiming)
        case failure(offset: Int, token: String)
    }

    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, arrow: Int) -> Outcome {
        let left = buffer.trimmingBlanks(line.lowerBound..<arrow)
        var rightStart = arrow + 3
        while rightStart < line.upperBound, buffer[rightStart].isBlank { rightStart += 1 }
        var rightEnd = rightStart
        while rightEnd < line.upperBound, !buffer[rightEnd].isBlank { rightEnd += 1 }
        let right = rightStart..<rightEnd
        guard let start = Timestamp.parse(buffer, left) else {
            return .failure(offset: left.lowerBound, token: buffer.string(left))
        }
        guard let end = Timestamp.parse(buffer, right) else {
            return .failure(offset: right.lowerBound, token: buffer.string(right))
        }
        return .success(CueTiming(start: start, end: end, settingsStart: rightEnd))
    }
}
