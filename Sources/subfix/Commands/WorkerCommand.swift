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
        ],
        discussion: """
            Jobs are claimed with SELECT … FOR UPDATE SKIP LOCKED, so workers on several machines share one queue.
            A job whose worker dies returns to the queue when its lease expires; a job is failed after 3 claims.
            Jobs are idempotent: a retried index job replaces the file's lines, a retried fix job writes the same
            output again (atomically; an existing backup is never overwritten). A lost connection (a server
            restart) is retried for a minute. Exit status: 0 every job done, 1 some job or the database failed.
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
        io.print("worker: \(result.done) done, \(result.failed) failed")
        return result.failed > 0 || result.broken ? .someFailed : .success
    }

    /// Claims and runs jobs on one connection until the queue has none; reconnects when the server goes away.
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
                guard let job = try held ?? queue.claim(worker: worker, lease: lease) else {
                    return (done, failed, false)
                }
                held = job
                reconnects = 0
                let keeper = LeaseKeeper(job: job, url: url, lease: lease)
                defer { keeper.stop() }
                if pauseMs > 0 { usleep(pauseMs * 1000) }
                let (error, result) = try perform(job, library: current)
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

    /// Runs one job: (the failure's cause, the result to record). A lost connection is thrown, so that the job
    /// is run again on a new one.
    static func perform(_ job: PostgresQueue.Job, library: PostgresLibrary) throws -> (String?, String?) {
        switch job.kind {
        case .index:
            let (inputs, _, failures) = IndexInputs.collect([job.path])
            if let failure = failures.first { return (failure.1, nil) }
            guard let input = inputs.first else { return ("not a subtitle or media file", nil) }
            let file: IndexedFile
            do throws(CommandFailure) {
                file = try IndexReader.read(input).file
            } catch {
                return (error.detail, nil)
            }
            do {
                try library.store(file)
            } catch let error as PostgresError where error.isConnectionLost {
                throw error
            } catch {
                return ("cannot store: \(PostgresBackend.message(error))", nil)
            }
            return (nil, "\(file.lineCount) lines")
        case .fix:
            return fix(job)
        }
    }

    /// Runs a fix job as `subfix fix OPTIONS -- PATH` in this process: (the failure's causes, the file's report
    /// lines). No SQLite job log is written on the worker's machine (the queue keeps the record): the command
    /// sees an environment without `HOME`, `XDG_DATA_HOME` and `SUBFIX_DB`.
    static func fix(_ job: PostgresQueue.Job) -> (String?, String?) {
        let (io, output) = CommandIO.capturing()
        let status = SubfixCLI.run([FixCommand.spec.name] + job.options + ["--", job.path], io: io)
        // The report: every unindented line but the summary (a media file gives one line per track).
        let reported = output.stdout.split(separator: "\n").dropLast().filter { !$0.hasPrefix(" ") }
        let prefix = "subfix: error: "
        // `file: cause` or `file:line:column: cause`: the job names the file already.
        let ownFile = MessageText.escaped(job.path) + ":"
        let causes = output.stderr.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { line in
            let cause = line.dropFirst(prefix.count)
            guard cause.hasPrefix(ownFile) else { return String(cause) }
            let rest = cause.dropFirst(ownFile.count)
            return String(rest.first == " " ? rest.dropFirst() : rest)
        }
        let result = reported.isEmpty ? nil : reported.joined(separator: "\n")
        guard status == .success else {
            return (
                causes.isEmpty ? "fix failed with exit status \(status.rawValue)" : causes.joined(separator: "; "),
                result
            )
        }
        return (nil, result)
    }
}
