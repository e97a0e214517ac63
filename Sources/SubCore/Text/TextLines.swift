/// One line of UTF-8 text, as byte offsets: `start..<end` is its content, `end..<next` its terminator
/// (LF, CRLF, CR or nothing at the end of the text).
public struct LineSpan: Sendable, Equatable {
    /// Offset of the first byte of the line.
    public var start: Int
    /// Offset just past the content (where the terminator starts).
    public var end: Int
    /// Offset of the next line (just past the terminator).
    public var next: Int

    /// A line at the given offsets.
    public init(start: Int, end: Int, next: Int) {
        self.start = start
        self.end = end
        self.next = next
    }

    /// The content's byte range.
    public var content: Range<Int> { start..<end }
}

/// Splits UTF-8 text into lines. Lines end only at LF, CRLF or CR: U+2028, U+2029 and U+0085 are text.
public enum TextLines {
    /// The lines of `utf8`; the last line has an empty terminator when the text does not end with one.
    /// Empty text has no lines.
    public static func split(_ utf8: [UInt8]) -> [LineSpan] {
        utf8.withUnsafeBufferPointer { split($0) }
    }

    /// The lines of the bytes in `buffer`.
    public static func split(_ buffer: UnsafeBufferPointer<UInt8>) -> [LineSpan] {
        var lines: [LineSpan] = []
        guard let base = buffer.baseAddress else { return lines }
        lines.reserveCapacity(buffer.count / 64 + 16)
        let count = buffer.count
        var start = 0
        var index = 0
        while index < count {
            // Skip eight bytes at a time while none of them is LF or CR.
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if hasByte(word, 0x0A) || hasByte(word, 0x0D) { break }
                index += 8
            }
            while index < count, buffer[index] != 0x0A, buffer[index] != 0x0D { index += 1 }
            guard index < count else { break }
            if buffer[index] == 0x0A {
                lines.append(LineSpan(start: start, end: index, next: index + 1))
                index += 1
            } else {
                let next = index + 1 < count && buffer[index + 1] == 0x0A ? index + 2 : index + 1
                lines.append(LineSpan(start: start, end: index, next: next))
                index = next
            }
            start = index
        }
        if start < count { lines.append(LineSpan(start: start, end: count, next: count)) }
        return lines
    }

    /// Whether any byte of `word` equals `byte` (the classic has-zero-byte test on `word ^ byte * 0x01...01`).
    @inline(__always)
    static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
    }
}

/// A replacement of a byte range of UTF-8 text. Edits never overlap; everything outside them keeps its bytes.
public struct TextEdit: Sendable, Equatable {
    /// The bytes replaced.
    public var range: Range<Int>
    /// What they are replaced with (UTF-8).
    public var replacement: [UInt8]

    /// An edit replacing `range` with `replacement`.
    public init(range: Range<Int>, replacement: [UInt8]) {
        self.range = range
        self.replacement = replacement
    }

    /// `utf8` with `edits` (sorted by position, not overlapping) applied, in one pass.
    public static func apply(_ edits: [TextEdit], to utf8: [UInt8]) -> [UInt8] {
        if edits.isEmpty { return utf8 }
        let growth = edits.reduce(0) { $0 + $1.replacement.count - $1.range.count }
        var output: [UInt8] = []
        output.reserveCapacity(max(0, utf8.count + growth))
        var position = 0
        utf8.withUnsafeBufferPointer { buffer in
            for edit in edits {
                precondition(edit.range.lowerBound >= position, "edits must be sorted and not overlap")
                output.append(contentsOf: buffer[position..<edit.range.lowerBound])
                output.append(contentsOf: edit.replacement)
                position = edit.range.upperBound
            }
            output.append(contentsOf: buffer[position...])
        }
        return output
    }
}

extension UInt8 {
    /// ASCII space or tab.
    @inline(__always) var isBlank: Bool { self == 0x20 || self == 0x09 }
    /// ASCII letter folded to lower case; other bytes unchanged.
    @inline(__always) var asciiLowercased: UInt8 { self >= 0x41 && self <= 0x5A ? self | 0x20 : self }
    /// Whether the byte is an ASCII digit (`0`...`9`).
    @inline(__always) var isDigit: Bool { self >= 0x30 && self <= 0x39 }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether the bytes at `offset` start with `prefix` (ASCII, compared ignoring case), before `limit`.
    @inline(__always)
    func hasPrefixIgnoringCase(_ prefix: StaticString, at offset: Int, limit: Int) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard offset + length <= limit else { return false }
        let pointer = prefix.utf8Start
        for index in 0..<length where self[offset + index].asciiLowercased != pointer[index].asciiLowercased {
            return false
        }
        return true
    }

    /// `range` without the spaces and tabs at both ends.
    func trimmingBlanks(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, self[lower].isBlank { lower += 1 }
        while upper > lower, self[upper - 1].isBlank { upper -= 1 }
        return lower..<upper
    }

    /// The bytes of `range` as a String.
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self[range]), as: UTF8.self)
    }
}

/// A position in text for error messages: 1-based line, and 1-based column counted in Unicode scalars.
func textPosition(of offset: Int, in utf8: [UInt8], lines: [LineSpan]) -> (line: Int, column: Int) {
    var low = 0
    var high = lines.count - 1
    while low < high {
        let middle = (low + high + 1) / 2
        if lines[middle].start <= offset { low = middle } else { high = middle - 1 }
    }
    guard !lines.isEmpty else { return (1, 1) }
    let start = lines[low].start
    var column = 1
    var index = start
    while index < offset && index < utf8.count {
        if utf8[index] & 0xC0 != 0x80 { column += 1 }
        index += 1
    }
    return (low + 1, column)
}

extension TextEdit {
    /// `first` (edits of a text) followed by `then` (edits of the text `first` made), as edits of the original
    /// text: sorted, not overlapping. An edit of `then` must not fall inside the replacement of one of `first`.
    public static func merging(_ first: [TextEdit], _ then: [TextEdit]) -> [TextEdit] {
        guard !then.isEmpty else { return first }
        var mapped: [TextEdit] = []
        mapped.reserveCapacity(then.count)
        var index = 0
        var shift = 0  // how much longer the edited text is than the original, before the current position
        func original(_ offset: Int) -> Int {
            while index < first.count {
                let edit = first[index]
                let editedEnd = edit.range.lowerBound + shift + edit.replacement.count
                guard editedEnd <= offset else { break }
                shift += edit.replacement.count - edit.range.count
                index += 1
            }
            return offset - shift
        }
        for edit in then {
            let lower = original(edit.range.lowerBound)
            let upper = original(edit.range.upperBound)
            mapped.append(TextEdit(range: lower..<max(lower, upper), replacement: edit.replacement))
        }
        return (first + mapped).sorted {
            ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound)
        }
    }
}
