import Dispatch
import Foundation
import Synchronization

/// The one way a command works through many inputs: `jobs` threads take the inputs in order, and each result is
/// handed to `deliver` in input order as soon as it and all before it are ready (so output never interleaves and
/// reads as a serial run would). A result can wait for later news (`isReady` false) until `update` changes it.
/// A progress line, `[done/total] verb...`, goes to a terminal's standard error once the run has taken
/// `io.progressDelay`, refreshed at most every 0.1 s, and is wiped before any line is printed.
final class OrderedWork<Output: Sendable>: Sendable {
    private struct State {
        var next = 0
        var delivered = 0
        var done = 0
        var outputs: [Output?]
        /// Changes for results not stored yet, applied when they are.
        var early: [Int: [@Sendable (inout Output) -> Void]] = [:]
        var progress: ProgressLine
    }

    private let count: Int
    private let io: CommandIO
    private let showsProgress: Bool
    /// What the progress line says beyond the count (`12.3 of 300.0 MB`) and its rate (`4.1 MB/s`), asked on
    /// every refresh; nil for the count and files per second only.
    private let detail: (@Sendable () -> (text: String, rate: String))?
    private let isReady: @Sendable (Output) -> Bool
    private let deliver: @Sendable (Output) -> Void
    private let state: Mutex<State>

    /// A run over `count` inputs; `verb` names the work in the progress line ("fixing", "indexing"), which
    /// `showsProgress` false (`--quiet`) leaves out.
    init(
        count: Int, io: CommandIO, verb: String, showsProgress: Bool = true,
        detail: (@Sendable () -> (text: String, rate: String))? = nil,
        isReady: @escaping @Sendable (Output) -> Bool = { _ in true }, deliver: @escaping @Sendable (Output) -> Void
    ) {
        self.count = count
        self.io = io
        self.showsProgress = showsProgress
        self.detail = detail
        self.isReady = isReady
        self.deliver = deliver
        state = Mutex(
            State(
                outputs: Array(repeating: nil, count: count),
                progress: ProgressLine(io: io, total: count, verb: verb, visible: showsProgress)))
    }

    /// Runs `work` on every input index on up to `jobs` threads; returns when all are done (the last results
    /// may still wait for `update`).
    func run(jobs: Int, _ work: @Sendable (Int) -> Output) {
        // With a detail (the bytes of a remux), the line is refreshed while a long file runs, not only as files
        // end: a timer on a terminal, stopped before the run returns.
        var ticker: (any DispatchSourceTimer)?
        if detail != nil, showsProgress, io.stderrIsTerminal {
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + 0.2, repeating: 0.2)
            timer.setEventHandler { [self] in state.withLock { showProgress(&$0) } }
            timer.resume()
            ticker = timer
        }
        defer { ticker?.cancel() }
        let workers = max(1, min(jobs, count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = claim() {
                let output = work(index)
                state.withLock { state in
                    var output = output
                    for change in state.early.removeValue(forKey: index) ?? [] { change(&output) }
                    state.outputs[index] = output
                    state.done += 1
                    deliverReady(&state)
                    showProgress(&state)
                }
            }
        }
    }

    /// Changes the results at `indices` (now or, for one not stored yet, when it is), then delivers what is
    /// ready.
    func update(_ indices: [Int], _ change: @escaping @Sendable (Int, inout Output) -> Void) {
        state.withLock { state in
            for index in indices {
                if var output = state.outputs[index] {
                    change(index, &output)
                    state.outputs[index] = output
                } else {
                    state.early[index, default: []].append { change(index, &$0) }
                }
            }
            deliverReady(&state)
        }
    }

    /// Delivers whatever is left, ready or not, wipes the progress line, and returns every result in order.
    func finish() -> [Output] {
        state.withLock { state in
            state.progress.wipe()
            while state.delivered < count {
                if let output = state.outputs[state.delivered] { deliver(output) }
                state.delivered += 1
            }
            return state.outputs.compactMap { $0 }
        }
    }

    private func showProgress(_ state: inout State) {
        if let (text, rate) = detail?() {
            state.progress.show(done: state.done, detail: text, rate: rate)
        } else {
            state.progress.show(done: state.done)
        }
    }

    private func claim() -> Int? {
        state.withLock { state in
            guard state.next < count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    private func deliverReady(_ state: inout State) {
        while state.delivered < count, let output = state.outputs[state.delivered], isReady(output) {
            state.progress.wipe()
            deliver(output)
            state.delivered += 1
        }
    }
}

extension OrderedWork {
    /// `work` over `0..<count` on up to `jobs` threads, the outputs returned in index order: the same ordered
    /// parallel map without a progress line or delivery, for the parts of one input (a file's tracks) or a
    /// batch that is stored as a whole.
    static func map(count: Int, jobs: Int, _ work: @Sendable (Int) -> Output) -> [Output] {
        let outputs = Mutex([Output?](repeating: nil, count: count))
        let next = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, count))) { _ in
            while let index = next.withLock({ value -> Int? in
                guard value < count else { return nil }
                defer { value += 1 }
                return value
            }) {
                let output = work(index)
                outputs.withLock { $0[index] = output }
            }
        }
        return outputs.withLock { $0.compactMap { $0 } }
    }
}
