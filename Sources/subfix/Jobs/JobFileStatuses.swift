import SubfixLibrary

// How each command's own statuses are kept in the job log: one switch per command, so a status added to a
// command without a place in the log does not compile.

extension FixFileResult.Status {
    /// The job log's word for it.
    var logged: JobFileStatus {
        switch self {
        case .changed: .changed
        case .unchanged: .unchanged
        case .skipped: .skipped
        case .failed: .failed
        }
    }
}

extension IndexFileResult.Status {
    /// The job log's word for it.
    var logged: JobFileStatus {
        switch self {
        case .new: .new
        case .updated: .updated
        case .unchanged: .unchanged
        case .removed: .removed
        case .failed: .failed
        }
    }
}

extension ReportStatus {
    /// The job log's word for it.
    var logged: JobFileStatus {
        switch self {
        case .needsFixing: .needsFixing
        case .fixed: .fixed
        case .missingGlyphs: .missingGlyphs
        case .failed: .failed
        case .skipped: .skipped
        }
    }
}
