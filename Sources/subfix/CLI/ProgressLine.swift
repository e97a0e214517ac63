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

    /// Shows `done` of the total (and `detail` after it), with `rate` (else the files per second so far), when it
    /// is time to.
    mutating func show(done: Int, detail: String = "", rate: String? = nil) {
        let elapsed = Date().timeIntervalSince(start)
        guard visible, io.stderrIsTerminal, elapsed > io.progressDelay, done < total,
            last.map({ elapsed - $0 > 0.1 }) ?? true
        else { return }
        let rate = rate ?? (Self.rate(Double(done) / elapsed) + " files/s")
        io.progress(
            "\r\u{1B}[K[\(done)/\(total)] \(verb)... " + (detail.isEmpty ? rate : detail + ", " + rate))
        shown = true
        last = elapsed
    }

    /// `value` with one decimal below 100 (`2.5`, `0.3`), as a whole number above (`1250`).
    static func rate(_ value: Double) -> String {
        value < 100 ? String(format: "%.1f", value) : String(Int(value.rounded()))
    }

    /// The detail and rate of a run that reads media files (a remux): `12.3 of 300.0 MB` (what was read is at most
    /// `total`: a file's index may be read twice) and `4.1 MB/s`, in kB, MB or GB by the size of the total and of
    /// the rate; `...` for the rate before the first read.
    static func bytes(read: Int64, of total: Int64, throughput: Double?) -> (text: String, rate: String) {
        let (scale, unit) = units(Double(total))
        let text = "\(rate(Double(min(read, total)) / scale)) of \(rate(Double(total) / scale)) \(unit)"
        guard let throughput else { return (text, "... \(unit)/s") }
        let (rateScale, rateUnit) = units(throughput)
        return (text, rate(throughput / rateScale) + " \(rateUnit)/s")
    }

    /// The decimal unit `bytes` reads best in: its divisor and name.
    private static func units(_ bytes: Double) -> (Double, String) {
        bytes >= 1e9 ? (1e9, "GB") : bytes >= 1e6 ? (1e6, "MB") : (1e3, "kB")
    }

    /// Wipes the line if it is shown.
    mutating func wipe() {
        guard shown else { return }
        io.progress("\r\u{1B}[K")
        shown = false
    }
}
