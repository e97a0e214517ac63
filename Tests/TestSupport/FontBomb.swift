import Foundation

/// Hostile font collections for the tests: a TTC header listing `count` faces over one real font's tables.
public enum FontBomb {
    /// A collection of `count` entries over the single font `font` (a TTF or OTF). With `copies`, each entry
    /// points at its own copy of the font's table directory (distinct offsets, identical faces); otherwise
    /// every entry points at one directory. With `distinct` too, each copy differs in a table checksum (which
    /// FreeType does not check), so no two faces are the same bytes.
    public static func collection(of font: Data, count: Int, copies: Bool = false, distinct: Bool = false) -> Data {
        let bytes = [UInt8](font)
        let tables = Int(bytes[4]) << 8 | Int(bytes[5])
        let directoryLength = 12 + 16 * tables
        let header = 12 + 4 * count
        let directories = copies ? count : 1
        // The font's own bytes follow the header and the directories; every table offset moves by that much.
        let shift = header + directoryLength * directories
        var directory = Array(bytes[0..<directoryLength])
        for table in 0..<tables {
            let at = 12 + 16 * table + 8
            let offset = directory[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } + shift
            for byte in 0..<4 { directory[at + byte] = UInt8(truncatingIfNeeded: offset >> (24 - 8 * byte)) }
        }
        var out = Data()
        out.reserveCapacity(shift + bytes.count)
        out.append(contentsOf: Array("ttcf".utf8) + [0, 1, 0, 0] + bigEndian(count))
        for entry in 0..<count { out.append(contentsOf: bigEndian(header + directoryLength * (copies ? entry : 0))) }
        for copy in 0..<directories {
            var entry = directory
            if distinct {
                for byte in 0..<4 { entry[12 + 4 + byte] = UInt8(truncatingIfNeeded: copy >> (24 - 8 * byte)) }
            }
            out.append(contentsOf: entry)
        }
        out.append(contentsOf: bytes)
        return out
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }
}
