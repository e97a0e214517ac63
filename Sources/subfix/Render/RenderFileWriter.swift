import Foundation
import SubCore

/// Writes render's PNGs and contact sheets through SubCore's `AtomicFile` (new files get the umask's mode), with
/// failures naming the file in the system's words.
enum RenderFileWriter {
    /// Writes `data` to `path` atomically. Throws `CommandFailure` naming the file.
    static func write(_ data: Data, to path: String) throws {
        do {
            try AtomicFile.write([UInt8](data), to: path, mode: FileCreationMode.newFile)
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
