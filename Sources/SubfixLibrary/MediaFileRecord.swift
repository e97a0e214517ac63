import Foundation
import SubDB

/// A file the library indexed: a media file with embedded tracks, or a subtitle file (its own sidecar source).
/// Table `media_file`; `path` is unique. `size` and `mtime` decide whether the file changed since.
public struct MediaFileRecord: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "media_file"
    /// Columns are the snake_case of the properties.
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    /// Columns are the snake_case of the properties.
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    /// The row id, nil before insertion.
    public var id: Int64?
    /// The path as indexed (absolute).
    public var path: String
    /// The size in bytes when indexed.
    public var size: Int64
    /// The modification time when indexed, in nanoseconds since 1970.
    public var mtime: Int64
    /// The duration in seconds, for media files.
    public var duration: Double?

    public init(id: Int64? = nil, path: String, size: Int64, mtime: Int64, duration: Double? = nil) {
        self.id = id
        self.path = path
        self.size = size
        self.mtime = mtime
        self.duration = duration
    }

    /// Stores the row id.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Where dialogue comes from: a subtitle file (`sidecar`) or a text track of a media file (`embedded`).
/// Table `subtitle_source`, deleted with its file.
public struct SubtitleSourceRecord: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "subtitle_source"
    /// Columns are the snake_case of the properties.
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    /// Columns are the snake_case of the properties.
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    /// Sidecar file or embedded track.
    public enum Kind: String, Codable, Sendable {
        /// A subtitle file of its own.
        case sidecar
        /// A text track inside a media file.
        case embedded
    }

    /// The row id, nil before insertion.
    public var id: Int64?
    /// The file it belongs to.
    public var mediaFileId: Int64
    /// Sidecar or embedded.
    public var kind: Kind
    /// `ass`, `srt`, `vtt`, `subrip`, `mov_text`...
    public var codec: String
    /// The track's language tag, if any.
    public var language: String?
    /// The track's title, if any.
    public var title: String?
    /// The track number a player shows (from 1), for embedded tracks.
    public var playerIndex: Int?
    /// The index among the file's subtitle streams (`0:s:N`), for embedded tracks.
    public var subtitleIndex: Int?
    /// The encoding the text was read from, for sidecars.
    public var encoding: String?

    public init(
        id: Int64? = nil, mediaFileId: Int64, kind: Kind, codec: String, language: String? = nil,
        title: String? = nil, playerIndex: Int? = nil, subtitleIndex: Int? = nil, encoding: String? = nil
    ) {
        self.id = id
        self.mediaFileId = mediaFileId
        self.kind = kind
        self.codec = codec
        self.language = language
        self.title = title
        self.playerIndex = playerIndex
        self.subtitleIndex = subtitleIndex
        self.encoding = encoding
    }

    /// Stores the row id.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// One line of dialogue: when it shows, its style, and its plain text (tags removed, line breaks as "\n").
/// Table `dialogue_line`, indexed by `dialogue_fts`.
public struct DialogueLineRecord: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "dialogue_line"
    /// Columns are the snake_case of the properties.
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    /// Columns are the snake_case of the properties.
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    /// The row id, nil before insertion.
    public var id: Int64?
    /// The source it belongs to.
    public var sourceId: Int64
    /// Start time in milliseconds.
    public var startMs: Int
    /// End time in milliseconds.
    public var endMs: Int
    /// The ASS style, empty for other formats.
    public var style: String
    /// The plain text.
    public var text: String

    public init(id: Int64? = nil, sourceId: Int64, startMs: Int, endMs: Int, style: String, text: String) {
        self.id = id
        self.sourceId = sourceId
        self.startMs = startMs
        self.endMs = endMs
        self.style = style
        self.text = text
    }

    /// Stores the row id.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
