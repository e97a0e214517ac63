import Foundation

/// Writes output files the safe way: a temporary file in the same folder, fsync, then rename into place,
/// so a failed or interrupted write never leaves a partial file under the final name.
enum RenderFileWriter {
    /// Writes `data` to `path` atomically. Throws `CommandFailure` naming the file.
    static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CommandFailure(file: path, cause: "cannot create a file in \(folder.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CommandFailure(file: path, cause: "cannot write: \(error.localizedDescription)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let cause = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CommandFailure(file: path, cause: "cannot rename into place: \(cause)")
        }
    }

    /// Creates `path` (and parents) as a folder when missing.
    static func makeFolder(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CommandFailure(file: path, cause: "not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(file: path, cause: "cannot create the folder")
        }
    }
}
