import Foundation

/// The one progress line of a long run, `[done/total] verb... detail, 12.5 files/s`, on standard error when it is
/// a terminal (as rg and mkvmerge do: never into a pipe, so never into `--json` output read from one, and not under
/// `--quiet`): shown once the run has taken `io.progressDelay`, refreshed at most every 0.1 s, and wiped before
/// any other line is printed and at the end, so it never mixes with results.
struct ProgressLine {
    private let io: CommandIO
    private let total: Int
    private let verb: String
    private let visible: Bool
    private let start = Date()
    private var last: Double?
    private var shown = false

    /// A line for a run over `total` files; `verb` names the work ("fixing", "indexing"); `visible` false (under
    /// `--quiet`) shows nothing.
    init(io: CommandIO, total: Int, verb: String, visible: Bool = true) {
        self.io = io
        self.total = total
        self.verb = verb
        self.visible = visible
    }

    /// Shows `done` of the total (and `detail` after it), with the rate so far, when it is time to.
    mutating func show(done: Int, detail: String = "") {
        let elapsed = Date().timeIntervalSince(start)
        guard visible, io.stderrIsTerminal, elapsed > io.progressDelay, done < total,
            last.map({ elapsed - $0 > 0.1 }) ?? true
        else { return }
        let rate = Self.rate(Double(done) / elapsed) + " files/s"
        io.progress(
            "\r\u{1B}[K[\(done)/\(total)] \(verb)... " + (detail.isEmpty ? rate : detail + ", " + rate))
        shown = true
        last = elapsed
    }

    /// `value` with one decimal below 100 (`2.5`, `0.3`), as a whole number above (`1250`).
    static func rate(_ value: Double) -> String {
        value < 100 ? String(format: "%.1f", value) : String(Int(value.rounded()))
    }

    /// Wipes the line if it is shown.
    mutating func wipe() {
        guard shown else { return }
        io.progress("\r\u{1B}[K")
        shown = false
    }
}
