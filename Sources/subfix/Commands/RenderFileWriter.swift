import Foundation
import SubCore

/// Writes output files the safe way, through `fix`'s one atomic writer: a temporary file in the same folder,
/// fsync, then rename into place, so a failed or interrupted write never leaves a partial file under the final
/// name. New files get the umask's mode; failures carry the path and the system's words, never Foundation's.
enum RenderFileWriter {
    /// Writes `data` to `path` atomically. Throws `CommandFailure` naming the file.
    static func write(_ data: Data, to path: String) throws {
        do {
            try FixFileSystem.writeAtomically([UInt8](data), to: path, mode: FileCreationMode.newFile)
        } catch {
            throw CommandFailure(file: path, cause: error.cause)
        }
    }

    /// Creates `path` (and parents) as a folder when missing.
    static func makeFolder(_ path: String) throws {
        do {
            try FixFileSystem.makeFolders(path)
        } catch {
            throw CommandFailure(file: path, cause: error.cause)
        }
    }
}
