/// A font that could not be read or a font library call that failed.
///
///     catch let error as FontError { print(error) }   // "bad.ttf: FT_New_Face failed: unknown file format (0x02)"
public enum FontError: Equatable, FileError {
    /// A FreeType call failed; `file` is the font it was reading, when there is one.
    case freetype(function: String, code: Int32, message: String, file: String?)
    /// A fontconfig call failed (fontconfig reports no error codes, only a null result).
    case fontconfig(function: String)
    /// A C library (fontconfig, HarfBuzz) that could not be loaded, with the dynamic loader's message.
    case libraryUnavailable(soname: String, message: String)
    /// A font file or folder that could not be read from disk.
    case unreadable(file: String, cause: String)

    public var file: String? {
        switch self {
        case .freetype(_, _, _, let file): return file
        case .fontconfig, .libraryUnavailable: return nil
        case .unreadable(let file, _): return file
        }
    }

    public var cause: String {
        switch self {
        case .freetype(let function, let code, let message, _):
            let hex = String(code, radix: 16, uppercase: true)
            return "\(function) failed: \(message) (0x\(hex.count < 2 ? "0" + hex : hex))"
        case .fontconfig(let function):
            return "\(function) failed"
        case .libraryUnavailable(let soname, let message):
            return "cannot load \(soname): \(message)"
        case .unreadable(_, let cause):
            return cause
        }
    }
}
