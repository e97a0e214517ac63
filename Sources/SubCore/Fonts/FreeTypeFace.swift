internal import CTextLoader
import Foundation

/// One opened face. The corresponding C calls are `FT_New_Face` / `FT_New_Memory_Face` and `FT_Done_Face`.
///
/// Keeps its library alive, and for memory faces the bytes FreeType reads from.
final class FreeTypeFace {
    let handle: FT_Face
    let library: FreeTypeLibrary
    /// A memory face's bytes: a stable copy FreeType reads from for as long as the face lives (FreeType does
    /// not copy them, and a `Data`'s storage may move).
    private let buffer: UnsafeMutableRawBufferPointer?

    init(library: FreeTypeLibrary, path: String, index: Int) throws(FontError) {
        var face: FT_Face?
        let code = ctext_FT_New_Face(library.handle, path, FT_Long(index), &face)
        guard code == 0, let face else { throw FreeTypeLibrary.error("FT_New_Face", code, file: path) }
        self.handle = face
        self.library = library
        self.buffer = nil
    }

    init(library: FreeTypeLibrary, data: Data, name: String, index: Int) throws(FontError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        data.copyBytes(to: buffer)
        var face: FT_Face?
        let base = buffer.baseAddress?.assumingMemoryBound(to: FT_Byte.self)
        let code = ctext_FT_New_Memory_Face(library.handle, base, FT_Long(data.count), FT_Long(index), &face)
        guard code == 0, let face else {
            buffer.deallocate()
            throw FreeTypeLibrary.error("FT_New_Memory_Face", code, file: name)
        }
        self.handle = face
        self.library = library
        self.buffer = buffer
    }

    deinit {
        ctext_FT_Done_Face(handle)
        buffer?.deallocate()
    }

    /// How many faces the file holds (more than one for a TTC/OTC collection).
    var faceCount: Int { Int(handle.pointee.num_faces) }

    /// FreeType's family name (from the name table, or the font's own format).
    var familyName: String? { handle.pointee.family_name.map { String(cString: $0) } }

    /// The PostScript name, when the font has one. The corresponding C call is `FT_Get_Postscript_Name`.
    var postScriptName: String? { ctext_FT_Get_Postscript_Name(handle).map { String(cString: $0) } }

    /// Whether the face has PostScript outlines (a `CFF ` or `CFF2` table). The corresponding C call is
    /// `FT_Load_Sfnt_Table` with a null buffer, which only asks for the table's length.
    var hasPostScriptOutlines: Bool {
        for tag: FT_ULong in [0x4346_4620, 0x4346_4632] {
            var length: FT_ULong = 0
            if ctext_FT_Load_Sfnt_Table(handle, tag, 0, nil, &length) == 0 && length > 0 { return true }
        }
        return false
    }

    /// Whether the face holds outlines (libass ignores bitmap-only faces).
    var isScalable: Bool { cfreetype_is_scalable(handle) != 0 }

    /// Whether FreeType reports the face as italic or oblique.
    var isItalic: Bool { cfreetype_is_italic(handle) != 0 }

    /// Whether FreeType reports the face as bold.
    var isBold: Bool { cfreetype_is_bold(handle) != 0 }

    /// OS/2 `usWeightClass` (100 to 900), or 400/700 from the style flags when the table is missing.
    var weight: Int {
        if let table = ctext_FT_Get_Sfnt_Table(handle, FT_SFNT_OS2) {
            let os2 = table.assumingMemoryBound(to: TT_OS2.self)
            let value = Int(os2.pointee.usWeightClass)
            if value > 0 { return value }
        }
        return isBold ? 700 : 400
    }

    /// Every record of the name table, decoded to text where the platform's encoding is known.
    func nameRecords() -> [FontNameRecord] {
        var records: [FontNameRecord] = []
        let count = ctext_FT_Get_Sfnt_Name_Count(handle)
        for index in 0..<count {
            var name = FT_SfntName()
            guard ctext_FT_Get_Sfnt_Name(handle, index, &name) == 0, let bytes = name.string else { continue }
            let raw = Array(UnsafeBufferPointer(start: bytes, count: Int(name.string_len)))
            guard
                let text = FontNameRecord.decode(raw, platform: Int(name.platform_id), encoding: Int(name.encoding_id))
            else { continue }
            records.append(
                FontNameRecord(
                    nameID: Int(name.name_id), platform: Int(name.platform_id), language: Int(name.language_id),
                    text: text))
        }
        return records
    }

    /// The Unicode scalars the face maps to a glyph, from its Unicode charmap, in ascending order.
    func unicodeScalars() -> [UInt32] {
        guard ctext_FT_Select_Charmap(handle, FT_ENCODING_UNICODE) == 0 else { return [] }
        var scalars: [UInt32] = []
        scalars.reserveCapacity(Int(handle.pointee.num_glyphs))
        var glyph: FT_UInt = 0
        var code = ctext_FT_Get_First_Char(handle, &glyph)
        while glyph != 0 {
            scalars.append(UInt32(truncatingIfNeeded: code))
            code = ctext_FT_Get_Next_Char(handle, code, &glyph)
        }
        return scalars
    }

    /// Renders `scalar` as an 8-bit coverage bitmap at `pixelSize` and hands it to `body` with its metrics
    /// (left and top bearings, advance in pixels). The corresponding C calls are `FT_Set_Pixel_Sizes` and
    /// `FT_Load_Char` with `FT_LOAD_RENDER`.
    func withRenderedGlyph<T>(
        _ scalar: Unicode.Scalar, pixelSize: Int,
        _ body: (
            _ bitmap: UnsafePointer<UInt8>?, _ width: Int, _ rows: Int, _ pitch: Int, _ left: Int, _ top: Int,
            _ advance: Int
        ) -> T
    ) throws(FontError) -> T {
        var code = ctext_FT_Set_Pixel_Sizes(handle, 0, FT_UInt(pixelSize))
        guard code == 0 else { throw FreeTypeLibrary.error("FT_Set_Pixel_Sizes", code, file: nil) }
        code = ctext_FT_Load_Char(handle, FT_ULong(scalar.value), FT_Int32(FT_LOAD_RENDER))
        guard code == 0, let slot = handle.pointee.glyph else {
            throw FreeTypeLibrary.error("FT_Load_Char", code, file: nil)
        }
        let bitmap = slot.pointee.bitmap
        return body(
            UnsafePointer(bitmap.buffer), Int(bitmap.width), Int(bitmap.rows), Int(bitmap.pitch),
            Int(slot.pointee.bitmap_left), Int(slot.pointee.bitmap_top), Int(slot.pointee.advance.x >> 6))
    }
}

/// One decoded record of a font's `name` table.
struct FontNameRecord: Equatable {
    var nameID: Int
    var platform: Int
    var language: Int
    var text: String

    /// Name IDs used by subfix: family (1), full name (4), PostScript name (6), typographic family (16).
    static let family = 1
    static let fullName = 4
    static let postScript = 6
    static let typographicFamily = 16

    /// Windows (3) and Unicode (0) names are UTF-16BE; Mac (1) Roman names are Mac Roman; others are skipped.
    static func decode(_ bytes: [UInt8], platform: Int, encoding: Int) -> String? {
        switch platform {
        case 0, 3:
            guard bytes.count % 2 == 0 else { return nil }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            for index in stride(from: 0, to: bytes.count, by: 2) {
                units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
            }
            return String(decoding: units, as: UTF16.self)
        case 1 where encoding == 0:
            return String(
                String.UnicodeScalarView(
                    bytes.compactMap { byte in
                        Unicode.Scalar(byte < 0x80 ? UInt32(byte) : UInt32(macRomanHigh[Int(byte) - 0x80]))
                    }))
        default:
            return nil
        }
    }

    /// Mac OS Roman 0x80...0xFF as Unicode (Foundation on Linux decodes `.macOSRoman` wrongly).
    static let macRomanHigh: [UInt16] = [
        0x00C4, 0x00C5, 0x00C7, 0x00C9, 0x00D1, 0x00D6, 0x00DC, 0x00E1,
        0x00E0, 0x00E2, 0x00E4, 0x00E3, 0x00E5, 0x00E7, 0x00E9, 0x00E8,
        0x00EA, 0x00EB, 0x00ED, 0x00EC, 0x00EE, 0x00EF, 0x00F1, 0x00F3,
        0x00F2, 0x00F4, 0x00F6, 0x00F5, 0x00FA, 0x00F9, 0x00FB, 0x00FC,
        0x2020, 0x00B0, 0x00A2, 0x00A3, 0x00A7, 0x2022, 0x00B6, 0x00DF,
        0x00AE, 0x00A9, 0x2122, 0x00B4, 0x00A8, 0x2260, 0x00C6, 0x00D8,
        0x221E, 0x00B1, 0x2264, 0x2265, 0x00A5, 0x00B5, 0x2202, 0x2211,
        0x220F, 0x03C0, 0x222B, 0x00AA, 0x00BA, 0x03A9, 0x00E6, 0x00F8,
        0x00BF, 0x00A1, 0x00AC, 0x221A, 0x0192, 0x2248, 0x2206, 0x00AB,
        0x00BB, 0x2026, 0x00A0, 0x00C0, 0x00C3, 0x00D5, 0x0152, 0x0153,
        0x2013, 0x2014, 0x201C, 0x201D, 0x2018, 0x2019, 0x00F7, 0x25CA,
        0x00FF, 0x0178, 0x2044, 0x20AC, 0x2039, 0x203A, 0xFB01, 0xFB02,
        0x2021, 0x00B7, 0x201A, 0x201E, 0x2030, 0x00C2, 0x00CA, 0x00C1,
        0x00CB, 0x00C8, 0x00CD, 0x00CE, 0x00CF, 0x00CC, 0x00D3, 0x00D4,
        0xF8FF, 0x00D2, 0x00DA, 0x00DB, 0x00D9, 0x0131, 0x02C6, 0x02DC,
        0x00AF, 0x02D8, 0x02D9, 0x02DA, 0x00B8, 0x02DD, 0x02DB, 0x02C7,
    ]
}
