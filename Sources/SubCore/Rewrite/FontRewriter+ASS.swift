extension FontRewriter {
    /// Rewrites the Fontname field of every style and every `\fn` in the override blocks of every event.
    public func rewrite(_ document: ASSDocument) -> FontRewrite {
        var recorder = Recorder(self, textSize: document.utf8.count)
        document.utf8.withUnsafeBufferPointer { buffer in
            var textByStyle: [String: String] = [:]
            if policy.needsText {
                for line in (try? document.dialogueLines()) ?? [] {
                    // Appended in place: a style may have hundreds of thousands of events.
                    textByStyle[line.style]?.append("\n")
                    textByStyle[line.style, default: ""].append(line.plainText)
                }
            }
            document.forEachStyle(buffer) { _, name, font in
                if recorder.consider(buffer, font, text: { textByStyle[buffer.string(name)] ?? "" }) {
                    recorder.result.styles += 1
                }
            }
            document.forEachEventText(buffer) { text in
                FontRewriter.rewriteOverrideBlocks(buffer, text, recorder: &recorder)
            }
        }
        return recorder.finish()
    }

    /// Finds `\fn` tags in the closed `{...}` blocks of `text`. A `{` without a `}` is text, so scanning stops.
    static func rewriteOverrideBlocks(
        _ buffer: UnsafeBufferPointer<UInt8>, _ text: Range<Int>, recorder: inout Recorder
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
                let taken = recorder.consider(buffer, nameStart..<nameEnd) {
                    ASSDocument.plainText(buffer, (close + 1)..<end)
                }
                if taken { recorder.result.fnTags += 1 }
            }
            index = close + 1
        }
    }
}
