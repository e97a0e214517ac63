import Foundation
import SubCore
import SubfixLibrary
import SubfixPostgres

/// `subfix index PATH... --db postgresql://…`: the same walk, skip rules, output and exit status as the SQLite
/// index, storing each file in its own transaction on the server.
enum PostgresIndexCommand {
    /// Files parsed in parallel and then stored, per round.
    static let filesPerRound = 64

    static func run(_ arguments: ParsedArguments, io: CommandIO, url: PostgresURL) throws -> ExitStatus {
        let started = Date()
        let jobs = try arguments.integer(.jobs, in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let json = arguments.has(.json)
        let hint = try EncodingHintOption.parse(arguments)
        guard let library = PostgresBackend.open(url, io: io) else { return .someFailed }
        let results: [IndexFileResult]
        do {
            try library.prepareDialogueIndex(foldsChinese: arguments.has(.foldChinese))
            results = try index(
                arguments.positionals, library: library, jobs: jobs, prune: arguments.has(.prune), hint: hint)
        } catch {
            io.error(PostgresBackend.message(error))
            return .someFailed
        }
        for result in results {
            if let error = result.error { io.error(error, file: result.file) }
            if let warning = result.warning { io.warning(warning, file: result.file) }
            if json && (!arguments.has(.quiet) || result.status == .failed) { io.printJSON(result.json) }
        }
        let counts = IndexCommand.summaryCounts(results)
        if json {
            io.printJSON(IndexCommand.summaryJSON(counts))
        } else {
            io.print(IndexCommand.summaryLine(counts))
        }
        let failed = results.contains { $0.status == .failed }
        let job = JobRecord(
            command: "index", arguments: arguments.loggedArguments, startedAt: started, finishedAt: Date(),
            status: failed ? .failed : .succeeded, counts: Dictionary(uniqueKeysWithValues: counts))
        do {
            try library.record(job: job, files: IndexCommand.jobFiles(results))
        } catch {
            io.warning("cannot record the job: \(PostgresBackend.message(error))")
        }
        return failed ? .someFailed : .success
    }

    /// Walks `paths`, skips unchanged files, prunes vanished ones, and stores the rest; results in input order.
    static func index(_ paths: [String], library: PostgresLibrary, jobs: Int, prune: Bool, hint: EncodingHint?)
        throws -> [IndexFileResult]
    {
        var plan = IndexPlan(paths, known: try library.indexedFiles(), prune: prune)
        if !plan.vanished.isEmpty { try library.remove(paths: plan.vanished) }
        let (inputs, pending) = (plan.inputs, plan.pending)
        var start = 0
        while start < pending.count {
            let round = Array(pending[start..<min(start + filesPerRound, pending.count)])
            let parsed = read(round.map { inputs[$0] }, jobs: jobs, hint: hint)
            for (position, index) in round.enumerated() {
                switch parsed[position] {
                case .success(let (file, warning)):
                    plan.fileResults[index].warning = warning
                    do {
                        try library.store(file)
                        plan.fileResults[index].sources = file.sources.count
                        plan.fileResults[index].lines = file.lineCount
                    } catch {
                        plan.fileResults[index].fail(
                            CommandFailure(cause: "cannot store: \(PostgresBackend.message(error))"))
                    }
                case .failure(let failure):
                    plan.fileResults[index].fail(failure)
                }
            }
            start += filesPerRound
        }
        return plan.results + plan.fileResults
    }

    /// Parses `inputs` on up to `jobs` threads; results in input order.
    static func read(_ inputs: [IndexInput], jobs: Int, hint: EncodingHint?)
        -> [Result<(IndexedFile, String?), CommandFailure>]
    {
        OrderedWork.map(count: inputs.count, jobs: jobs) { position in
            do throws(CommandFailure) {
                let (file, warning) = try inputs[position].read(hint: hint)
                return .success((file, warning))
            } catch {
                return .failure(error)
            }
        }
    }
}
