import SubCore

/// `--max-read-rate RATE`, shared by `subfix extract` and `subfix fix`: the option's row and its parsing into
/// the one `ReadBudget` every media file of the run reads under.
enum ReadRateOption {
    static let row = OptionSpec.value(
        .maxReadRate, "RATE",
        "Read media files at no more than RATE bytes per second over the whole run (50M, 1.5G, 512Ki; K, M, G are"
            + " powers of 1000, Ki, Mi, Gi of 1024), to leave a network share's link to its other users.")

    /// The run's budget: limited with the option; without it, one that only counts under `--verbose` (for
    /// `report`), else nil (media files are then read directly).
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> ReadBudget? {
        guard let text = arguments.value(row.key) else {
            return arguments.has(.verbose) ? ReadBudget(bytesPerSecond: nil) : nil
        }
        guard let rate = ReadBudget.parseRate(text) else {
            throw .invalidValue(
                option: row.name, value: text, expected: "a rate of at least 1 byte per second, such as 50M or 512Ki")
        }
        return ReadBudget(bytesPerSecond: rate)
    }

    /// The `--verbose` line on what the run read from media files: how much, how fast, and what the limit made
    /// it wait (`media read: 4295.4 MB in 10.69 s, 401.8 MB/s (limit 400.0 MB/s; waited 9.2 s)`); nil when no
    /// media file was read.
    static func report(_ budget: ReadBudget?) -> String? {
        guard let budget, budget.bytesRead > 0 else { return nil }
        func megabytes(_ value: Double) -> String { String(format: "%.1f MB", value / 1e6) }
        let seconds = budget.elapsed
        var line = "media read: \(megabytes(Double(budget.bytesRead))) in \(String(format: "%.2f", seconds)) s"
        if let rate = budget.throughput { line += ", \(megabytes(rate))/s" }
        if let limit = budget.bytesPerSecond {
            let waited = budget.waited / .seconds(1)
            line += " (limit \(megabytes(Double(limit)))/s; waited \(String(format: "%.1f", waited)) s)"
        }
        return line
    }
}
