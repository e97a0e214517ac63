import Foundation
import SubCore
import SubfixLibrary
import SubfixPostgres

/// Keeps the font catalog `subfix fonts` lists in the library database, so later runs and the index can query it.
enum FontCatalogStore {
    /// The library record of a face read from a file (faces of in-memory attachments are not stored).
    static func record(_ face: FontFace) -> FontFaceRecord? {
        guard case .file(let path) = face.source else { return nil }
        return FontFaceRecord(
            file: path, faceIndex: face.index, families: face.families, fullNames: face.fullNames,
            postscriptName: face.postScriptName, weight: face.weight, slant: face.isItalic ? "italic" : "roman",
            coverage: Dictionary(
                face.coverage.scriptCounts.map { ($0.script.rawValue, $0.count) }, uniquingKeysWith: +))
    }

    /// Stores `faces` in an existing library (listing fonts never creates one), forgetting recorded files that no
    /// longer exist; a database that cannot be opened or written is a warning, never a failure of the listing.
    static func store(_ faces: [FontFace], databasePath: String?, io: CommandIO) {
        guard let databasePath, FileManager.default.fileExists(atPath: databasePath) else { return }
        do {
            let library = try LibraryDatabase(path: databasePath, mode: .existing)
            let vanished = try library.fontFaces().map(\.file).filter { !FileManager.default.fileExists(atPath: $0) }
            try library.storeFontFaces(faces.compactMap(record), forgetting: vanished)
        } catch {
            io.warning("cannot store the font catalog: \(CommandFailure(error))", file: databasePath)
        }
    }

    /// Stores `faces` in the PostgreSQL library at `url` as ``store(_:databasePath:io:)`` does in SQLite; a server
    /// that cannot be reached or written is a warning (without the password), never a failure of the listing.
    static func store(_ faces: [FontFace], url: PostgresURL, io: CommandIO) {
        do {
            let library = try PostgresLibrary(url: url)
            let vanished = try library.fontFaces().map(\.file).filter { !FileManager.default.fileExists(atPath: $0) }
            try library.storeFontFaces(faces.compactMap(record), forgetting: vanished)
        } catch {
            io.warning("cannot store the font catalog: \(PostgresBackend.message(error))")
        }
    }
}
