extension FontRewriter {
    /// Rewrites the `face` of every `<font>` tag in the cues (not in the index or timing lines).
    public func rewrite(_ document: SRTDocument) -> FontRewrite {
        var recorder = Recorder(self, textSize: document.utf8.count)
        document.utf8.withUnsafeBufferPointer { buffer in
            for cue in document.cues {
                FontRewriter.rewriteFontTags(buffer, document.textRange(of: cue), recorder: &recorder)
            }
        }
        return recorder.finish()
    }

    /// Rewrites the `face` of every `<font>` tag in cue payloads; the header, NOTE, STYLE and REGION blocks keep
    /// their bytes.
    public func rewrite(_ document: WebVTTDocument) -> FontRewrite {
        var recorder = Recorder(self, textSize: document.utf8.count)
        document.utf8.withUnsafeBufferPointer { buffer in
            for block in document.blocks where block.kind == .cue {
                FontRewriter.rewriteFontTags(buffer, document.textRange(of: block), recorder: &recorder)
            }
        }
        return recorder.finish()
    }

    /// Finds `<font ...>` tags (any case) in `text` and considers each `face` value: double-quoted, single-quoted
    /// or bare; the other attributes and their order are untouched. A `<` without its `>` is text.
    static func rewriteFontTags(_ buffer: UnsafeBufferPointer<UInt8>, _ text: Range<Int>, recorder: inout Recorder) {
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
                    guard let closing = firstIndex(of: quote, in: buffer, from: position + 1, to: end) else { break }
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
                let taken = recorder.consider(buffer, value, kind: .fontTag, quoteIfSpaced: bare) {
                    MarkupText.plain(buffer, after..<fontTagEnd(buffer, from: after, to: end), lines: [])
                }
                if taken { recorder.result.fontTags += 1 }
            }
            index = position + 1
        }
    }

    /// Where the text of a `<font>` tag ends: at its `</font>` (nested `<font>` tags counted), or `end`.
    static func fontTagEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var depth = 0
        var index = start
        while let open = firstIndex(of: 0x3C, in: buffer, from: index, to: end) {
            index = open + 1
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
