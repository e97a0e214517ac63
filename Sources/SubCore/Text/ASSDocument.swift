/// An ASS or SSA script as UTF-8 bytes, with its sections, styles and events located but nothing normalised:
/// writing it back gives the same bytes, and edits change only the bytes they name.
///
///     let document = try ASSDocument(utf8: text.utf8, file: "episode.ass")
///     document.styles.map(\.fontName)          // ["微软雅黑", "SimHei"]
///     let lines = try document.dialogueLines() // for the dialogue index
public struct ASSDocument: Sendable {
    /// The script's text (UTF-8, without a byte order mark).
    public let utf8: [UInt8]
    /// Every line of the text.
    public let lines: [LineSpan]
    /// The sections in the order they appear.
    public let sections: [ASSSection]
    /// The file as the user named it, for error messages.
    public let file: String

    /// Locates the sections of `utf8`. Throws when the text has no section header at all (it is not a script).
    public init(utf8: [UInt8], file: String) throws(SubtitleParseError) {
        self.utf8 = utf8
        self.file = file
        let lines = TextLines.split(utf8)
        self.lines = lines
        self.sections = utf8.withUnsafeBufferPointer { ASSDocument.findSections($0, lines: lines) }
        if sections.isEmpty {
            throw SubtitleParseError(
                file: file, line: 1, column: 1,
                message: "not an ASS/SSA script (no section header such as [Script Info] or [Events])")
        }
    }

    /// The text, byte for byte as it was read.
    public func write() -> [UInt8] { utf8 }

    /// The text with `edits` applied.
    public func write(applying edits: [TextEdit]) -> [UInt8] { TextEdit.apply(edits, to: utf8) }

    /// Every `Style:` line of every styles section (`[V4+ Styles]`, `[V4 Styles]`).
    public var styles: [ASSStyle] {
        var result: [ASSStyle] = []
        utf8.withUnsafeBufferPointer { buffer in
            forEachStyle(buffer) { line, name, font, bold in
                result.append(
                    ASSStyle(
                        line: line + 1, name: buffer.string(name), fontName: buffer.string(font),
                        fontNameRange: font, weight: ASSStyle.weight(bold.map { buffer.string($0) } ?? "0")))
            }
        }
        return result
    }

    /// Every `Dialogue:` and `Comment:` event of every `[Events]` section.
    public var events: [ASSEvent] {
        var result: [ASSEvent] = []
        utf8.withUnsafeBufferPointer { buffer in
            forEachEvent(buffer) { line, isComment, fields, text in
                func field(_ index: Int?) -> String {
                    guard let index, index < fields.count else { return "" }
                    return buffer.string(buffer.trimmingBlanks(fields[index]))
                }
                result.append(
                    ASSEvent(
                        line: line + 1, isComment: isComment, start: field(fields.startIndexField),
                        end: field(fields.endIndexField), style: field(fields.styleIndexField), textRange: text))
            }
        }
        return result
    }

    /// The `Dialogue:` events (comments left out) for the dialogue index, with their times in milliseconds and
    /// their text without override blocks. Throws on a start or end time that cannot be read.
    public func dialogueLines() throws(SubtitleParseError) -> [DialogueLine] {
        var result: [DialogueLine] = []
        var failure: SubtitleParseError?
        utf8.withUnsafeBufferPointer { buffer in
            forEachEvent(buffer) { line, isComment, fields, text in
                guard !isComment, failure == nil else { return }
                var times: [Int] = []
                for index in [fields.startIndexField, fields.endIndexField] {
                    guard let index, index < fields.count else {
                        times.append(0)
                        continue
                    }
                    let range = buffer.trimmingBlanks(fields[index])
                    guard let milliseconds = Timestamp.parse(buffer, range) else {
                        let position = textPosition(of: range.lowerBound, in: utf8, lines: lines)
                        failure = SubtitleParseError(
                            file: file, line: position.line, column: position.column,
                            message: "malformed time '\(buffer.string(range))' (expected H:MM:SS.cc)")
                        return
                    }
                    times.append(milliseconds)
                }
                let plain = ASSDocument.plainText(buffer, text)
                // A line that is only a drawing (`{\p1}m 0 0 l ...`) shows no words.
                if plain.allSatisfy(\.isWhitespace), ASSDocument.hasDrawing(buffer, text) { return }
                let style =
                    fields.styleIndexField.flatMap { $0 < fields.count ? fields[$0] : nil }
                    .map { buffer.string(buffer.trimmingBlanks($0)) } ?? ""
                result.append(
                    DialogueLine(
                        startMilliseconds: times[0], endMilliseconds: times[1], style: style,
                        rawText: buffer.string(text), plainText: plain))
            }
        }
        if let failure { throw failure }
        return result
    }
}

/// A section of an ASS/SSA script: its header line and the lines up to the next header.
public struct ASSSection: Sendable, Equatable {
    /// What the section holds.
    public enum Kind: Sendable, Equatable {
        /// `[Script Info]`.
        case scriptInfo
        /// `[V4+ Styles]`, `[V4 Styles]` or `[V4++ Styles]`.
        case styles
        /// `[Events]`.
        case events
        /// Anything else (`[Fonts]`, `[Graphics]`, `[Aegisub Project Garbage]`, ...), kept verbatim.
        case other
    }

    /// The name between the brackets, as written.
    public var name: String
    /// What the section holds.
    public var kind: Kind
    /// Index (0-based) of the header line in `ASSDocument.lines`.
    public var headerLine: Int
    /// Indexes of the lines after the header, up to the next header.
    public var bodyLines: Range<Int>
    /// The field names of the section's own `Format:` line (or the standard ones when it has none).
    public var format: [String]
}

/// A `Style:` line.
public struct ASSStyle: Sendable, Equatable {
    /// 1-based line number.
    public var line: Int
    /// The style's name.
    public var name: String
    /// The Fontname field exactly as written (blanks included).
    public var fontName: String
    /// Byte range of the whole Fontname field.
    public var fontNameRange: Range<Int>
    /// The weight its Bold field asks for, as libass reads it: `-1` and `1` are 700, `0` is 400, and 100 to
    /// 900 are themselves.
    public var weight: Int = 400

    /// Whether the style is drawn bold (a weight of 600 or more).
    public var isBold: Bool { weight >= 600 }

    /// The weight of a Bold field's value.
    static func weight(_ field: String) -> Int {
        guard let value = Int(field.trimmingCharacters(in: .whitespaces)) else { return 400 }
        switch value {
        case -1, 1: return 700
        case 100...900: return value
        default: return 400
        }
    }
}

/// A `Dialogue:` or `Comment:` line.
public struct ASSEvent: Sendable, Equatable {
    /// 1-based line number.
    public var line: Int
    /// Whether it is a `Comment:` (not shown).
    public var isComment: Bool
    /// Start time as written.
    public var start: String
    /// End time as written.
    public var end: String
    /// The style name, blanks trimmed.
    public var style: String
    /// Byte range of the Text field (the rest of the line).
    public var textRange: Range<Int>
}

/// The byte ranges of an event's fields, with the positions of the fields the index needs.
struct ASSFields {
    var ranges: [Range<Int>]
    var startIndexField: Int?
    var endIndexField: Int?
    var styleIndexField: Int?
    var count: Int { ranges.count }
    subscript(index: Int) -> Range<Int> { ranges[index] }
}
