import Foundation

/// One subtitle event read by OCR: its times, its text (empty when Tesseract found none), Tesseract's confidence,
/// and where it sat when that was not the bottom of the frame.
public struct RecognizedEvent: Sendable, Equatable {
    /// Shown from and hidden at, in milliseconds.
    public var start: Int
    public var end: Int
    /// The text, lines joined by `\n`; empty when nothing was recognized.
    public var text: String
    /// Tesseract's mean confidence, 0 to 100 (the lowest of the event's pictures).
    public var confidence: Int
    /// The top centre of the text in frame pixels, for an event not at the bottom (shown as `\an8\pos`).
    public var position: (x: Int, y: Int)?
    /// Whether a picture of the event was all one colour (nothing could be read from it).
    public var lacksContrast: Bool

    /// An event (normally made by `BitmapTrackRecognizer`).
    public init(
        start: Int, end: Int, text: String, confidence: Int, position: (x: Int, y: Int)? = nil,
        lacksContrast: Bool = false
    ) {
        self.start = start
        self.end = end
        self.text = text
        self.confidence = confidence
        self.position = position
        self.lacksContrast = lacksContrast
    }

    public static func == (left: RecognizedEvent, right: RecognizedEvent) -> Bool {
        left.start == right.start && left.end == right.end && left.text == right.text
            && left.confidence == right.confidence && left.position?.x == right.position?.x
            && left.position?.y == right.position?.y && left.lacksContrast == right.lacksContrast
    }

    /// When it starts, in seconds (for messages).
    public var startSeconds: Double { Double(start) / 1000 }
}

/// A bitmap track read by OCR: every event in time order, what could not be decoded, and the frame the events
/// were placed in. `subtitleData(format:)` gives the SRT or ASS file.
public struct RecognizedTrack: Sendable, Equatable {
    /// The bitmap stream it came from.
    public var stream: MediaStream
    /// The language Tesseract read it in.
    public var language: OCRLanguage
    /// The events, in time order, including those that gave no text.
    public var events: [RecognizedEvent]
    /// Packets libavcodec refused (damaged bitmaps), and where reading stopped early.
    public var problems: [SubtitleDecodeProblem]
    /// The video frame the pictures are placed in (0 when the codec does not say).
    public var frameWidth: Int
    public var frameHeight: Int

    /// The events below `minimum` confidence that gave text.
    public func lowConfidence(below minimum: Int) -> [RecognizedEvent] {
        events.filter { !$0.text.isEmpty && $0.confidence < minimum }
    }

    /// The events that gave no text at all.
    public var emptyEvents: [RecognizedEvent] { events.filter { $0.text.isEmpty } }

    /// The events with text, as written to the file.
    public var textEvents: [RecognizedEvent] { events.filter { !$0.text.isEmpty } }

    /// The track as a SubRip or ASS file (UTF-8). Empty events are left out (they are reported instead); an event
    /// not at the bottom gets `{\an8}` in SubRip and `{\an8\pos(x,y)}` in ASS.
    public func subtitleData(format: ExtractionFormat) -> Data {
        switch format {
        case .srt: return Data(srt().utf8)
        case .ass: return Data(ass().utf8)
        }
    }

    /// As an `ExtractedTrack`, ready for `SubtitleTrackWriter` (named as text tracks are).
    public func extractedTrack(format: ExtractionFormat) -> ExtractedTrack {
        var track = ExtractedTrack(stream: stream, format: format, data: subtitleData(format: format))
        track.problems = problems
        return track
    }

    private func srt() -> String {
        var output = ""
        for (number, event) in textEvents.enumerated() {
            let tag = event.position == nil ? "" : "{\\an8}"
            output +=
                "\(number + 1)\n\(RecognizedTrack.srtTime(event.start)) --> \(RecognizedTrack.srtTime(event.end))\n"
            output += tag + event.text + "\n\n"
        }
        return output
    }

    private func ass() -> String {
        let width = frameWidth > 0 ? frameWidth : 1920
        let height = frameHeight > 0 ? frameHeight : 1080
        let font = fontFamily
        let size = max(12, height * 11 / 200)
        let outline = max(1, height / 360)
        var output = """
            [Script Info]
            ; Recognized by subfix (Tesseract, \(language.code)) from a \(stream.codecLabel) track
            ScriptType: v4.00+
            PlayResX: \(width)
            PlayResY: \(height)
            WrapStyle: 0
            ScaledBorderAndShadow: yes

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, \
            Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, \
            MarginL, MarginR, MarginV, Encoding
            Style: Default,\(font),\(size),&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,\
            \(outline),0,2,20,20,\(height / 25),1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

            """
        for event in textEvents {
            let tag = event.position.map { "{\\an8\\pos(\($0.x),\($0.y))}" } ?? ""
            let text = event.text.replacingOccurrences(of: "{", with: "\\{").replacingOccurrences(of: "}", with: "\\}")
                .replacingOccurrences(of: "\n", with: "\\N")
            output += "Dialogue: 0,\(RecognizedTrack.assTime(event.start)),\(RecognizedTrack.assTime(event.end)),"
            output += "Default,,0,0,0,,\(tag)\(text)\n"
        }
        return output
    }

    /// The Noto face for the track's language.
    private var fontFamily: String {
        switch language.parts.first {
        case "chi_sim": return CJKLanguage.simplifiedChinese.notoFamily
        case "chi_tra": return CJKLanguage.traditionalChinese.notoFamily
        case "jpn", "jpn_vert": return CJKLanguage.japanese.notoFamily
        case "kor": return CJKLanguage.korean.notoFamily
        default: return "Noto Sans"
        }
    }

    /// `HH:MM:SS,mmm`.
    static func srtTime(_ milliseconds: Int) -> String {
        let value = max(0, milliseconds)
        return pad(value / 3_600_000, 2) + ":" + pad(value / 60_000 % 60, 2) + ":" + pad(value / 1000 % 60, 2) + ","
            + pad(value % 1000, 3)
    }

    /// `H:MM:SS.cc`.
    static func assTime(_ milliseconds: Int) -> String {
        let centiseconds = (max(0, milliseconds) + 5) / 10
        return "\(centiseconds / 360_000):" + pad(centiseconds / 6000 % 60, 2) + ":" + pad(centiseconds / 100 % 60, 2)
            + "." + pad(centiseconds % 100, 2)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
