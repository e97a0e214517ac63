extension FontRewriter {
    /// Rewrites the `face` of every `<font>` tag in the cues (not in the index or timing lines).
    public func rewrite(_ document: SRTDocument) -> FontRewrite {
        var recorder = Recorder(self, textSize: document.utf8.count)
        document.utf8.withUnsafeBufferPointer { buffer in
            let ranges = document.cues.map { document.textRange(of: $0) }
            recorder.scriptEvidence = scriptEvidence(buffer, ranges, lines: [])
            for range in ranges {
                FontRewriter.rewriteFontTags(buffer, range, recorder: &recorder, lines: [])
            }
        }
        return recorder.finish()
    }

    /// What the plain text of every cue says of the file's language (the last level of a run's context), when
    /// faces are chosen by language.
    func scriptEvidence(_ buffer: UnsafeBufferPointer<UInt8>, _ cues: [Range<Int>], lines: [LineSpan]) -> CJKEvidence? {
        guard case .auto = target else { return nil }
        var evidence = CJKEvidence()
        for range in cues {
            var text = MarkupText.plain(buffer, range, lines: lines)
            text.withUTF8 { evidence.add(utf8: $0) }
        }
        return evidence
    }

    /// Rewrites the `face` of every `<font>` tag in cue payloads, and the families of every `font-family` in
    /// `STYLE` blocks (`::cue { font-family: ... }`, counted with the font tags); the header, NOTE and REGION
    /// blocks keep their bytes.
    public func rewrite(_ document: WebVTTDocument) -> FontRewrite {
        var recorder = Recorder(self, textSize: document.utf8.count)
        document.utf8.withUnsafeBufferPointer { buffer in
            let cues = document.blocks.filter { $0.kind == .cue }.map { document.textRange(of: $0) }
            recorder.scriptEvidence = scriptEvidence(buffer, cues, lines: document.lines)
            for block in document.blocks {
                switch block.kind {
                case .cue:
                    FontRewriter.rewriteFontTags(
                        buffer, document.textRange(of: block), recorder: &recorder, lines: document.lines)
                case .style:
                    let range =
                        document.lines[block.lines.lowerBound].start..<document.lines[block.lines.upperBound - 1].end
                    // A STYLE rule applies to the cues: their text is what its fonts show (built once, when a
                    // policy first asks).
                    var cueText: String?
                    FontRewriter.rewriteFontFamilies(buffer, range, recorder: &recorder) {
                        if let cueText { return cueText }
                        let text = document.blocks.filter { $0.kind == .cue }.map {
                            MarkupText.plain(buffer, document.textRange(of: $0), lines: document.lines, entities: true)
                        }.joined(separator: "\n")
                        cueText = text
                        return text
                    }
                default:
                    continue
                }
            }
        }
        return recorder.finish()
    }

    /// The CSS generic families, which name no font and are kept.
    static let genericFamilies: Set<String> = [
        "serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif", "ui-sans-serif",
        "ui-monospace", "ui-rounded", "math", "emoji", "fangsong", "inherit", "initial", "unset", "revert",
    ]

    /// Considers each family of every `font-family:` declaration (property name in any case) in the CSS of
    /// `range`: quoted names inside their quotes, bare names (one or more words) whole and quoted when the target
    /// has a space; generic families, `!important` and comments are kept. `text` is the text the fonts show.
    static func rewriteFontFamilies(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, recorder: inout Recorder, text: () -> String
    ) {
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            let byte = buffer[index]
            if byte == 0x2F, index + 1 < end, buffer[index + 1] == 0x2A {  // "/*" comment
                var close = index + 2
                while close + 1 < end, !(buffer[close] == 0x2A && buffer[close + 1] == 0x2F) { close += 1 }
                index = close + 2
                continue
            }
            if byte == 0x22 || byte == 0x27 {  // a string outside a declaration
                index = (firstIndex(of: byte, in: buffer, from: index + 1, to: end) ?? end - 1) + 1
                continue
            }
            let startsName = index == range.lowerBound || !isNameByte(buffer[index - 1])
            guard startsName, buffer.hasPrefixIgnoringCase("font-family", at: index, limit: end) else {
                index += 1
                continue
            }
            var position = index + 11
            while position < end, buffer[position].isBlank || buffer[position] == 0x0A || buffer[position] == 0x0D {
                position += 1
            }
            guard position < end, buffer[position] == 0x3A else {  // ":"
                index += 11
                continue
            }
            index = considerFamilies(buffer, from: position + 1, to: end, recorder: &recorder, text: text)
        }
    }

    /// The families of one `font-family` value starting at `start`; returns where the value ends (`;`, `}`).
    private static func considerFamilies(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, recorder: inout Recorder,
        text: () -> String
    ) -> Int {
        var position = start
        var itemStart = start
        var quoted: Range<Int>?
        func finishItem(_ itemEnd: Int) {
            defer { quoted = nil }
            if let quoted {
                if recorder.consider(buffer, quoted, kind: .fontFamily, text: text) { recorder.result.fontTags += 1 }
                return
            }
            var item = trimmingSpace(buffer, itemStart..<itemEnd)
            if let bang = firstIndex(of: 0x21, in: buffer, from: item.lowerBound, to: item.upperBound) {
                item = trimmingSpace(buffer, item.lowerBound..<bang)  // "!important"
            }
            guard !item.isEmpty, !genericFamilies.contains(buffer.string(item).lowercased()) else { return }
            if recorder.consider(buffer, item, kind: .fontFamily, quoteIfSpaced: true, text: text) {
                recorder.result.fontTags += 1
            }
        }
        while position < end {
            let byte = buffer[position]
            if byte == 0x22 || byte == 0x27 {
                guard let close = firstIndex(of: byte, in: buffer, from: position + 1, to: end) else { return end }
                quoted = (position + 1)..<close
                position = close + 1
                continue
            }
            if byte == 0x2C {  // ","
                finishItem(position)
                itemStart = position + 1
            } else if byte == 0x3B || byte == 0x7D {  // ";" "}"
                finishItem(position)
                return position + 1
            }
            position += 1
        }
        finishItem(end)
        return end
    }

    /// `range` without CSS white space (space, tab, line breaks, form feed) at either end.
    private static func trimmingSpace(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
        }
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isSpace(buffer[lower]) { lower += 1 }
        while upper > lower, isSpace(buffer[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// Whether `byte` can be part of a CSS property name (so `-font-family` or `xfont-family` is not ours).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte == 0x2D || byte == 0x5F || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
            || (0x61...0x7A).contains(byte) || byte >= 0x80
    }

    /// Finds `<font ...>` tags (any case) in `text` and considers each `face` value: double-quoted, single-quoted
    /// or bare; the other attributes and their order are untouched. A `<` without its `>` is text; a quoted value
    /// without its closing quote ends the search.
    static func rewriteFontTags(
        _ buffer: UnsafeBufferPointer<UInt8>, _ text: Range<Int>, recorder: inout Recorder, lines: [LineSpan]
    ) {
        var index = text.lowerBound
        let end = text.upperBound
        while index < end {
            guard let open = firstIndex(of: 0x3C, in: buffer, from: index, to: end) else { return }
            index = open + 1
            guard buffer.hasPrefixIgnoringCase("font", at: open + 1, limit: end), open + 5 < end,
                buffer[open + 5].isBlank
            else { continue }
            var position = open + 5
            var faces: [(Range<Int>, Bool)] = []
            var closed = false
            while position < end {
                while position < end, buffer[position].isBlank { position += 1 }
                guard position < end else { break }
                if buffer[position] == 0x3E {  // >
                    closed = true
                    break
                }
                let nameStart = position
                while position < end, !buffer[position].isBlank, buffer[position] != 0x3D, buffer[position] != 0x3E {
                    position += 1
                }
                let nameRange = nameStart..<position
                while position < end, buffer[position].isBlank { position += 1 }
                guard position < end, buffer[position] == 0x3D else { continue }  // attribute without value
                position += 1
                while position < end, buffer[position].isBlank { position += 1 }
                guard position < end else { break }
                let quote = buffer[position]
                let value: Range<Int>
                var quoted = false
                if quote == 0x22 || quote == 0x27 {
                    // An unclosed quote runs to the end of the text: any `<font` after it is part of this value,
                    // not a tag (rewriting one would close the quote and change how the next run reads the line).
                    guard let closing = firstIndex(of: quote, in: buffer, from: position + 1, to: end) else { return }
                    value = (position + 1)..<closing
                    position = closing + 1
                    quoted = true
                } else {
                    let start = position
                    while position < end, !buffer[position].isBlank, buffer[position] != 0x3E { position += 1 }
                    value = start..<position
                }
                if nameRange.count == 4,
                    buffer.hasPrefixIgnoringCase("face", at: nameRange.lowerBound, limit: nameRange.upperBound)
                {
                    faces.append((value, !quoted))
                }
            }
            guard closed else { continue }
            for (value, bare) in faces {
                let after = position + 1
                let taken = recorder.consider(
                    buffer, value, kind: .fontTag, quoteIfSpaced: bare,
                    text: { MarkupText.plain(buffer, after..<fontTagEnd(buffer, from: after, to: end), lines: []) },
                    around: { [.init("its cue", CJKEvidence(MarkupText.plain(buffer, text, lines: lines)))] })
                if taken { recorder.result.fontTags += 1 }
            }
            index = position + 1
        }
    }

    /// Where the text of a `<font>` tag ends: at its `</font>` (nested `<font>` tags counted), or `end`. Tags are
    /// skipped whole, quoted values included (`MarkupText.tagEnd`), so a `</font>` inside an attribute value does
    /// not count and rewriting a value never changes the text of the tags around it.
    static func fontTagEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var depth = 0
        var index = start
        while let open = firstIndex(of: 0x3C, in: buffer, from: index, to: end) {
            index = MarkupText.tagEnd(buffer, from: open + 1, to: end).map { $0 + 1 } ?? open + 1
            if buffer.hasPrefixIgnoringCase("/font", at: open + 1, limit: end) {
                if depth == 0 { return open }
                depth -= 1
            } else if buffer.hasPrefixIgnoringCase("font", at: open + 1, limit: end), open + 5 < end,
                buffer[open + 5].isBlank || buffer[open + 5] == 0x3E
            {
                depth += 1
            }
        }
        return end
    }
}
