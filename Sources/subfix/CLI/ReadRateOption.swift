import SubCore

/// `--max-read-rate RATE`, shared by `subfix extract` and `subfix fix`: the option's row and its parsing into
/// the one `ReadBudget` every media file of the run reads under.
enum ReadRateOption {
    static let row = OptionSpec.value(
        .maxReadRate, "RATE",
        "Read media files at no more than RATE bytes per second over the whole run (50M, 1.5G, 512Ki; K, M, G are"
            + " powers of 1000, Ki, Mi, Gi of 1024), to leave a network share's link to its other users.")

    /// The run's budget: limited with the option, nil without it (media files are then read directly).
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> ReadBudget? {
        guard let text = arguments.value(row.key) else { return nil }
        guard let rate = ReadBudget.parseRate(text) else {
            throw .invalidValue(
                option: row.name, value: text, expected: "a rate of at least 1 byte per second, such as 50M or 512Ki")
        }
        return ReadBudget(bytesPerSecond: rate)
    }
}
