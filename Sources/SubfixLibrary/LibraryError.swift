import Foundation
import SubCore
import SubDB

/// Why the library database cannot be used, in words a user can act on.
public enum LibraryError: Equatable, FileError {
    /// No database file at the path.
    case missing(path: String)
    /// The database has no dialogue index yet.
    case noDialogueIndex(path: String)
    /// The dialogue index was built with the other folding choice.
    case foldingMismatch(path: String, indexFolds: Bool)
    /// The search query cannot run.
    case query(DialogueQueryError)
    /// The database was written by a newer subfix.
    case newerSchema(path: String)
    /// The database's schema is older than this subfix's, and it was opened for reading only.
    case olderSchema(path: String)
    /// A write was asked of a library opened for reading only.
    case readOnly(path: String)
    /// The path names a folder, not a database file.
    case isFolder(path: String)
    /// The library's folder could not be made (`cause` is the system's reason).
    case cannotCreateFolder(path: String, folder: String, cause: String)

    /// The library database; nil for a query that cannot run.
    public var file: String? {
        switch self {
        case .missing(let path), .noDialogueIndex(let path), .foldingMismatch(let path, _), .newerSchema(let path),
            .olderSchema(let path), .readOnly(let path), .isFolder(let path), .cannotCreateFolder(let path, _, _):
            return path
        case .query:
            return nil
        }
    }

    public var cause: String {
        switch self {
        case .missing:
            return "no library database (build one with `subfix index PATH...`)"
        case .noDialogueIndex:
            return "no dialogue index yet (build one with `subfix index PATH...`)"
        case .foldingMismatch(let path, let indexFolds):
            let built = indexFolds ? "with --fold-chinese" : "without --fold-chinese"
            let asked = indexFolds ? "without it" : "with it"
            return "the dialogue index was built \(built) and cannot be updated \(asked); "
                + "rebuild it: delete \(path) and run `subfix index` again"
        case .query(let error):
            return "query: \(error)"
        case .newerSchema:
            return "written by a newer version of subfix"
        case .olderSchema:
            return "the library was written by an older subfix (run `subfix index` to update it)"
        case .readOnly:
            return "opened for reading only"
        case .isFolder:
            return "a folder, not a library file (name a file, such as FOLDER/library.sqlite)"
        case .cannotCreateFolder(_, let folder, let cause):
            return "cannot create its folder \(folder): \(cause)"
        }
    }
}
