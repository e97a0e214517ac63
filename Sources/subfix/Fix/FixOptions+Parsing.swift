import Foundation
import SubCore

extension FixDestination {
    /// `--out FOLDER`, `--in-place [--backup-suffix S]` or `--dry-run`: exactly one, checked.
    init(_ arguments: ParsedArguments) throws {
        let modes: [OptionKey] = [.out, .inPlace, .dryRun]
        try arguments.exclusive(modes)
        if let folder = arguments.value(.out) {
            guard folder != "-" else {
                throw UsageError.invalidValue(
                    option: OptionKey.out.name, value: folder,
                    expected: "a folder: fix writes files, not a stream (use --dry-run --diff to see the changes)")
            }
            guard !folder.isEmpty else {
                throw UsageError.invalidValue(option: OptionKey.out.name, value: folder, expected: "a folder")
            }
            self = .folder(folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder)
        } else if arguments.has(.inPlace) {
            let suffix = arguments.value(.backupSuffix) ?? ".orig"
            guard !suffix.isEmpty, !suffix.contains("/") else {
                throw UsageError.invalidValue(
                    option: OptionKey.backupSuffix.name, value: suffix, expected: "a non-empty suffix without '/'")
            }
            self = .inPlace(backupSuffix: suffix)
        } else if arguments.has(.dryRun) {
            self = .dryRun
        } else {
            throw UsageError.missingOneOf(command: "fix", keys: modes)
        }
    }
}

extension FixOptions {
    /// `subfix fix`'s options, parsed once: where the results go, how each file is fixed (the fixer and, with
    /// `--remux`, the embedder of the attached subsets), and how the run reports. Fonts that cannot be read are
    /// reported on `io`.
    init(_ arguments: ParsedArguments, io: CommandIO) throws {
        try arguments.exclusive([.quiet, .verbose])
        let destination = try FixDestination(arguments)
        let keep = try arguments.choice(.encoding, ["utf8", "keep"]) == "keep"
        let hint = try EncodingHintOption.parse(arguments)
        let jobs = try arguments.integer(.jobs, in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let json = arguments.has(.json)
        let remux = arguments.has(.remux)
        try arguments.exclusive([.remux, .naming])
        let naming = try NamingOption.parse(arguments)
        var (fixer, reportsKeptFonts) = try RewriteOptions.fixer(
            arguments, io: io, keepEncoding: keep, encodingHint: hint, embed: arguments.has(.embed) || remux)
        let remuxEmbedder = remux ? fixer.embedder : nil
        if !arguments.has(.embed) { fixer.embedder = nil }
        let explanation =
            arguments.has(.verbose)
            ? FixExplanation(policy: arguments.value(.policy) ?? "text", font: arguments.value(.font) ?? "auto") : nil
        self.init(
            destination: destination, fixer: fixer, diff: arguments.has(.diff) && !json,
            reportsKeptFonts: reportsKeptFonts, remuxEmbedder: remuxEmbedder,
            readBudget: try ReadRateOption.parse(arguments)
                // On a terminal, media reads are counted for the progress line's bytes (a long remux).
                ?? (io.stderrIsTerminal && !arguments.has(.quiet) ? ReadBudget(bytesPerSecond: nil) : nil),
            naming: naming, explanation: explanation)
        self.jobs = jobs
        self.json = json
        self.remux = remux
    }
}
