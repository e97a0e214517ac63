/// A unified diff of two texts that have the same lines in the same order (font rewriting never adds or
/// removes a line break), with three lines of context.
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
                    for line in changed[position...runEnd] { output += "-" + oldLines[line] + "\n" }
                    for line in changed[position...runEnd] { output += "+" + newLines[line] + "\n" }
                    index = changed[runEnd] + 1
                    position = runEnd + 1
                    continue
                } else {
                    output += " " + oldLines[index] + "\n"
                }
                index += 1
            }
            hunkStart = hunkEnd + 1
        }
        return output
    }

    /// Lines split at LF, CRLF or CR, without their terminators.
    private static func lines(_ utf8: [UInt8]) -> [String] {
        var result: [String] = []
        var start = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == 0x0A || byte == 0x0D {
                result.append(String(decoding: utf8[start..<index], as: UTF8.self))
                index += byte == 0x0D && index + 1 < utf8.count && utf8[index + 1] == 0x0A ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        if start < utf8.count { result.append(String(decoding: utf8[start...], as: UTF8.self)) }
        return result
    }
}
