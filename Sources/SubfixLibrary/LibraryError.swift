import Foundation
import SubDB

/// Why the library database cannot be used, in words a user can act on.
public enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
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

    public var description: String {
        switch self {
        case .missing(let path):
            return "\(path): no library database (build one with `subfix index PATH...`)"
        case .noDialogueIndex(let path):
            return "\(path): no dialogue index yet (build one with `subfix index PATH...`)"
        case .foldingMismatch(let path, let indexFolds):
            let built = indexFolds ? "with --fold-chinese" : "without --fold-chinese"
            let asked = indexFolds ? "without it" : "with it"
            return "\(path): the dialogue index was built \(built) and cannot be updated \(asked); "
                + "rebuild it: delete \(path) and run `subfix index` again"
        case .query(let error):
            return "query: \(error)"
        case .newerSchema(let path):
            return "\(path): written by a newer version of subfix"
        case .olderSchema(let path):
            return "\(path): the library was written by an older subfix (run `subfix index` to update it)"
        case .readOnly(let path):
            return "\(path): opened for reading only"
        }
    }
}
