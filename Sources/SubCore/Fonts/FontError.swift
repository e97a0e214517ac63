/// A font that could not be read or a font library call that failed.
///
///     catch let error as FontError { print(error) }   // "bad.ttf: FT_New_Face failed: unknown file format (0x02)"
public enum FontError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A FreeType call failed; `file` is the font it was reading, when there is one.
    case freetype(function: String, code: Int32, message: String, file: String?)
    /// A fontconfig call failed (fontconfig reports no error codes, only a null result).
    case fontconfig(function: String)
    /// A font file or folder that could not be read from disk.
    case unreadable(file: String, cause: String)

    /// `file: cause`, as the CLI prints it after `subfix: error: `.
    public var description: String {
        switch self {
        case .freetype(let function, let code, let message, let file):
            let hex = String(code, radix: 16, uppercase: true)
            let cause = "\(function) failed: \(message) (0x\(hex.count < 2 ? "0" + hex : hex))"
            return file.map { "\($0): \(cause)" } ?? cause
        case .fontconfig(let function):
            return "\(function) failed"
        case .unreadable(let file, let cause):
            return "\(file): \(cause)"
        }
    }
}
