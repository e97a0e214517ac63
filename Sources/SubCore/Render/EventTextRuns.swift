import Foundation

/// A stretch of an event's text drawn with one font request.
package struct EventTextRun: Sendable, Hashable {
    /// The visible characters (override blocks, `\N` and drawings removed).
    package var text: String
    /// The font asked for.
    package var font: FontRequest
}

/// Splits ASS event text into runs by font, following `\fn`, `\b`, `\i` and `\r` overrides the way libass
/// applies them. Drawings (`\p1` ... `\p0`) and comments are skipped; `\N`, `\n` and `\h` draw no glyph.
///
///     EventTextRuns.split("{\\fnSimHei}中文{\\r}abc", style: style, styles: styles)
///     // [("中文", SimHei), ("abc", style's font)]
package enum EventTextRuns {
    /// The runs of `text` for an event of `style`; `styles` resolves `\rName`.
    package static func split(_ text: String, style: AssStyle, styles: [AssStyle]) -> [EventTextRun] {
        var runs: [EventTextRun] = []
        var current = request(for: style)
        var buffer = ""
        var drawing = false
        func flush() {
            if !buffer.isEmpty {
                if let last = runs.last, last.font == current {
                    runs[runs.count - 1].text += buffer
                } else {
                    runs.append(EventTextRun(text: buffer, font: current))
                }
            }
            buffer = ""
        }
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "{", let close = text[index...].firstIndex(of: "}") {
                let block = text[text.index(after: index)..<close]
                flush()
                apply(block, to: &current, drawing: &drawing, style: style, styles: styles)
                index = text.index(after: close)
                continue
            }
            if character == "\\", let next = text.index(index, offsetBy: 1, limitedBy: text.endIndex),
                next < text.endIndex, "Nnh".contains(text[next])
            {
                index = text.index(after: next)
                continue
            }
            if !drawing { buffer.append(character) }
            index = text.index(after: index)
        }
        flush()
        return runs
    }

    /// The visible text of an event (all runs joined).
    package static func plainText(_ text: String, style: AssStyle, styles: [AssStyle]) -> String {
        split(text, style: style, styles: styles).map(\.text).joined()
    }

    static func request(for style: AssStyle) -> FontRequest {
        FontRequest(name: style.fontName, bold: style.isBold, italic: style.isItalic)
    }

    /// The name a `\fn` tag gives: inside `\t(...)` it ends at the `)` that closes the animation, as libass and
    /// the rewriter read it (`{\t(\fnNoto Sans CJK SC)}` names `Noto Sans CJK SC`).
    static func fontName(_ value: Substring, insideAnimation: Bool) -> String {
        guard insideAnimation, let close = value.firstIndex(of: ")") else { return String(value) }
        return value[..<close].trimmingCharacters(in: .whitespaces)
    }

    /// Applies the tags of one override block.
    private static func apply(
        _ block: Substring, to font: inout FontRequest, drawing: inout Bool, style: AssStyle, styles: [AssStyle]
    ) {
        // Tags start with a backslash; text between tags inside braces is a comment.
        var openParentheses = 0
        for rawTag in block.split(separator: "\\", omittingEmptySubsequences: true).dropFirst(
            block.hasPrefix("\\") ? 0 : 1)
        {
            let insideAnimation = openParentheses > 0
            openParentheses = max(0, openParentheses + rawTag.count { $0 == "(" } - rawTag.count { $0 == ")" })
            let tag = rawTag.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("fn") {
                let name = fontName(tag.dropFirst(2), insideAnimation: insideAnimation)
                // An empty `\fn` and `\fn0` go back to the style's font, as in libass.
                font.name = name.isEmpty || name == "0" ? style.fontName : name
            } else if tag.hasPrefix("fs") || tag.hasPrefix("fsc") || tag.hasPrefix("fsp") || tag.hasPrefix("fe")
                || tag.hasPrefix("fr") || tag.hasPrefix("fa") || tag.hasPrefix("fad")
            {
                continue
            } else if tag.hasPrefix("blur") || tag.hasPrefix("bord") || tag.hasPrefix("be") {
                continue
            } else if tag.hasPrefix("b"), let value = Int(tag.dropFirst()) {
                font.weight = value == 0 ? 400 : value == 1 ? 700 : value >= 100 ? value : 400
            } else if tag.hasPrefix("b"), tag.count == 1 {
                font.weight = style.isBold ? 700 : 400
            } else if tag.hasPrefix("iclip") {
                continue
            } else if tag.hasPrefix("i"), let value = Int(tag.dropFirst()) {
                font.isItalic = value != 0
            } else if tag.hasPrefix("r") {
                let name = String(tag.dropFirst())
                let target = styles.first { $0.name == name } ?? style
                font = request(for: target)
            } else if tag.hasPrefix("p"), !tag.hasPrefix("pos"), !tag.hasPrefix("pbo"), let value = Int(tag.dropFirst())
            {
                drawing = value > 0
            }
        }
    }
}
