import Foundation
import SubfixLibrary

extension FixRunResult {
    /// The run as the job log keeps it: a dry run is marked with the count `dryRun`.
    var jobRecord: JobRecord {
        JobRecord(
            command: "fix", arguments: Array(commandLine.dropFirst()), startedAt: started, finishedAt: finished,
            status: failed > 0 ? .failed : .succeeded,
            counts: [
                "files": files.count, "changed": changed, "unchanged": unchanged, "failed": failed,
            ].merging(dryRun ? ["dryRun": 1] : [:]) { first, _ in first })
    }

    /// One job-log row per file (or media track) of the run.
    var jobFiles: [JobFileRecord] {
        files.map { file in
            JobFileRecord(
                jobId: 0, path: file.input, output: file.output, status: file.status.logged,
                encoding: file.encoding.isEmpty ? nil : file.encoding,
                counts: ["styles": file.styles, "fnTags": file.fnTags, "fontTags": file.fontTags],
                error: file.error?.detail)
        }
    }
}

/// Records a `subfix fix` run in the library's job log (SQLite or PostgreSQL): one job record and one record per
/// file. With no destination (neither `--db`, `SUBFIX_DB`, `XDG_DATA_HOME` nor `HOME`) nothing is recorded. A
/// library that cannot be opened is a warning (`subfix: warning: <db>: ...`), never a failure of the fix.
func recordJob(
    _ result: FixRunResult, io: CommandIO, destination: LibraryBackend?, pending: PendingLibrary? = nil
) {
    JobLog.record(result.jobRecord, files: result.jobFiles, to: destination, pending: pending, io: io)
}
