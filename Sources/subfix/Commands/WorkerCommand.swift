import Dispatch
import Foundation
import SubCore
import SubfixLibrary
import SubfixPostgres
import Synchronization

/// `subfix worker --db postgresql://…`: claims jobs from the shared queue until it is empty, runs them, and
/// records their results.
enum WorkerCommand {
    static let spec = CommandSpec(
        name: "worker",
        summary: "Run jobs from the shared PostgreSQL work queue until it is empty.",
        options: [
            PostgresBackend.option,
            .value(.jobs, "N", "Jobs run at once, each on its own connection (default 1)."),
            .value(
                .lease, "SECONDS", "How long a claimed job is held before another worker may take it (default 600)."),
            .flag(
                .json,
                "Each failed job also as an error object on standard output, then one object"
                    + " {\"type\":\"worker\",\"done\":…,\"failed\":…} instead of the summary line."),
        ],
        discussion: """
            Jobs are claimed with SELECT … FOR UPDATE SKIP LOCKED, so workers on several machines share one queue.
            A job whose worker dies returns to the queue when its lease expires; a job is failed after 3 claims.
            A worker stops when no job is pending or running: while other workers' jobs run, it waits for them,
            and takes any whose lease expires.
            Jobs are idempotent: a retried index job replaces the file's lines, a retried fix job writes the same
            output again (atomically; an existing backup is never overwritten). A lost connection (a server
            restart) is retried for a minute. A fix job runs the code of 'subfix fix' and is logged in the
            library's job log as a 'subfix fix FILE' run ('subfix jobs'). A job that fails as it is claimed (its
            file is gone, a row this subfix cannot run, abandoned 3 times) is failed in the queue with its cause,
            printed as one error line and counted like any failed job. Exit status: 0 every job done, 1 some job
            or the database failed.
            """,
        run: { arguments, io in try run(arguments, io: io) })

    /// Set by tests only: milliseconds each job waits after it is claimed, so that a test can kill a worker
    /// mid-job.
    static let pauseVariable = "SUBFIX_WORKER_TEST_PAUSE_MS"

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let url = try PostgresBackend.requiredURL(arguments, io: io)
        let jobs = try arguments.integer(.jobs, in: 1...64) ?? 1
        let lease = Double(try arguments.integer(.lease, in: 1...86_400) ?? 600)
        let pause = io.environment[pauseVariable].flatMap { UInt32($0) } ?? 0
        // One connection first, so that a wrong URL or password is one error line, not one per slot.
        guard PostgresBackend.open(url, io: io) != nil else { return .someFailed }
        let worker = (ProcessInfo.processInfo.hostName) + ":" + String(getpid())
        let totals = Mutex((done: 0, failed: 0, broken: false))
        DispatchQueue.concurrentPerform(iterations: jobs) { slot in
            let outcome = runLoop(url: url, worker: worker + "/\(slot)", lease: lease, pauseMs: pause, io: io)
            totals.withLock {
                $0.done += outcome.done
                $0.failed += outcome.failed
                $0.broken = $0.broken || outcome.broken
            }
        }
        let result = totals.withLock { $0 }
        if arguments.has(.json) {
            io.printJSON(.typed("worker", [("done", .int(result.done)), ("failed", .int(result.failed))]))
        } else {
            io.print("worker: \(result.done) done, \(result.failed) failed")
        }
        return result.failed > 0 || result.broken ? .someFailed : .success
    }

    /// Claims and runs jobs on one connection until the queue has none pending or running (a running job whose
    /// worker was killed comes back when its lease expires, and this worker takes it); reconnects when the server
    /// goes away.
    /// Every failed job, one that failed when it was claimed included, is printed as one error line and counted.
    static func runLoop(
        url: PostgresURL, worker: String, lease: Double, pauseMs: UInt32, io: CommandIO
    ) -> (done: Int, failed: Int, broken: Bool) {
        var done = 0
        var failed = 0
        var library: PostgresLibrary?
        var held: PostgresQueue.Job?
        var reconnects = 0
        while true {
            do {
                let current: PostgresLibrary
                if let library {
                    current = library
                } else {
                    current = try PostgresLibrary(url: url)
                    library = current
                }
                try current.prepareDialogueIndex(foldsChinese: current.foldsChinese() ?? false)
                let queue = PostgresQueue(connection: current.connection)
                // After a lost connection, the job this worker holds is run again (its claim is still valid
                // until the lease expires; jobs are idempotent).
                let job: PostgresQueue.Job
                if let held {
                    job = held
                } else {
                    switch try queue.claim(worker: worker, lease: lease) {
                    case nil:
                        // Jobs still running may come back (their worker was killed): wait for them to finish or
                        // for the first lease to expire, looking again at least every second.
                        guard let expiry = try queue.nextLeaseExpiry() else { return (done, failed, false) }
                        usleep(UInt32(min(1, max(0.05, expiry)) * 1_000_000))
                        continue
                    case .failed(let refused, let cause):
                        io.error(cause, file: refused.path)
                        failed += 1
                        continue
                    case .run(let claimed):
                        job = claimed
                    }
                }
                held = job
                reconnects = 0
                let keeper = LeaseKeeper(job: job, url: url, lease: lease)
                defer { keeper.stop() }
                if pauseMs > 0 { usleep(pauseMs * 1000) }
                let (error, result) = try perform(job, library: current, io: io)
                let finished = try queue.finish(job, failed: error != nil, result: result, error: error)
                held = nil
                if let error { io.error(error, file: job.path) }
                if finished {
                    if error == nil { done += 1 } else { failed += 1 }
                } else {
                    io.warning("the job's lease expired before it finished; another worker has it", file: job.path)
                }
            } catch let error as PostgresError where error.isConnectionLost && reconnects < 60 {
                reconnects += 1
                library = nil
                usleep(1_000_000)
            } catch {
                io.error(PostgresBackend.message(error))
                return (done, failed, true)
            }
        }
    }

    /// Runs one job: (the failure's cause, the result to record). A job whose file is gone fails at once. A lost
    /// connection is thrown, so that the job is run again on a new one.
    static func perform(_ job: PostgresQueue.Job, library: PostgresLibrary, io: CommandIO) throws -> (String?, String?)
    {
        guard FixFileSystem.exists(job.path) else { return ("no such file or folder", nil) }
        switch job.kind {
        case .index:
            let started = Date()
            let result = try index(job, library: library)
            // Logged as `subfix index PATH` logs on either backend: the run and its file, failed or not.
            let record = JobRecord(
                command: "index", arguments: [job.path], startedAt: started, finishedAt: Date(),
                status: result.status == .failed ? .failed : .succeeded,
                counts: Dictionary(uniqueKeysWithValues: IndexCommand.summaryCounts([result])))
            do {
                try library.record(job: record, files: IndexCommand.jobFiles([result]))
            } catch let error as PostgresError where error.isConnectionLost {
                throw error
            } catch {
                io.warning("cannot record the job: \(PostgresBackend.message(error))", file: job.path)
            }
            if let error = result.error { return (error.detail, nil) }
            return (nil, "\(result.lines) lines")
        case .fix:
            let outcome = fix(job, environment: io.environment)
            if let run = outcome.run {
                do {
                    try library.record(job: run.jobRecord, files: run.jobFiles)
                } catch let error as PostgresError where error.isConnectionLost {
                    throw error
                } catch {
                    io.warning("cannot record the job: \(PostgresBackend.message(error))", file: job.path)
                }
            }
            return (outcome.error, outcome.result)
        }
    }

    /// Reads and stores an index job's file, as `subfix index PATH` does for one file. Only a lost connection is
    /// thrown (the job runs again on a new one); every other failure is the result's.
    static func index(_ job: PostgresQueue.Job, library: PostgresLibrary) throws -> IndexFileResult {
        var result = IndexFileResult(file: job.path, status: .new)
        let (inputs, _, failures) = IndexInputs.collect([job.path])
        if let failure = failures.first {
            result.fail(CommandFailure(file: job.path, cause: failure.1))
            return result
        }
        guard let input = inputs.first else {
            result.fail(CommandFailure(file: job.path, cause: "not a subtitle or media file"))
            return result
        }
        let file: IndexedFile
        do throws(CommandFailure) {
            file = try input.read().file
        } catch {
            result.fail(error)
            return result
        }
        do {
            if try library.store(file) { result.status = .updated }
        } catch let error as PostgresError where error.isConnectionLost {
            throw error
        } catch {
            result.fail(CommandFailure(file: job.path, cause: "cannot store: \(PostgresBackend.message(error))"))
            return result
        }
        result.sources = file.sources.count
        result.lines = file.lineCount
        return result
    }

    /// What a fix job did: the run `FixCommand.fix` returned (nil when it could not start), the failure's causes
    /// and the file's report lines (a media file gives one per track).
    struct FixOutcome {
        var run: FixRunResult?
        var error: String?
        var result: String?
    }

    /// Runs a fix job as `subfix fix OPTIONS -- PATH` would, through `FixCommand.fix` in this process, and takes
    /// its result value: the report lines and causes come from the `FixRunResult`, not from printed text. The
    /// run's own output is discarded, and it logs nowhere: the worker records it in the PostgreSQL job log.
    static func fix(_ job: PostgresQueue.Job, environment: Environment) -> FixOutcome {
        let (io, _) = CommandIO.capturing(environment: environment)
        let run: FixRunResult
        do {
            let arguments = try parse(tokenize(job.options + ["--", job.path]), for: FixCommand.spec)
            run = try FixCommand.fix(arguments, io: io, log: nil)
        } catch let error as UsageError {
            return FixOutcome(error: error.message)
        } catch {
            // `file: cause`: the job names its file already; another file is named in the cause.
            let failure = CommandFailure(error, file: job.path)
            let cause = failure.file == job.path || failure.file == nil ? failure.detail : failure.description
            return FixOutcome(error: cause)
        }
        let causes = run.files.compactMap { $0.error?.detail }
        let reported = run.files.map(\.line)
        return FixOutcome(
            run: run, error: run.failed == 0 ? nil : causes.isEmpty ? "fix failed" : causes.joined(separator: "; "),
            result: reported.isEmpty ? nil : reported.joined(separator: "\n"))
    }
}
