import Foundation
import SubDB

/// One face of a font file in the font catalog, table `font_face`, unique by (`file`, `faceIndex`).
public struct FontFaceRecord: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "font_face"
    /// Columns are the snake_case of the properties.
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    /// Columns are the snake_case of the properties.
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    /// The row id, nil before insertion.
    public var id: Int64?
    /// The font file path.
    public var file: String
    /// The face index inside the file (collections hold several).
    public var faceIndex: Int
    /// Family names, in every language the font gives (stored as JSON).
    public var families: [String]
    /// Full names (stored as JSON).
    public var fullNames: [String]
    /// The PostScript name.
    public var postscriptName: String?
    /// The weight (100...900).
    public var weight: Int
    /// `roman`, `italic` or `oblique`.
    public var slant: String
    /// Characters covered per script or range, such as `["han": 20902, "kana": 177]` (stored as JSON).
    public var coverage: [String: Int]

    public init(
        id: Int64? = nil, file: String, faceIndex: Int, families: [String], fullNames: [String],
        postscriptName: String?, weight: Int, slant: String, coverage: [String: Int]
    ) {
        self.id = id
        self.file = file
        self.faceIndex = faceIndex
        self.families = families
        self.fullNames = fullNames
        self.postscriptName = postscriptName
        self.weight = weight
        self.slant = slant
        self.coverage = coverage
    }

    /// Stores the row id.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
