import Foundation
import SubfixLibrary

/// The job log on PostgreSQL: the same `JobRecord` and `JobFileRecord` rows as the SQLite library's `job` and
/// `job_file` tables, the arguments and counts stored as the same JSON text, read back equal.
extension PostgresLibrary {
    /// The most `job_file` rows inserted by one statement (8 parameters each, below PostgreSQL's 65,535).
    static let jobFilesPerStatement = 1000

    /// Records a finished job and its files in one transaction; returns the job's id. A URL's password in an
    /// argument or an error is replaced by `***`; text PostgreSQL cannot hold (NUL) is dropped.
    @discardableResult
    public func record(job: JobRecord, files: [JobFileRecord] = []) throws -> Int64 {
        let arguments = try Self.json(job.arguments.map { PostgresURL.redacted(Self.storable($0)) })
        let counts = try Self.json(job.counts)
        return try connection.transaction {
            let id = try connection.execute(
                """
                INSERT INTO job (command, arguments, started_at, finished_at, status, counts)
                VALUES ($1, $2, to_timestamp($3::double precision), to_timestamp($4::double precision), $5, $6)
                RETURNING id
                """,
                [
                    Self.storable(job.command), arguments, String(job.startedAt.timeIntervalSince1970),
                    job.finishedAt.map { String($0.timeIntervalSince1970) }, job.status.rawValue, counts,
                ]
            ).int(0, 0)
            var start = 0
            while start < files.count {
                let chunk = files[start..<min(start + Self.jobFilesPerStatement, files.count)]
                var placeholders: [String] = []
                var parameters: [String?] = []
                for file in chunk {
                    let base = parameters.count
                    placeholders.append(
                        "($\(base + 1)::bigint, " + (2...7).map { "$\(base + $0)" }.joined(separator: ", ") + ")")
                    parameters += [
                        String(id), Self.storable(file.path), file.output.map(Self.storable), file.status.rawValue,
                        file.encoding.map(Self.storable), try Self.json(file.counts),
                        file.error.map { PostgresURL.redactedMessage(Self.storable($0)) },
                    ]
                }
                try connection.execute(
                    "INSERT INTO job_file (job_id, path, output, status, encoding, counts, error) VALUES "
                        + placeholders.joined(separator: ", "), parameters)
                start += Self.jobFilesPerStatement
            }
            return id
        }
    }

    /// The most recent jobs, newest first (as the SQLite library orders them).
    public func recentJobs(limit: Int) throws -> [JobRecord] {
        let result = try connection.execute(
            """
            SELECT id, command, arguments, extract(epoch FROM started_at)::double precision,
                   extract(epoch FROM finished_at)::double precision, status, counts
            FROM job ORDER BY started_at DESC, id DESC LIMIT $1::bigint
            """, [String(max(0, limit))])
        return try (0..<result.count).map { row in
            let id = try result.int(row, 0)
            guard let status = JobStatus(rawValue: result.text(row, 5) ?? "") else {
                throw PostgresError.unexpectedResult("job \(id) has the unknown status '\(result.text(row, 5) ?? "")'")
            }
            return JobRecord(
                id: id, command: result.text(row, 1) ?? "",
                arguments: try Self.decoded([String].self, result.text(row, 2), what: "the arguments of job \(id)"),
                startedAt: try Self.date(result.text(row, 3), what: "the start of job \(id)"),
                finishedAt: try result.text(row, 4).map { try Self.date($0, what: "the end of job \(id)") },
                status: status,
                counts: try Self.decoded([String: Int].self, result.text(row, 6), what: "the counts of job \(id)"))
        }
    }

    /// The files of a job, in the order they were recorded.
    public func files(ofJob id: Int64) throws -> [JobFileRecord] {
        let result = try connection.execute(
            "SELECT id, path, output, status, encoding, counts, error FROM job_file WHERE job_id = $1 ORDER BY id",
            [String(id)])
        return try (0..<result.count).map { row in
            let fileID = try result.int(row, 0)
            guard let status = JobFileStatus(rawValue: result.text(row, 3) ?? "") else {
                throw PostgresError.unexpectedResult(
                    "file \(fileID) of job \(id) has the unknown status '\(result.text(row, 3) ?? "")'")
            }
            return JobFileRecord(
                id: fileID, jobId: id, path: result.text(row, 1) ?? "", output: result.text(row, 2), status: status,
                encoding: result.text(row, 4),
                counts: try Self.decoded([String: Int].self, result.text(row, 5), what: "the counts of file \(fileID)"),
                error: result.text(row, 6))
        }
    }

    /// `value` as compact JSON text with sorted keys, as the SQLite library stores it.
    static func json<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The JSON `text` of a column as `type`; throws `PostgresError.unexpectedResult` naming `what` otherwise.
    static func decoded<Value: Decodable>(_ type: Value.Type, _ text: String?, what: String) throws(PostgresError)
        -> Value
    {
        guard let text, let value = try? JSONDecoder().decode(type, from: Data(text.utf8)) else {
            throw .unexpectedResult("\(what) is not the JSON subfix writes")
        }
        return value
    }

    /// Seconds since 1970 as PostgreSQL prints them, as a date.
    static func date(_ text: String?, what: String) throws(PostgresError) -> Date {
        guard let seconds = text.flatMap(Double.init) else { throw .unexpectedResult("\(what) is not a time") }
        return Date(timeIntervalSince1970: seconds)
    }
}
