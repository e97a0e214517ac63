import Foundation
import SubDB
import SubfixLibrary

/// Records a `subfix fix` run in the library database's job log: one job record and one record per file.
/// `databasePath` is `--db`, else the XDG default; with neither `--db`, `XDG_DATA_HOME` nor `HOME` nothing is
/// recorded. A database that cannot be opened is a warning (`subfix: warning: <db>: ...`), never a failure of
/// the fix.
func recordJob(_ result: FixRunResult, io: CommandIO, databasePath: String?, pending: PendingLibrary? = nil) {
    let job = JobRecord(
        command: "fix", arguments: Array(result.commandLine.dropFirst()), startedAt: result.started,
        finishedAt: result.finished, status: result.failed > 0 ? .failed : .succeeded,
        counts: [
            "files": result.files.count, "changed": result.changed, "unchanged": result.unchanged,
            "failed": result.failed,
        ].merging(result.dryRun ? ["dryRun": 1] : [:]) { first, _ in first })
    let files = result.files.map { file in
        JobFileRecord(
            jobId: 0, path: file.input, output: file.output, status: file.status.logged,
            encoding: file.encoding.isEmpty ? nil : file.encoding,
            counts: ["styles": file.styles, "fnTags": file.fnTags, "fontTags": file.fontTags],
            error: file.error?.detail)
    }
    JobLog.record(job, files: files, databasePath: databasePath, pending: pending, io: io)
}
