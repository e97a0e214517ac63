import Foundation

/// A source's line lengths, one byte a line in id order (`subtitle_source.line_lengths`): what ranking reads
/// instead of each candidate line (`LibraryDatabase.rankedCandidates`).
///
///     LineLengths.encode(["你好", "see you"])   // [2, 7]
enum LineLengths {
    /// Lengths of this value or more are stored as it, and read from the line itself.
    static let saturated: UInt8 = 255

    /// The lengths of `texts` in characters, as SQLite's `length()` counts them (Unicode scalars before the first
    /// NUL), each at most ``saturated``.
    static func encode(_ texts: [String]) -> Data {
        Data(texts.map { UInt8(min(length(of: $0), Int(saturated))) })
    }

    /// `length(text)` in SQLite: the scalars before the first NUL.
    static func length(of text: String) -> Int {
        var count = 0
        for scalar in text.unicodeScalars {
            if scalar.value == 0 { break }
            count += 1
        }
        return count
    }
}
