import Foundation

/// A rendering failure a user can act on: which file or value, what went wrong, what was expected.
///
///     RenderError.badTime("1:2:3:4")   // "invalid time '1:2:3:4' (expected HH:MM:SS.mmm, MM:SS or seconds)"
public enum RenderError: Equatable, FileError {
    /// A libass call returned nothing (libass reports no codes).
    case libass(function: String, file: String?)
    /// A C library (libass) that could not be loaded, with the dynamic loader's message.
    case libraryUnavailable(soname: String, message: String)
    /// An FFmpeg call failed, with FFmpeg's message for the code.
    case ffmpeg(function: String, code: Int32, message: String, file: String?)
    /// A subtitle file that cannot be read or understood.
    case unreadable(file: String, cause: String)
    /// A subtitle whose text cannot be decoded.
    case decoding(TextDecodingError)
    /// A subtitle whose structure cannot be parsed (with its line and column).
    case parse(SubtitleParseError)
    /// A time that is not `HH:MM:SS.mmm`, `MM:SS` or seconds.
    case badTime(String)
    /// A duration between frames that is not a positive time.
    case badDuration(String)
    /// A size that is not `WxH` within 1x1...8192x8192.
    case badSize(String)
    /// A media file handed over as subtitle text (read its tracks with `MediaSubtitles`).
    case mediaInput(file: String)
    /// A video background was asked for an input without video.
    case noVideo(file: String)

    public var file: String? {
        switch self {
        case .libass(_, let file), .ffmpeg(_, _, _, let file): return file
        case .unreadable(let file, _): return file.isEmpty ? nil : file
        case .mediaInput(let file), .noVideo(let file): return file
        case .decoding(let error): return error.file
        case .parse(let error): return error.file
        case .badTime, .badDuration, .badSize, .libraryUnavailable: return nil
        }
    }

    public var position: String? {
        if case .parse(let error) = self { return error.position }
        return nil
    }

    public var cause: String {
        switch self {
        case .libass(let function, _):
            return "\(function) failed"
        case .libraryUnavailable(let soname, let message):
            return "cannot load \(soname): \(message)"
        case .ffmpeg(let function, let code, let message, _):
            return "\(function) failed: \(message) (\(code))"
        case .unreadable(_, let cause):
            return cause
        case .decoding(let error):
            return error.cause
        case .parse(let error):
            return error.cause
        case .badTime(let text):
            return "invalid time '\(text)' (expected HH:MM:SS.mmm, MM:SS or seconds)"
        case .badDuration(let text):
            return "invalid duration '\(text)' (expected a positive time such as 0.5, 00:10 or 00:00:02.500)"
        case .badSize(let text):
            return "invalid size '\(text)' (expected WxH from 1x1 to \(Canvas.maximumSide)x\(Canvas.maximumSide))"
        case .mediaInput:
            return "a media file, not subtitle text (its tracks are read with MediaSubtitles)"
        case .noVideo:
            return "no video stream"
        }
    }
}

extension RenderError {
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
            throw .unreadable(file: error.file ?? file ?? "", cause: error.cause)
        } catch let error as any FileError {
            throw .unreadable(file: error.file ?? file ?? "", cause: error.cause)
        } catch {
            throw .unreadable(file: file ?? "", cause: error.localizedDescription)
        }
    }
}
