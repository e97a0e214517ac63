import Foundation
import SubCore

/// What `subfix fix` did to one file, or to one text track of a media file.
struct FixFileResult: Sendable, Equatable {
    /// How the file came out.
    enum Status: String, Sendable {
        /// The output differs from the input (fonts rewritten or encoding converted).
        case changed
        /// Nothing to do: the output would be byte-identical to the input.
        case unchanged
        /// Nothing to fix, and that is not an error: a media file without text tracks, a bitmap track.
        case skipped
        /// The file could not be read, decoded, parsed or written; nothing was written for it.
        case failed
    }

    /// The input path as found (relative to the argument given); for a track, the media file.
    var input: String
    /// Where the result went; nil for `--dry-run` and failures before an output was chosen.
    var output: String?
    var status: Status
    /// Whether the input is a media file (its JSON objects then carry the track's indexes and a note).
    var fromMedia = false
    /// For a text track of a media file, the track (the sidecar's report names it).
    var track: MediaStream?
    /// `UTF-8`, or the conversion done, such as `GB18030 -> UTF-8`; empty when decoding failed.
    var encoding: String = ""
    var styles = 0
    var fnTags = 0
    var fontTags = 0
    var unknownFonts: [String] = []
    /// With `--policy missing`: each font left alone and why (nil with the other policies).
    var keptFonts: [MissingFontPolicy.KeptFont]?
    /// The cause of a failure.
    var error: String?
    /// Why the file or track was skipped.
    var note: String?
    /// The unified diff, when asked for and the file changed.
    var diff: String?

    /// Marks the result failed with `failure`'s cause, dropping any output and diff.
    mutating func fail(_ failure: FixFailure) {
        status = .failed
        output = nil
        error = failure.cause
        diff = nil
    }

    /// The rewrite counts as JSON members, shared with `subfix extract --fix`.
    var countsJSON: [(String, JSON)] {
        [
            ("styles", .int(styles)), ("fnTags", .int(fnTags)), ("fontTags", .int(fontTags)),
            ("unknownFonts", .array(unknownFonts.map(JSON.string))),
        ]
            + (keptFonts.map { kept in
                [
                    (
                        "keptFonts",
                        JSON.array(kept.map { .object([("font", .string($0.font)), ("reason", .string($0.reason))]) })
                    )
                ]
            } ?? [])
    }

    /// "; kept: Arial (resolves to DejaVu Sans, covers all 12 characters shown)" per kept font with
    /// `--policy missing`, else "; left alone: A, B" (empty when nothing was left alone).
    var leftAloneText: String {
        if let keptFonts {
            return keptFonts.map { "; kept: \($0.font) (\($0.reason))" }.joined()
        }
        return unknownFonts.isEmpty ? "" : "; left alone: " + unknownFonts.joined(separator: ", ")
    }

    /// "styles 2, \\fn 1, font tags 0", shared with `subfix extract --fix`.
    var countsText: String { "styles \(styles), \\fn \(fnTags), font tags \(fontTags)" }

    /// The `--json` object of this file.
    var json: JSON {
        var members: [(String, JSON)] = [("input", .string(input))]
        if fromMedia {
            members += [
                ("track", track?.playerIndex.map(JSON.int) ?? .null),
                ("subtitleIndex", track?.subtitleIndex.map(JSON.int) ?? .null),
                ("stream", track.map { .int($0.index) } ?? .null),
            ]
        }
        members += [
            ("output", .optional(output)), ("status", .string(status.rawValue)), ("encoding", .string(encoding)),
        ]
        members += countsJSON + [("error", .optional(error))]
        if fromMedia { members.append(("note", .optional(note))) }
        return .object(members)
    }

    /// The input as the report line names it: the path, and for a media track which track it is.
    var inputLabel: String {
        guard let track else { return input }
        let details = [track.codec, track.language].compactMap { $0 }.joined(separator: ", ")
        return "\(input) track \(track.playerIndex ?? 0) = 0:s:\(track.subtitleIndex ?? 0) = stream \(track.index) "
            + "(\(details))"
    }

    /// The one line printed for this file without `--json`, with control characters and raw name bytes escaped
    /// (`MessageText`).
    var line: String { MessageText.escaped(unescapedLine) }

    private var unescapedLine: String {
        let padded = status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
        switch status {
        case .failed:
            return "\(padded) \(inputLabel)"
        case .skipped:
            return "\(padded) \(input)" + (note.map { ": " + $0 } ?? "")
        case .changed, .unchanged:
            var text = "\(padded) \(inputLabel)"
            if let output, output != input { text += " -> \(output)" }
            text += " (\(countsText); \(encoding))"
            text += leftAloneText
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
    var skipped: Int { files.count { $0.status == .skipped } }
    var seconds: Double { finished.timeIntervalSince(started) }

    /// The `--json` summary object.
    var summaryJSON: JSON {
        .object([
            (
                "summary",
                .object([
                    ("files", .int(files.count)), ("changed", .int(changed)), ("unchanged", .int(unchanged)),
                    ("failed", .int(failed)), ("skipped", .int(skipped)),
                    ("seconds", .double((seconds * 1000).rounded() / 1000)),
                ])
            )
        ])
    }

    /// The summary line printed without `--json`.
    var summaryLine: String {
        "\(files.count) file\(files.count == 1 ? "" : "s"): \(changed) changed, \(unchanged) unchanged, \(failed) failed"
            + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}
