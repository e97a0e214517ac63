import Foundation
import SubDB

extension LibraryDatabase {
    /// Records a finished job and its files in one transaction; returns the job's id.
    @discardableResult
    public func record(job: JobRecord, files: [JobFileRecord]) throws -> Int64 {
        try pool.write { db in
            var job = job
            try job.insert(db)
            guard let jobID = job.id else { throw DatabaseError(message: "job was not inserted") }
            for var file in files {
                file.id = nil
                file.jobId = jobID
                try file.insert(db)
            }
            return jobID
        }
    }

    /// The most recent jobs, newest first.
    public func recentJobs(limit: Int) throws -> [JobRecord] {
        try reader.read { db in
            try JobRecord.fetchAll(
                db, sql: "SELECT * FROM job ORDER BY started_at DESC, id DESC LIMIT ?", arguments: [max(0, limit)])
        }
    }

    /// The files of a job, in the order they were recorded.
    public func files(ofJob id: Int64) throws -> [JobFileRecord] {
        try reader.read { db in
            try JobFileRecord.fetchAll(db, sql: "SELECT * FROM job_file WHERE job_id = ? ORDER BY id", arguments: [id])
        }
    }

    // MARK: Fonts

    /// Replaces every face recorded for `file` with `faces`, in one transaction.
    public func replaceFontFaces(inFile file: String, with faces: [FontFaceRecord]) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM font_face WHERE file = ?", arguments: [file])
            for var face in faces {
                face.id = nil
                face.file = file
                try face.insert(db, onConflict: .replace)
            }
        }
    }

    /// Stores a font catalog: the faces of each file replace what was recorded for that file, and the files in
    /// `vanished` are forgotten, all in one transaction.
    public func storeFontFaces(_ faces: [FontFaceRecord], forgetting vanished: [String] = []) throws {
        try pool.write { db in
            for file in Set(faces.map(\.file)).union(vanished) {
                try db.execute(sql: "DELETE FROM font_face WHERE file = ?", arguments: [file])
            }
            for var face in faces {
                face.id = nil
                try face.insert(db, onConflict: .replace)
            }
        }
    }

    /// Every face in the catalog, by file and face index.
    public func fontFaces() throws -> [FontFaceRecord] {
        try reader.read { db in
            try FontFaceRecord.fetchAll(db, sql: "SELECT * FROM font_face ORDER BY file, face_index")
        }
    }
}
