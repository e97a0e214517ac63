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

    /// An ASS script from SRT text, its cues located by SubCore/Text's `SRTDocument`.
    static func assText(fromSRT text: String, file: String) throws(RenderError) -> String {
        do {
            return assText(cues: try SRTDocument(utf8: Array(text.utf8), file: file).dialogueLines())
        } catch {
            throw RenderError.parse(error)
        }
    }

    /// An ASS script from WebVTT text, its cues located by SubCore/Text's `WebVTTDocument`.
    static func assText(fromWebVTT text: String, file: String) throws(RenderError) -> String {
        do {
            return assText(cues: try WebVTTDocument(utf8: Array(text.utf8), file: file).dialogueLines())
        } catch {
            throw RenderError.parse(error)
        }
    }

    /// The header and one `Dialogue:` line per cue (its raw text, tags turned into overrides).
    private static func assText(cues: [DialogueLine]) -> String {
        var script = header
        for cue in cues {
            let start = cue.startMilliseconds
            let end = max(start, cue.endMilliseconds)
            script += "Dialogue: 0,\(assTime(start)),\(assTime(end)),Default,,0,0,0,,\(assEventText(cue.rawText))\n"
        }
        return script
    }

    /// `H:MM:SS.cc` as ASS writes times (centiseconds).
    static func assTime(_ milliseconds: Int) -> String {
        let cs = milliseconds / 10
        return String(format: "%d:%02d:%02d.%02d", cs / 360_000, cs / 6000 % 60, cs / 100 % 60, cs % 100)
    }

    /// Cue text as ASS event text: line breaks become `\N`, braces are kept literal, known tags become overrides.
    static func assEventText(_ text: String) -> String {
        var out = ""
        var rest = Substring(
            text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n"))
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
