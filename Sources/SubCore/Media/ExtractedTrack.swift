import Foundation

/// One subtitle track read out of a media file, held in memory: exactly the bytes
/// `ffmpeg -i IN -map 0:s:N OUT.<format>` would write.
public struct ExtractedTrack: Sendable, Equatable {
    /// The stream it came from (indexes, language, codec).
    public var stream: MediaStream
    /// The format `data` is in.
    public var format: ExtractionFormat
    /// The file's bytes (UTF-8 text).
    public var data: Data
    /// Subtitle packets libavcodec refused and that are therefore missing from `data` (ffmpeg drops them too).
    public var problems: [SubtitleDecodeProblem] = []

    /// A track's bytes and where they came from.
    public init(stream: MediaStream, format: ExtractionFormat, data: Data) {
        self.stream = stream
        self.format = format
        self.data = data
    }

    /// The file name for this track: `<base>.<subtitleIndex>.<language>.<ext>`, the language left out when it is
    /// unknown or not a plain tag.
    public func fileName(base: String) -> String {
        var parts = [base, String(stream.subtitleIndex ?? stream.index)]
        if let language = stream.language.map(ExtractedTrack.safeLanguage), !language.isEmpty {
            parts.append(language)
        }
        parts.append(format.fileExtension)
        return parts.joined(separator: ".")
    }

    /// A language tag reduced to ASCII letters, digits and `-` (it comes from the file: never trust it in a path).
    static func safeLanguage(_ tag: String) -> String {
        String(
            tag.unicodeScalars.filter {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
            }
            .prefix(16).map(Character.init))
    }
}
