internal import CFFmpeg

/// Why a media file could not be opened, mapped or extracted. Each case names the file; `cause` says what
/// went wrong there.
///
///     do { _ = try MediaFile(path: "notes.txt") }
///     catch let error as MediaError { print(error) }
///     // notes.txt: not a media file libavformat can read (avformat_open_input: Invalid data found ...)
public enum MediaError: Equatable, FileError {
    /// libavformat does not recognise the file as media (or cannot open it at all).
    case notMedia(file: String, function: String, message: String)
    /// A libavformat/libavcodec call failed; carries the C function and FFmpeg's message for `code`.
    case library(file: String, function: String, code: Int32, message: String)
    /// Player index 0, which players use for "Disable" (no subtitles).
    case disableTrack(file: String)
    /// A track, subtitle index or stream index that the file does not have.
    case noSuchTrack(file: String, requested: String, available: String)
    /// A stream index that exists but is not a subtitle stream.
    case notSubtitle(file: String, stream: Int, kind: String, codec: String, subtitleStreams: [Int])
    /// A bitmap subtitle track (PGS, VobSub, DVB) asked for as text.
    case bitmapTrack(file: String, playerIndex: Int, codecLabel: String)
    /// A subtitle codec libavcodec has no decoder or encoder for.
    case unsupportedCodec(file: String, playerIndex: Int, codec: String, reason: String)
    /// An attachment stream index that is not an attachment.
    case noSuchAttachment(file: String, stream: Int)
    /// Writing an output file failed.
    case write(file: String, cause: String)
    /// FFmpeg's libraries could not be loaded (they are loaded on first use); carries the loader's message.
    case librariesUnavailable(file: String, message: String)
    /// Remuxing was asked of a file that is not Matroska (libavformat's name for its container).
    case notMatroska(file: String, format: String)
    /// A damaged or truncated file, or one that read differently twice: it cannot be remuxed whole.
    case notRemuxable(file: String, cause: String)
    /// Not a file libavformat should be given: a folder, FIFO or device (`InputFile` refused it).
    case unreadable(file: String, cause: String)

    public var file: String? {
        switch self {
        case .notMedia(let file, _, _), .library(let file, _, _, _), .disableTrack(let file),
            .noSuchTrack(let file, _, _), .notSubtitle(let file, _, _, _, _), .bitmapTrack(let file, _, _),
            .unsupportedCodec(let file, _, _, _), .noSuchAttachment(let file, _), .write(let file, _),
            .librariesUnavailable(let file, _), .notMatroska(let file, _), .notRemuxable(let file, _),
            .unreadable(let file, _):
            return file
        }
    }

    public var cause: String {
        switch self {
        case .notMedia(_, let function, let message):
            return "not a media file libavformat can read (\(function): \(message))"
        case .library(_, let function, let code, let message):
            return "\(function) failed: \(message) (error \(code))"
        case .disableTrack:
            return "track 0 means \"Disable\" (no subtitles) in a player's subtitle menu; "
                + "the first subtitle track is track 1"
        case .noSuchTrack(_, let requested, let available):
            return "there is no \(requested); \(available)"
        case .notSubtitle(_, let stream, let kind, let codec, let subtitleStreams):
            let list =
                subtitleStreams.isEmpty
                ? "the file has no subtitle streams"
                : "subtitle streams are " + subtitleStreams.map(String.init).joined(separator: ", ")
            return "stream \(stream) is \(kind) (\(codec)), not a subtitle stream; \(list)"
        case .bitmapTrack(_, let playerIndex, let codecLabel):
            return "track \(playerIndex) is \(codecLabel) (bitmap): text extraction needs OCR (subfix extract --ocr)"
        case .unsupportedCodec(_, let playerIndex, let codec, let reason):
            return "track \(playerIndex) (\(codec)) cannot be extracted: \(reason)"
        case .noSuchAttachment(_, let stream):
            return "stream \(stream) is not an attachment"
        case .write(_, let cause):
            return cause
        case .librariesUnavailable(_, let message):
            return "FFmpeg's libraries could not be loaded: \(message)"
        case .notMatroska(_, let format):
            return "remux writes Matroska only and this is \(format); convert it to .mkv first, or fix its text"
                + " tracks as sidecars"
        case .notRemuxable(_, let cause):
            return "cannot be remuxed: \(cause); nothing written"
        case .unreadable(_, let cause):
            return cause
        }
    }

    /// FFmpeg's own message for an AVERROR code (`av_strerror`).
    static func message(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { cffmpeg_strerror(code, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A failed C call as a typed error.
    static func library(_ function: String, _ code: Int32, file: String) -> MediaError {
        .library(file: file, function: function, code: code, message: message(for: code))
    }
}
