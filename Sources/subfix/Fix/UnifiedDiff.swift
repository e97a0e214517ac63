/// A unified diff of two texts that have the same lines in the same order (font rewriting never adds or
/// removes a line break), with three lines of context, that `patch` applies: lines are split at LF only and
/// keep every other byte (a CRLF file's carriage returns included), and a last line without a newline is
/// followed by `\ No newline at end of file`, as GNU diff writes it.
enum UnifiedDiff {
    static func make(old: [UInt8], new: [UInt8], oldName: String, newName: String) -> String {
        let oldLines = lines(old)
        let newLines = lines(new)
        guard oldLines.count == newLines.count else { return "" }
        var changed: [Int] = []
        for index in oldLines.indices where oldLines[index] != newLines[index] { changed.append(index) }
        guard !changed.isEmpty else { return "" }
        var output = "--- \(oldName)\n+++ \(newName)\n"
        var hunkStart = 0
        while hunkStart < changed.count {
            var hunkEnd = hunkStart
            while hunkEnd + 1 < changed.count, changed[hunkEnd + 1] - changed[hunkEnd] <= 7 { hunkEnd += 1 }
            let first = max(0, changed[hunkStart] - 3)
            let last = min(oldLines.count - 1, changed[hunkEnd] + 3)
            let count = last - first + 1
            output += "@@ -\(first + 1),\(count) +\(first + 1),\(count) @@\n"
            var index = first
            var position = hunkStart
            while index <= last {
                if position <= hunkEnd, changed[position] == index {
                    // A run of changed lines: all the old ones, then all the new ones.
                    var runEnd = position
                    while runEnd + 1 <= hunkEnd, changed[runEnd + 1] == changed[runEnd] + 1 { runEnd += 1 }
                    for line in changed[position...runEnd] { output += diffLine("-", oldLines[line]) }
                    for line in changed[position...runEnd] { output += diffLine("+", newLines[line]) }
                    index = changed[runEnd] + 1
                    position = runEnd + 1
                    continue
                } else {
                    output += diffLine(" ", oldLines[index])
                }
                index += 1
            }
            hunkStart = hunkEnd + 1
        }
        return output
    }

    /// One line of a hunk: the marker, the line's bytes as they are, and its newline, or the note GNU diff and
    /// `patch` use for a last line without one.
    private static func diffLine(_ marker: String, _ line: (text: String, hasNewline: Bool)) -> String {
        marker + line.text + (line.hasNewline ? "\n" : "\n\\ No newline at end of file\n")
    }

    /// Lines split at LF, each without its LF (a CR before it stays), and whether it had one.
    private static func lines(_ utf8: [UInt8]) -> [(text: String, hasNewline: Bool)] {
        var result: [(text: String, hasNewline: Bool)] = []
        var start = 0
        for index in utf8.indices where utf8[index] == 0x0A {
            result.append((String(decoding: utf8[start..<index], as: UTF8.self), true))
            start = index + 1
        }
        if start < utf8.count { result.append((String(decoding: utf8[start...], as: UTF8.self), false)) }
        return result
    }
}
