internal import CFreeType
import Foundation

/// A FreeType library instance. The corresponding C calls are `FT_Init_FreeType` and `FT_Done_FreeType`.
///
/// Not thread-safe: FreeType libraries and their faces are used from one thread at a time.
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws(FontError) {
        var library: FT_Library?
        let code = FT_Init_FreeType(&library)
        guard code == 0, let library else { throw FreeTypeLibrary.error("FT_Init_FreeType", code, file: nil) }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }

    /// Opens face `index` of the font file at `path`.
    func face(path: String, index: Int) throws(FontError) -> FreeTypeFace {
        try FreeTypeFace(library: self, path: path, index: index)
    }

    /// Opens face `index` of font data held in memory (a media attachment); `name` is used in messages.
    func face(data: Data, name: String, index: Int) throws(FontError) -> FreeTypeFace {
        try FreeTypeFace(library: self, data: data, name: name, index: index)
    }

    /// A `FontError` for a failed FreeType call, with FreeType's own text for the code.
    static func error(_ function: String, _ code: FT_Error, file: String?) -> FontError {
        .freetype(function: function, code: code, message: message(for: code), file: file)
    }

    /// FreeType's error text; Debian builds FreeType without `FT_CONFIG_OPTION_ERROR_STRINGS`, so the common
    /// codes are spelled out here (from fterrdef.h) and the rest fall back to the number.
    static func message(for code: FT_Error) -> String {
        if let text = FT_Error_String(code) { return String(cString: text) }
        switch code {
        case 0x01: return "cannot open resource"
        case 0x02: return "unknown file format"
        case 0x03: return "broken file"
        case 0x04: return "invalid FreeType version"
        case 0x06: return "invalid argument"
        case 0x07: return "unimplemented feature"
        case 0x08: return "broken table"
        case 0x09: return "broken offset within table"
        case 0x10: return "invalid glyph index"
        case 0x23: return "invalid character map handle"
        case 0x40: return "out of memory"
        case 0x51: return "invalid stream operation"
        case 0x53: return "invalid frame operation"
        case 0x55: return "invalid frame read"
        case 0x8E: return "table missing"
        default: return "FreeType error"
        }
    }
}
