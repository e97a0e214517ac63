import Foundation

/// Turns SRT and WebVTT cues into an ASS script with one default style, so libass renders them too.
///
/// The default style uses subfix's bundled CJK font (`BundledFont.familyName`), white text with a black
/// outline, bottom centre, on a 1920x1080 layout. `<i>`, `<b>`, `<u>`, `<s>` and `<font face/color>` tags
/// become ASS overrides; other tags are dropped.
enum CueConverter {
    /// The script header with the default style.
    static let header = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 1920
        PlayResY: 1080
        ScaledBorderAndShadow: yes
        WrapStyle: 0

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
        Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, \
        MarginR, MarginV, Encoding
        Style: Default,\(BundledFont.familyName),64,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,\
        1,3,1,2,60,60,50,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """

    /// An ASS script from SRT text.
    static func assText(fromSRT text: String, file: String) throws(RenderError) -> String {
        try assText(cues: try cues(text, file: file, webVTT: false))
    }

    /// An ASS script from WebVTT text.
    static func assText(fromWebVTT text: String, file: String) throws(RenderError) -> String {
        try assText(cues: try cues(text, file: file, webVTT: true))
    }

    private static func assText(cues: [(start: Int, end: Int, text: String)]) throws(RenderError) -> String {
        var script = header
        for cue in cues {
            script +=
                "Dialogue: 0,\(assTime(cue.start)),\(assTime(cue.end)),Default,,0,0,0,,\(assEventText(cue.text))\n"
        }
        return script
    }

    /// The cues of an SRT or WebVTT text: blocks separated by blank lines, each with a `-->` timing line.
    static func cues(_ text: String, file: String, webVTT: Bool) throws(RenderError) -> [(
        start: Int, end: Int, text: String
    )] {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var cues: [(Int, Int, String)] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.contains("-->") else {
                index += 1
                continue
            }
            let parts = line.components(separatedBy: "-->")
            let startText = parts[0].trimmingCharacters(in: .whitespaces)
            let endText =
                (parts.count > 1 ? parts[1] : "").trimmingCharacters(in: .whitespaces)
                .split(separator: " ").first.map(String.init) ?? ""
            guard let start = cueTime(startText), let end = cueTime(endText) else {
                let bad = cueTime(startText) == nil ? startText : endText
                let column =
                    (line.range(of: bad).map { line.distance(from: line.startIndex, to: $0.lowerBound) } ?? 0) + 1
                throw .unreadable(
                    file: "\(file):\(index + 1):\(column)",
                    cause: "malformed timestamp '\(bad)' (expected \(webVTT ? "HH:MM:SS.mmm" : "HH:MM:SS,mmm"))")
            }
            var body: [String] = []
            index += 1
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
                body.append(lines[index])
                index += 1
            }
            cues.append((start, max(start, end), body.joined(separator: "\n")))
        }
        return cues
    }

    /// `HH:MM:SS,mmm`, `HH:MM:SS.mmm` or `MM:SS.mmm` in milliseconds.
    static func cueTime(_ text: String) -> Int? {
        let fields = text.replacingOccurrences(of: ",", with: ".").split(
            separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else { return nil }
        let seconds = fields[fields.count - 1].split(separator: ".", omittingEmptySubsequences: false)
        guard seconds.count == 2, seconds[1].count == 3, seconds[0].count == 2,
            let s = Int(seconds[0]), let ms = Int(seconds[1]), s < 60,
            let m = Int(fields[fields.count - 2]), fields[fields.count - 2].count == 2, m < 60
        else { return nil }
        var hours = 0
        if fields.count == 3 {
            guard let h = Int(fields[0]), !fields[0].isEmpty, h >= 0 else { return nil }
            hours = h
        }
        return ((hours * 60 + m) * 60 + s) * 1000 + ms
    }

    /// `H:MM:SS.cc` as ASS writes times (centiseconds).
    static func assTime(_ milliseconds: Int) -> String {
        let cs = milliseconds / 10
        return String(format: "%d:%02d:%02d.%02d", cs / 360_000, cs / 6000 % 60, cs / 100 % 60, cs % 100)
    }

    /// Cue text as ASS event text: line breaks become `\N`, braces are kept literal, known tags become overrides.
    static func assEventText(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let first = rest.first {
            if first == "<", let close = rest.firstIndex(of: ">") {
                out += override(forTag: String(rest[rest.index(after: rest.startIndex)..<close]))
                rest = rest[rest.index(after: close)...]
                continue
            }
            switch first {
            case "\n": out += "\\N"
            case "{": out += "\u{FF5B}"
            case "}": out += "\u{FF5D}"
            default: out.append(first)
            }
            rest = rest.dropFirst()
        }
        return out.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&nbsp;", with: "\\h")
    }

    private static func override(forTag tag: String) -> String {
        let lower = tag.lowercased().trimmingCharacters(in: .whitespaces)
        switch lower {
        case "i": return "{\\i1}"
        case "/i": return "{\\i0}"
        case "b": return "{\\b1}"
        case "/b": return "{\\b0}"
        case "u": return "{\\u1}"
        case "/u": return "{\\u0}"
        case "s": return "{\\s1}"
        case "/s": return "{\\s0}"
        case "/font": return "{\\fn\\c}"
        default: break
        }
        guard lower.hasPrefix("font") else { return "" }
        var result = ""
        if let face = attribute("face", in: tag) { result += "\\fn" + face }
        if let color = attribute("color", in: tag), color.hasPrefix("#"), color.count == 7 {
            let hex = Array(color.dropFirst())
            result += "\\c&H" + String(hex[4...5]) + String(hex[2...3]) + String(hex[0...1]) + "&"
        }
        return result.isEmpty ? "" : "{" + result + "}"
    }

    /// The value of `name="..."` (or single-quoted, or bare) inside a tag.
    static func attribute(_ name: String, in tag: String) -> String? {
        guard let range = tag.range(of: name + "\\s*=\\s*", options: [.regularExpression, .caseInsensitive]) else {
            return nil
        }
        var rest = tag[range.upperBound...]
        if let quote = rest.first, quote == "\"" || quote == "'" {
            rest = rest.dropFirst()
            return rest.firstIndex(of: quote).map { String(rest[..<$0]) }
        }
        return String(rest.prefix { !$0.isWhitespace })
    }
}
