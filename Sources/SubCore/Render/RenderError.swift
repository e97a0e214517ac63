/// A rendering failure a user can act on: which file or value, what went wrong, what was expected.
///
///     RenderError.badTime("1:2:3:4")   // "invalid time '1:2:3:4' (expected HH:MM:SS.mmm, MM:SS or seconds)"
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A libass call returned nothing (libass reports no codes).
    case libass(function: String, file: String?)
    /// An FFmpeg call failed, with FFmpeg's message for the code.
    case ffmpeg(function: String, code: Int32, message: String, file: String?)
    /// A subtitle file that cannot be read or understood.
    case unreadable(file: String, cause: String)
    /// A time that is not `HH:MM:SS.mmm`, `MM:SS` or seconds.
    case badTime(String)
    /// A duration for `--every` that is not a positive time.
    case badDuration(String)
    /// A size that is not `WxH` within 1x1...8192x8192.
    case badSize(String)
    /// A media file handed over as subtitle text (read its tracks with `MediaSubtitles`).
    case mediaInput(file: String)
    /// The video background was asked for an input without video.
    case noVideo(file: String)

    /// The message after `subfix: error: `.
    public var description: String {
        switch self {
        case .libass(let function, let file):
            return (file.map { "\($0): " } ?? "") + "\(function) failed"
        case .ffmpeg(let function, let code, let message, let file):
            return (file.map { "\($0): " } ?? "") + "\(function) failed: \(message) (\(code))"
        case .unreadable(let file, let cause):
            return "\(file): \(cause)"
        case .badTime(let text):
            return "invalid time '\(text)' (expected HH:MM:SS.mmm, MM:SS or seconds)"
        case .badDuration(let text):
            return "invalid duration '\(text)' (expected a positive time such as 0.5, 00:10 or 00:00:02.500)"
        case .badSize(let text):
            return "invalid size '\(text)' (expected WxH from 1x1 to \(Canvas.maximumSide)x\(Canvas.maximumSide))"
        case .mediaInput(let file):
            return "\(file): a media file, not subtitle text (its tracks are read with MediaSubtitles)"
        case .noVideo(let file):
            return "\(file): no video stream for '--background video'"
        }
    }
}

extension RenderError {
    /// A subtitle SubCore/Text cannot parse, as `file:line:column` and the cause.
    static func parse(_ error: SubtitleParseError) -> RenderError {
        .unreadable(file: "\(error.file):\(error.line):\(error.column)", cause: error.message)
    }

    /// An FFmpeg error for `function`, with FFmpeg's own text for `code` (`av_strerror`).
    static func ffmpeg(_ function: String, _ code: Int32, file: String? = nil) -> RenderError {
        .ffmpeg(function: function, code: code, message: MediaError.message(for: code), file: file)
    }

    /// Runs `body`, which uses Media's FFmpeg owners (`CodecContext`, `Packet`, `Frame`, `Scaler`, `MediaFile`),
    /// turning a failed C call into `.ffmpeg` about `file` and any other `MediaError` into `.unreadable`.
    static func media<T>(file: String? = nil, _ body: () throws -> T) throws(RenderError) -> T {
        do {
            return try body()
        } catch let error as RenderError {
            throw error
        } catch let error as MediaError {
            if case .library(_, let function, let code, let message) = error {
                throw .ffmpeg(function: function, code: code, message: message, file: file)
            }
            throw .unreadable(file: error.file, cause: error.description)
        } catch {
            throw .unreadable(file: file ?? "", cause: String(describing: error))
        }
    }
}
