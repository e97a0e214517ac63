import Foundation
import SubCore

/// The one failure type of the command line, for a single input or a whole command (not a usage error): the file
/// (nil when there is none), where in it, and the cause. `CommandIO.error` prints it as
/// `subfix: error: <file>:<position>: <cause>`; the exit status is 1.
///
/// Any error becomes one through `init(_:file:)`, the one place where SubCore's and the library's errors get
/// the command line's advice (`--encoding-hint`, `--remux`, ...), which SubCore does not know about.
struct CommandFailure: FileError, Equatable {
    var file: String?
    var position: String?
    var cause: String

    /// A failure about `file` (at `position`) for `cause`.
    init(file: String? = nil, position: String? = nil, cause: String) {
        self.file = file
        self.position = position
        self.cause = cause
    }

    /// `error` as a failure: a `FileError` keeps its file (else `file`), position and cause, plus the options
    /// that get past it; a SubDB `DatabaseError` or any other error is described in its own words, about `file`.
    /// Swift's default description of an error value never reaches the user.
    init(_ error: any Error, file: String? = nil) {
        switch error {
        case let failure as CommandFailure:
            self = failure
            if self.file == nil { self.file = file }
        case let error as any FileError:
            self.init(file: error.file ?? file, position: error.position, cause: error.cause + Self.advice(for: error))
        case let error as any CustomStringConvertible:
            self.init(file: file, cause: error.description)
        default:
            self.init(file: file, cause: error.localizedDescription)
        }
    }

    /// The failure as a part of `context` in `file` (`track 2 (ep01.ass)` of a media file): its own file is
    /// dropped (it names the part, which the context already does) and its position leads the cause.
    func within(_ context: String, of file: String?) -> CommandFailure {
        CommandFailure(file: file, cause: context + ": " + detail)
    }

    /// The position and the cause, for records that keep the file apart (a job log row, a JSON object that has
    /// an `input`): `12:3: malformed timestamp ...`.
    var detail: String { position.map { "\($0): \(cause)" } ?? cause }

    /// The command-line options that get past `error`, as words to add after its cause.
    static func advice(for error: any FileError) -> String {
        switch error {
        case let error as TextDecodingError:
            switch error.problem {
            case .undetectable: return " (try --encoding-hint)"
            case .ambiguous: return ": pass --encoding-hint"
            case .unencodable: return " (use --encoding utf8 or another --font)"
            case .notKept: return " (use --encoding utf8)"
            default: return ""
            }
        case let error as SubtitleFixError:
            if case .decoding(let decoding) = error { return advice(for: decoding) }
            return ""
        case let error as RenderError:
            switch error {
            case .decoding(let decoding): return advice(for: decoding)
            case .noVideo: return " for '--background video'"
            default: return ""
            }
        case let error as MediaError:
            if case .notMatroska = error { return " (without --remux)" }
            return ""
        default:
            return ""
        }
    }
}
