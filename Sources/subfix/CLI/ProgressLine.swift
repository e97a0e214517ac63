import Foundation

/// The one progress line of a long run, `[done/total] verb... detail`, on standard error when it is a terminal:
/// shown once the run has taken `io.progressDelay`, refreshed at most every 0.1 s, and wiped before any other
/// line is printed and at the end, so it never mixes with results.
struct ProgressLine {
    private let io: CommandIO
    private let total: Int
    private let verb: String
    private let start = Date()
    private var last: Double?
    private var shown = false

    /// A line for a run over `total` items; `verb` names the work ("fixing", "indexing").
    init(io: CommandIO, total: Int, verb: String) {
        self.io = io
        self.total = total
        self.verb = verb
    }

    /// Shows `done` of the total (and `detail` after it) when it is time to.
    mutating func show(done: Int, detail: String = "") {
        let elapsed = Date().timeIntervalSince(start)
        guard io.stderrIsTerminal, elapsed > io.progressDelay, done < total,
            last.map({ elapsed - $0 > 0.1 }) ?? true
        else { return }
        io.progress("\r\u{1B}[K[\(done)/\(total)] \(verb)..." + (detail.isEmpty ? "" : " " + detail))
        shown = true
        last = elapsed
    }

    /// Wipes the line if it is shown.
    mutating func wipe() {
        guard shown else { return }
        io.progress("\r\u{1B}[K")
        shown = false
    }
}
