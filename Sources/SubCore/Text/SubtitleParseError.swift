/// A subtitle whose structure cannot be read, with where and what was expected:
///
///     movie.zh.srt:42:14: malformed timestamp '00:01:02.5x' (expected HH:MM:SS,mmm)
public struct SubtitleParseError: Equatable, FileError {
    public var file: String?
    /// 1-based line.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    /// What is wrong there and what was expected.
    public var cause: String

    /// An error at `file:line:column` saying `message`.
    public init(file: String?, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.cause = message
    }

    /// `line:column`.
    public var position: String? { "\(line):\(column)" }
}
