/// A subtitle file whose bytes cannot be turned into text (or text that cannot be turned back into bytes).
///
///     movie.srt: not UTF-8 (invalid byte at offset 1042) and no known encoding decodes it cleanly
public struct TextDecodingError: Equatable, FileError {
    /// What went wrong, with the byte offset where it did.
    public enum Cause: Sendable, Equatable {
        /// The file has no bytes at all.
        case empty
        /// A NUL byte: binary data rather than text.
        case binary(offset: Int)
        /// Not UTF-8 (first invalid byte at `offset`), and no legacy encoding decodes it to plausible text.
        case undetectable(offset: Int)
        /// The encoding was given (by a byte order mark or the user) but the bytes are invalid in it.
        case invalid(encoding: String, offset: Int)
        /// The text ends inside a character of a multi-byte encoding that starts at `offset`.
        case truncated(encoding: String, offset: Int)
        /// A character at `offset` of the UTF-8 text cannot be written in `encoding`.
        case unrepresentable(encoding: String, offset: Int)
        /// iconv does not know the encoding.
        case unsupported(encoding: String, message: String)
        /// Two encodings read the bytes as different texts, and neither reading is clearly more plausible.
        case ambiguous(first: String, second: String)
        /// A replacement (such as a font name) cannot be written in the file's own encoding.
        case unencodable(text: String, encoding: String)
        /// The bytes around `offset` do not decode on their own to the text read from the whole file, so they
        /// cannot be kept as they are.
        case notKept(encoding: String, offset: Int)
    }

    public var file: String?
    /// What went wrong, as data.
    public var problem: Cause

    /// An error about `file`.
    public init(file: String?, cause: Cause) {
        self.file = file
        self.problem = cause
    }

    public var cause: String {
        switch problem {
        case .empty:
            return "empty file (0 bytes), not a subtitle"
        case .binary(let offset):
            return "binary data, not text (NUL byte at offset \(offset))"
        case .undetectable(let offset):
            return "not UTF-8 (invalid byte at offset \(offset)) and no known encoding decodes it cleanly"
        case .invalid(let encoding, let offset):
            return "invalid \(encoding) text at byte offset \(offset)"
        case .truncated(let encoding, let offset):
            return "truncated \(encoding) text: incomplete character at byte offset \(offset)"
        case .unrepresentable(let encoding, let offset):
            return "text at byte offset \(offset) cannot be written in \(encoding)"
        case .unsupported(let encoding, let message):
            return "iconv cannot convert \(encoding): \(message)"
        case .ambiguous(let first, let second):
            return "ambiguous encoding (\(first) or \(second)?)"
        case .unencodable(let text, let encoding):
            return "'\(text)' cannot be written in \(encoding), the file's encoding"
        case .notKept(let encoding, let offset):
            return "cannot keep the original \(encoding) bytes at byte offset \(offset)"
        }
    }
}
