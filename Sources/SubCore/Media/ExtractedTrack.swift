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

/// Where and why reading a damaged or truncated file stopped early.
public struct ReadInterruption: Sendable, Equatable, CustomStringConvertible {
    /// The time (seconds) of the last packet that could be read, of any stream.
    public var stoppedAt: Double
    /// The container's duration, when known.
    public var duration: Double?
    /// libavformat's reason ("File ended prematurely", "Invalid data found when processing input", ...).
    public var reason: String

    /// "reading stopped at 0:00:01.500 of 0:00:05.000 (File ended prematurely)".
    public var description: String {
        let total = duration.map { " of " + MediaTime.format($0) } ?? ""
        return "reading stopped at \(MediaTime.format(stoppedAt))\(total) (\(reason))"
    }
}

/// The result of one demux pass: every requested track, and whether reading stopped before the end.
public struct ExtractionResult: Sendable, Equatable {
    /// The tracks, in subtitle-index order.
    public var tracks: [ExtractedTrack]
    /// Set when the file is truncated or damaged: the tracks then hold what was readable.
    public var interruption: ReadInterruption?
}

/// Formats media times for people.
public enum MediaTime {
    /// `H:MM:SS.mmm`, such as `0:01:02.500`.
    public static func format(_ seconds: Double) -> String {
        let totalMilliseconds = max(0, Int((seconds * 1000).rounded()))
        let hours = totalMilliseconds / 3_600_000
        let minutes = totalMilliseconds / 60_000 % 60
        let secs = totalMilliseconds / 1000 % 60
        let millis = totalMilliseconds % 1000
        return "\(hours):" + pad(minutes, 2) + ":" + pad(secs, 2) + "." + pad(millis, 3)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
