extension FontRewriter {
    /// Rewrites the Fontname field of every style and every `\fn` in the override blocks of every event.
    public func rewrite(_ document: ASSDocument) -> FontRewrite {
        var textByStyle: [String: [UInt8]] = [:]
        var scriptEvidence: CJKEvidence?
        var auto = false
        if case .auto = target { auto = true }
        if needsText {
            let gathered = gatherText(document, whole: auto)
            textByStyle = gathered.byStyle
            scriptEvidence = auto ? gathered.whole : nil
        }
        // What each style's text says, counted when a run first asks.
        var styleEvidence: [String: CJKEvidence] = [:]
        var recorder = Recorder(self, textSize: document.utf8.count)
        recorder.scriptEvidence = scriptEvidence
        document.utf8.withUnsafeBufferPointer { buffer in
            document.forEachStyle(buffer) { _, name, font, boldField in
                let style = buffer.string(name)
                let bold = boldField.map { ASSStyle.weight(buffer.string($0)) >= 600 } ?? false
                if recorder.consider(
                    buffer, font, kind: .style, style: style, bold: bold,
                    text: { String(decoding: textByStyle[style] ?? [], as: UTF8.self) })
                {
                    recorder.result.styles += 1
                }
            }
            var line: [UInt8] = []
            document.forEachEventText(buffer) { text, styleField in
                FontRewriter.rewriteOverrideBlocks(buffer, text, recorder: &recorder) {
                    line.removeAll(keepingCapacity: true)
                    ASSDocument.appendPlainText(buffer, text, to: &line)
                    let style = styleField().map { buffer.string($0) } ?? ""
                    let evidence = styleEvidence[style] ?? CJKEvidence(utf8: textByStyle[style] ?? [])
                    styleEvidence[style] = evidence
                    return [.init("its line", CJKEvidence(utf8: line)), .init("its style's text", evidence)]
                }
            }
        }
        return recorder.finish()
    }

    /// Finds `\fn` tags in the closed `{...}` blocks of `text`. A `{` without a `}` is text, so scanning stops.
    static func rewriteOverrideBlocks(
        _ buffer: UnsafeBufferPointer<UInt8>, _ text: Range<Int>, recorder: inout Recorder,
        around: () -> [LanguageContext.Level] = { [] }
    ) {
        var index = text.lowerBound
        let end = text.upperBound
        while index < end {
            guard let open = firstIndex(of: 0x7B, in: buffer, from: index, to: end) else { return }
            guard let close = firstIndex(of: 0x7D, in: buffer, from: open + 1, to: end) else { return }
            var position = open + 1
            while position < close {
                guard buffer[position] == 0x5C else {
                    position += 1
                    continue
                }
                position += 1
                while position < close, buffer[position].isBlank { position += 1 }
                guard position + 1 < close,
                    buffer[position] == 0x66, buffer[position + 1] == 0x6E  // "fn"
                else { continue }
                var nameStart = position + 2
                while nameStart < close, buffer[nameStart].isBlank { nameStart += 1 }
                var nameEnd = nameStart
                while nameEnd < close {
                    let byte = buffer[nameEnd]
                    if byte == 0x5C || byte == 0x28 || byte == 0x29 { break }  // \ ( )
                    nameEnd += 1
                }
                position = nameEnd
                while nameEnd > nameStart, buffer[nameEnd - 1].isBlank { nameEnd -= 1 }
                // An empty name or `0` resets to the style's font: left alone.
                if nameEnd == nameStart || (nameEnd == nameStart + 1 && buffer[nameStart] == 0x30) { continue }
                let taken = recorder.consider(
                    buffer, nameStart..<nameEnd, kind: .fnTag,
                    text: {
                        ASSDocument.plainText(buffer, (close + 1)..<nextFontChange(buffer, from: close + 1, to: end))
                    }, around: around)
                if taken { recorder.result.fnTags += 1 }
            }
            index = close + 1
        }
    }

    /// How an override block changes the font: not at all, back to the style's font (`\r`, an empty `\fn` or
    /// `\fn0`), or to another font (`\fn<name>`). The last such tag of the block wins.
    enum FontChange {
        case none, toStyle, toOther
    }

    /// The font change of the override block `{...}` whose inside is `inner`.
    static func fontChange(_ buffer: UnsafeBufferPointer<UInt8>, _ inner: Range<Int>) -> FontChange {
        var change = FontChange.none
        var position = inner.lowerBound
        while position < inner.upperBound {
            guard buffer[position] == 0x5C else {
                position += 1
                continue
            }
            position += 1
            while position < inner.upperBound, buffer[position].isBlank { position += 1 }
            guard position < inner.upperBound else { break }
            if buffer[position] == 0x72 {  // \r, \r<style>
                change = .toStyle
            } else if position + 1 < inner.upperBound, buffer[position] == 0x66, buffer[position + 1] == 0x6E {
                var nameStart = position + 2
                while nameStart < inner.upperBound, buffer[nameStart].isBlank { nameStart += 1 }
                var nameEnd = nameStart
                while nameEnd < inner.upperBound, buffer[nameEnd] != 0x5C, buffer[nameEnd] != 0x28,
                    buffer[nameEnd] != 0x29
                {
                    nameEnd += 1
                }
                while nameEnd > nameStart, buffer[nameEnd - 1].isBlank { nameEnd -= 1 }
                let reset = nameEnd == nameStart || (nameEnd == nameStart + 1 && buffer[nameStart] == 0x30)
                change = reset ? .toStyle : .toOther
            }
        }
        return change
    }

    /// Where the text drawn with a `\fn` font ends: at the next override block that changes the font, or `end`.
    static func nextFontChange(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        while let open = firstIndex(of: 0x7B, in: buffer, from: index, to: end),
            let close = firstIndex(of: 0x7D, in: buffer, from: open + 1, to: end)
        {
            if fontChange(buffer, (open + 1)..<close) != .none { return open }
            index = close + 1
        }
        return end
    }

    /// The text each style draws (the plain text of its dialogue events outside `\fn` runs, one event per line)
    /// and, when `whole` is set, what the plain text of every dialogue event says of its language: gathered as bytes straight from the
    /// script, as `dialogueLines()` would see it (comments and drawing-only events left out), without building a
    /// line for each event.
    func gatherText(_ document: ASSDocument, whole wantsWhole: Bool) -> (
        byStyle: [String: [UInt8]], whole: CJKEvidence
    ) {
        var byStyle: [String: [UInt8]] = [:]
        var whole = CJKEvidence()
        var plain: [UInt8] = []
        document.utf8.withUnsafeBufferPointer { buffer in
            document.forEachEvent(buffer) { _, isComment, fields, text in
                guard !isComment else { return }
                plain.removeAll(keepingCapacity: true)
                ASSDocument.appendPlainText(buffer, text, to: &plain)
                // A line that is only a drawing (`{\p1}m 0 0 l ...`) shows no words.
                if FontRewriter.isWhitespace(plain), ASSDocument.hasDrawing(buffer, text) { return }
                let style =
                    fields.styleIndexField.flatMap { $0 < fields.count ? fields[$0] : nil }
                    .map { buffer.string(buffer.trimmingBlanks($0)) } ?? ""
                if byStyle[style] != nil {
                    byStyle[style]?.append(0x0A)
                    FontRewriter.appendStyleFontText(buffer, text, to: &byStyle[style, default: []])
                } else {
                    var first: [UInt8] = []
                    FontRewriter.appendStyleFontText(buffer, text, to: &first)
                    byStyle[style] = first
                }
                if wantsWhole { plain.withUnsafeBufferPointer { whole.add(utf8: $0) } }
            }
        }
        return (byStyle, whole)
    }

    /// Whether the UTF-8 text `bytes` is only whitespace (as `Character.isWhitespace` counts it), answered from
    /// the bytes when they are ASCII.
    static func isWhitespace(_ bytes: [UInt8]) -> Bool {
        var ascii = true
        for byte in bytes {
            if byte >= 0x80 {
                ascii = false
            } else if byte != 0x20 && !(0x09...0x0D).contains(byte) {
                return false
            }
        }
        return ascii || String(decoding: bytes, as: UTF8.self).allSatisfy(\.isWhitespace)
    }

    /// Appends the plain text of the event text at `range` drawn with its style's font: everything outside the
    /// `\fn` runs (which end at `\r`, an empty `\fn` or `\fn0`).
    static func appendStyleFontText(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to output: inout [UInt8]
    ) {
        var styleFont = true
        var segmentStart = range.lowerBound
        var index = range.lowerBound
        while let open = firstIndex(of: 0x7B, in: buffer, from: index, to: range.upperBound),
            let close = firstIndex(of: 0x7D, in: buffer, from: open + 1, to: range.upperBound)
        {
            let change = fontChange(buffer, (open + 1)..<close)
            if change != .none {
                if styleFont { ASSDocument.appendPlainText(buffer, segmentStart..<open, to: &output) }
                styleFont = change == .toStyle
                segmentStart = open
            }
            index = close + 1
        }
        if styleFont { ASSDocument.appendPlainText(buffer, segmentStart..<range.upperBound, to: &output) }
    }
}
