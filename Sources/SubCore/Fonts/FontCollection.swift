import Foundation

/// The faces worth reading in one font file: a TrueType/OpenType collection's distinct faces, at most
/// `faceLimit` of them.
///
/// A collection (`ttcf` header) lists an offset per face. A hostile one lists 20,000 offsets to one face, or to
/// 20,000 copies of one table directory, and every reader that opens each face in turn (the catalog, libass)
/// pays for each. Entries whose table directory repeats an earlier one's bytes are the same face and are read
/// once; past `faceLimit` distinct faces the rest are left out with one warning.
///
///     let faces = FontCollection(data: bytes)
///     faces.indexes          // [0, 1, 2, 3]: the face indexes to open
///     faces.warning          // "collection lists 20000 faces, 1 distinct: read 1"
public struct FontCollection: Sendable, Equatable {
    /// The most distinct faces read from one file. Real collections hold far fewer (Source Han Sans's
    /// Pan-CJK OTC has 70, Noto Sans CJK's 10 per weight).
    public static let faceLimit = 256
    /// The most faces read from one script's attachments and font folders together.
    public static let setupFaceLimit = 1024

    /// The face indexes to open, ascending (`[0]` for a file that is not a collection).
    public let indexes: [Int]
    /// How many faces the header lists (1 for a single font).
    public let declared: Int
    /// Where each kept face's entry points (its table directory's offset); empty for a single font.
    let offsets: [UInt32]

    /// Reads the collection header of a font file's bytes. A file that is not a collection, or whose header is
    /// cut short, is one face: FreeType reports what is wrong with it when it opens it.
    public init(data: Data) {
        let (indexes, declared, offsets) = data.withUnsafeBytes { FontCollection.scan(BigEndianBytes(bytes: $0)) }
        self.init(indexes: indexes, declared: declared, offsets: offsets)
    }

    private static func scan(_ reader: BigEndianBytes) -> (indexes: [Int], declared: Int, offsets: [UInt32]) {
        guard reader.uint32(at: 0) == 0x7474_6366,  // "ttcf"
            let count = reader.uint32(at: 8), count > 1
        else { return ([0], 1, []) }
        var seen = Set<[UInt8]>()
        var indexes: [Int] = []
        var offsets: [UInt32] = []
        var index = 0
        // Entries past the header's bytes are unreadable to FreeType too; stop there.
        while index < Int(count), indexes.count < FontCollection.faceLimit,
            let offset = reader.uint32(at: 12 + 4 * index)
        {
            if seen.insert(reader.tableDirectory(at: Int(offset))).inserted {
                indexes.append(index)
                offsets.append(offset)
            }
            index += 1
        }
        return (indexes.isEmpty ? [0] : indexes, Int(count), offsets)
    }

    private init(indexes: [Int], declared: Int, offsets: [UInt32]) {
        self.indexes = indexes
        self.declared = declared
        self.offsets = offsets
    }

    /// Reads the collection header of the file at `path` (mapped, not read whole).
    public init(path: String) {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
            self.init(indexes: [0], declared: 1, offsets: [])
            return
        }
        self.init(data: data)
    }

    /// Why faces were left out, or nil when every listed face is read.
    public var warning: String? {
        guard indexes.count < declared else { return nil }
        let distinct =
            indexes.count < FontCollection.faceLimit
            ? "\(indexes.count) distinct" : "at least \(indexes.count) distinct"
        return "collection lists \(declared) faces, \(distinct): read \(indexes.count)"
            + (indexes.count == FontCollection.faceLimit ? " (the limit per file)" : "")
    }

    /// `data` with its collection header listing only the kept faces, for a reader that opens every listed face
    /// (libass's memory fonts). Table offsets are absolute, so only the count and the first offsets change; the
    /// rest of the bytes stay where they were. Returns `data` itself when nothing is left out.
    public func bounded(_ data: Data) -> Data {
        guard indexes.count < declared, !offsets.isEmpty else { return data }
        var copy = data
        copy.withUnsafeMutableBytes { bytes in
            BigEndianBytes.store(UInt32(offsets.count), in: bytes, at: 8)
            for (slot, offset) in offsets.enumerated() { BigEndianBytes.store(offset, in: bytes, at: 12 + 4 * slot) }
        }
        return copy
    }
}

/// Bounds-checked big-endian reads over a font's bytes (every read past the end is nil). Only the pages read
/// are touched, so a mapped file is not read whole.
private struct BigEndianBytes {
    let bytes: UnsafeRawBufferPointer

    func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    func uint16(at offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    /// An sfnt table directory's bytes (12-byte header, 16 bytes a table): the same bytes mean the same face.
    /// A directory cut short by the file's end is what is there.
    func tableDirectory(at offset: Int) -> [UInt8] {
        guard offset >= 0, let tables = uint16(at: offset + 4) else { return [] }
        let end = min(bytes.count, offset + 12 + 16 * tables)
        return Array(bytes[offset..<end])
    }

    static func store(_ value: UInt32, in bytes: UnsafeMutableRawBufferPointer, at offset: Int) {
        guard offset + 4 <= bytes.count else { return }
        for shift in 0..<4 { bytes[offset + shift] = UInt8(truncatingIfNeeded: value >> (24 - 8 * shift)) }
    }
}
