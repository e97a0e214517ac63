import Foundation
import SubDB

/// Folds Traditional Chinese characters to Simplified ones, one character at a time, through ICU's
/// `Hant-Hans` transform (built into Foundation). The table is built once, on first use.
enum ChineseFolding {
    /// The simplified form of each Han character of `text`; other characters stay as they are.
    static func simplified(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let mapped = table[scalar.value], let folded = Unicode.Scalar(mapped) {
                scalars.append(folded)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Traditional → Simplified for the BMP's unified ideographs, where the transform maps one character to one.
    static let table: [UInt32: UInt32] = {
        var source = String.UnicodeScalarView()
        for value in UInt32(0x4E00)...0x9FFF {
            if let scalar = Unicode.Scalar(value) { source.append(scalar) }
        }
        let transform = StringTransform("Hant-Hans")
        let original = Array(String(source).unicodeScalars)
        var table: [UInt32: UInt32] = [:]
        if let transformed = String(source).applyingTransform(transform, reverse: false),
            case let folded = Array(transformed.unicodeScalars), folded.count == original.count
        {
            for (from, to) in zip(original, folded) where from != to { table[from.value] = to.value }
            return table
        }
        // Some ICU versions map a character to several: fall back to one character at a time.
        for scalar in original {
            let folded = String(scalar).applyingTransform(transform, reverse: false)?.unicodeScalars
            if let folded, folded.count == 1, let to = folded.first, to != scalar { table[scalar.value] = to.value }
        }
        return table
    }()
}
