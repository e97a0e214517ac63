import Foundation
import SubCore
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
        let original = (UInt32(0x4E00)...0x9FFF).compactMap(Unicode.Scalar.init)
        var table: [UInt32: UInt32] = [:]
        for (from, to) in zip(original, HanTransform.map(original, StringTransform("Hant-Hans"))) {
            if let to, to != from { table[from.value] = to.value }
        }
        return table
    }()
}
