import Foundation
import SubDB

/// How a run of a command ended, as the job log keeps it (stored as its raw text).
public enum JobStatus: String, Codable, Sendable, CaseIterable {
    /// Started and not finished (or interrupted).
    case running
    /// Every input went well.
    case succeeded
    /// Some inputs failed; the others were processed.
    case failed
    /// The run itself failed.
    case error
}

/// What a command did to one file, as the job log keeps it (stored as its raw text).
public enum JobFileStatus: String, Codable, Sendable, CaseIterable {
    /// `fix`: rewritten, or would be with `--dry-run`; left as it was; nothing to do; could not be done.
    case changed, unchanged, skipped, failed
    /// `extract`: a track written as extracted, or fixed on the way; an attachment written.
    case extracted, fixed, attachment
    /// `render`: a frame or a contact sheet written.
    case written, sheet
    /// `check`: every character has a glyph, or some have none.
    case covered, missing
    /// `index`: added, indexed again, or gone from the library.
    case new, updated, removed
    /// `report`: the file needs fixing, or lacks glyphs even after the fix.
    case needsFixing = "needs-fixing"
    case missingGlyphs = "missing-glyphs"
}

/// One run of a subfix command (`fix`, `index`...), table `job`.
public struct JobRecord: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "job"
    /// Columns are the snake_case of the properties.
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    /// Columns are the snake_case of the properties.
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    /// Dates as seconds since 1970, so they sort and compare as numbers.
    public static let databaseDateEncodingStrategy = DatabaseDateEncodingStrategy.timeIntervalSince1970
    /// Dates as seconds since 1970.
    public static let databaseDateDecodingStrategy = DatabaseDateDecodingStrategy.timeIntervalSince1970

    /// The row id, nil before insertion.
    public var id: Int64?
    /// The command name, such as `fix`.
    public var command: String
    /// The arguments after the command name (stored as JSON).
    public var arguments: [String]
    /// When it started.
    public var startedAt: Date
    /// When it finished; nil while running or when it was interrupted.
    public var finishedAt: Date?
    /// How the run ended.
    public var status: JobStatus
    /// What the command counts, such as `["files": 3, "changed": 2]` (stored as JSON).
    public var counts: [String: Int]

    public init(
        id: Int64? = nil, command: String, arguments: [String], startedAt: Date, finishedAt: Date? = nil,
        status: JobStatus, counts: [String: Int] = [:]
    ) {
        self.id = id
        self.command = command
        self.arguments = arguments
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.status = status
        self.counts = counts
    }

    /// Stores the row id.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// What a job did to one file, table `job_file`, deleted with its job.
public struct JobFileRecord: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "job_file"
    /// Columns are the snake_case of the properties.
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    /// Columns are the snake_case of the properties.
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    /// The row id, nil before insertion.
    public var id: Int64?
    /// The `job` row this file belongs to.
    public var jobId: Int64
    /// The input path.
    public var path: String
    /// Where the result went, if anywhere.
    public var output: String?
    /// What the command did to the file.
    public var status: JobFileStatus
    /// The encoding read, or the conversion done.
    public var encoding: String?
    /// What the command counts for this file (stored as JSON).
    public var counts: [String: Int]
    /// The cause of a failure.
    public var error: String?

    public init(
        id: Int64? = nil, jobId: Int64, path: String, output: String? = nil, status: JobFileStatus,
        encoding: String? = nil,
        counts: [String: Int] = [:], error: String? = nil
    ) {
        self.id = id
        self.jobId = jobId
        self.path = path
        self.output = output
        self.status = status
        self.encoding = encoding
        self.counts = counts
        self.error = error
    }

    /// Stores the row id.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
