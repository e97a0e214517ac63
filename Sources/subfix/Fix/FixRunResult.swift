import Foundation

/// What `subfix fix` did to one file.
struct FixFileResult: Sendable, Equatable {
    /// How the file came out.
    enum Status: String, Sendable {
        /// The output differs from the input (fonts rewritten or encoding converted).
        case changed
        /// Nothing to do: the output would be byte-identical to the input.
        case unchanged
        /// The file could not be read, decoded, parsed or written; nothing was written for it.
        case failed
    }

    /// The input path as found (relative to the argument given).
    var input: String
    /// Where the result went; nil for `--dry-run` and failures before an output was chosen.
    var output: String?
    var status: Status
    /// `UTF-8`, or the conversion done, such as `GB18030 -> UTF-8`; empty when decoding failed.
    var encoding: String = ""
    var styles = 0
    var fnTags = 0
    var fontTags = 0
    var unknownFonts: [String] = []
    /// The cause of a failure.
    var error: String?
    /// The unified diff, when asked for and the file changed.
    var diff: String?

    /// The `--json` object of this file.
    var json: JSON {
        .object([
            ("input", .string(input)), ("output", .optional(output)), ("status", .string(status.rawValue)),
            ("encoding", .string(encoding)), ("styles", .int(styles)), ("fnTags", .int(fnTags)),
            ("fontTags", .int(fontTags)), ("unknownFonts", .array(unknownFonts.map(JSON.string))),
            ("error", .optional(error)),
        ])
    }

    /// The one line printed for this file without `--json`.
    var line: String {
        let padded = status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
        switch status {
        case .failed:
            return "\(padded) \(input)"
        case .changed, .unchanged:
            var text = "\(padded) \(input)"
            if let output, output != input { text += " -> \(output)" }
            text += " (styles \(styles), \\fn \(fnTags), font tags \(fontTags); \(encoding))"
            if !unknownFonts.isEmpty { text += "; left alone: " + unknownFonts.joined(separator: ", ") }
            return text
        }
    }
}

/// A whole `subfix fix` run: the command line, when it ran, and each file's result, ready for the job log.
struct FixRunResult: Sendable {
    /// The arguments after `subfix`.
    var commandLine: [String]
    var started: Date
    var finished: Date
    var files: [FixFileResult]

    var changed: Int { files.count { $0.status == .changed } }
    var unchanged: Int { files.count { $0.status == .unchanged } }
    var failed: Int { files.count { $0.status == .failed } }
    var seconds: Double { finished.timeIntervalSince(started) }

    /// The `--json` summary object.
    var summaryJSON: JSON {
        .object([
            (
                "summary",
                .object([
                    ("files", .int(files.count)), ("changed", .int(changed)), ("unchanged", .int(unchanged)),
                    ("failed", .int(failed)), ("seconds", .double((seconds * 1000).rounded() / 1000)),
                ])
            )
        ])
    }

    /// The summary line printed without `--json`.
    var summaryLine: String {
        "\(files.count) file\(files.count == 1 ? "" : "s"): \(changed) changed, \(unchanged) unchanged, \(failed) failed"
    }
}
