/// The characters a face maps to glyphs, kept as sorted ranges of Unicode scalar values.
///
///     let coverage = FontCoverage(scalars: [0x41, 0x42, 0x43, 0x4E2D])
///     coverage.contains("中")                 // true
///     coverage.missing(in: "AB中文")          // ["文"]
public struct FontCoverage: Sendable, Hashable, Codable {
    /// Inclusive ranges, sorted and disjoint, as flat `[first, last, first, last, ...]`.
    private var bounds: [UInt32]

    /// The coverage of the given scalars (any order, duplicates allowed).
    public init<S: Sequence>(scalars: S) where S.Element == UInt32 {
        var sorted = Array(scalars)
        sorted.sort()
        var bounds: [UInt32] = []
        for value in sorted {
            if let last = bounds.last, value <= last &+ 1, value >= bounds[bounds.count - 2] {
                bounds[bounds.count - 1] = max(last, value)
            } else {
                bounds.append(value)
                bounds.append(value)
            }
        }
        self.bounds = bounds
    }

    /// A coverage of no characters.
    public init() { bounds = [] }

    /// How many characters are covered.
    public var count: Int {
        stride(from: 0, to: bounds.count, by: 2).reduce(0) { $0 + Int(bounds[$1 + 1] - bounds[$1]) + 1 }
    }

    /// The covered ranges, in ascending order.
    public var ranges: [ClosedRange<UInt32>] {
        stride(from: 0, to: bounds.count, by: 2).map { bounds[$0]...bounds[$0 + 1] }
    }

    /// Whether `scalar` is covered (binary search over the ranges).
    public func contains(_ scalar: Unicode.Scalar) -> Bool { contains(value: scalar.value) }

    /// Whether the scalar value is covered.
    public func contains(value: UInt32) -> Bool {
        var low = 0
        var high = bounds.count / 2
        while low < high {
            let middle = (low + high) / 2
            if bounds[middle * 2 + 1] < value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < bounds.count / 2 && bounds[low * 2] <= value
    }

    /// The scalars of `text` that are not covered, once each in order of first appearance. Characters that
    /// never show ink (controls, spaces, line and paragraph separators, variation selectors) are not reported.
    public func missing(in text: String) -> [Unicode.Scalar] {
        var seen = Set<UInt32>()
        var missing: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars where FontCoverage.needsGlyph(scalar) && !contains(scalar) {
            if seen.insert(scalar.value).inserted { missing.append(scalar) }
        }
        return missing
    }

    /// How many covered characters fall in each script, for the scripts that have any.
    public var scriptCounts: [(script: FontScript, count: Int)] {
        var counts = [Int](repeating: 0, count: FontScript.allCases.count)
        for range in ranges {
            for (index, script) in FontScript.allCases.enumerated() where script != .other {
                for block in script.blocks {
                    let low = max(block.lowerBound, range.lowerBound)
                    let high = min(block.upperBound, range.upperBound)
                    if low <= high { counts[index] += Int(high - low) + 1 }
                }
            }
        }
        let classified = counts.reduce(0, +)
        if let other = FontScript.allCases.firstIndex(of: .other) { counts[other] = count - classified }
        return FontScript.allCases.enumerated().compactMap {
            counts[$0.offset] > 0 ? ($0.element, counts[$0.offset]) : nil
        }
    }

    /// Whether a missing glyph for `scalar` would be visible (false for controls, spaces and invisible format
    /// characters, which render blank either way).
    static func needsGlyph(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0...0x20, 0x7F...0xA0, 0x3000, 0x2000...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFE00...0xFE0F, 0xFEFF:
            return false
        default:
            return true
        }
    }
}

/// The scripts subfix counts in a face's coverage, by Unicode block.
public enum FontScript: String, CaseIterable, Sendable, Codable {
    case latin = "Latin"
    case greek = "Greek"
    case cyrillic = "Cyrillic"
    case han = "Han"
    case hiragana = "Hiragana"
    case katakana = "Katakana"
    case hangul = "Hangul"
    case bopomofo = "Bopomofo"
    case cjkSymbols = "CJK symbols"
    case arabic = "Arabic"
    case hebrew = "Hebrew"
    case thai = "Thai"
    case other = "Other"

    /// The Unicode blocks counted for the script.
    public var blocks: [ClosedRange<UInt32>] {
        switch self {
        case .latin: return [0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF, 0xFF21...0xFF3A, 0xFF41...0xFF5A]
        case .greek: return [0x370...0x3FF, 0x1F00...0x1FFF]
        case .cyrillic: return [0x400...0x52F]
        case .han:
            return [0x2E80...0x2FDF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F]
        case .hiragana: return [0x3040...0x309F]
        case .katakana: return [0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F]
        case .hangul: return [0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF]
        case .bopomofo: return [0x3100...0x312F, 0x31A0...0x31BF]
        case .cjkSymbols: return [0x3000...0x303F, 0xFF01...0xFF20, 0xFF3B...0xFF40, 0xFF5B...0xFF65, 0xFFE0...0xFFEF]
        case .arabic: return [0x600...0x6FF, 0x750...0x77F, 0xFB50...0xFDFF, 0xFE70...0xFEFF]
        case .hebrew: return [0x590...0x5FF]
        case .thai: return [0xE00...0xE7F]
        case .other: return []
        }
    }
}
