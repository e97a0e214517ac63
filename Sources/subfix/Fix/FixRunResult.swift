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
    /// The encodings read and written, for JSON; nil when decoding failed.
    var detection: Detection?
    var styles = 0
    var fnTags = 0
    var fontTags = 0
    var unknownFonts: [String] = []
    /// With `--policy missing`: each font left alone and why (nil with the other policies).
    var keptFonts: [KeptFont]?
    /// Every font reference decided: rewritten to which face, or kept, and why.
    var references: [FontReference] = []
    /// The fonts embedded with `--embed`.
    var embedded: [EmbeddedFontReport] = []
    /// Missing faces and what drew their text instead (`FontRewrite.degradations`).
    var degradations: [String] = []
    /// Why `--embed` embedded nothing (SRT and WebVTT cannot carry fonts).
    var embedNote: String?
    /// Why the file failed, about `input` (its position, when there is one, leads the cause in the JSON object).
    var error: CommandFailure?
    /// Why the file or track was skipped.
    var note: String?
    /// The unified diff, when asked for and the file changed.
    var diff: String?
    /// With `--verbose`: the policy and target that decided the rewrites (the report then also lists the encoding's
    /// basis and every reference kept).
    var explanation: FixExplanation?
    /// Whether the output waits in the run's `CommitBatch`: the result is final, and printed, once it is placed.
    var awaitsCommit = false

    /// Marks the result failed with `failure`, dropping any output and diff. A failure about another file (an
    /// output, a font) names it in its cause, as the line is about the input.
    mutating func fail(_ failure: CommandFailure) {
        status = .failed
        output = nil
        diff = nil
        if let file = failure.file, file != input {
            error = CommandFailure(file: input, cause: "'\(file)': " + failure.detail)
        } else {
            error = CommandFailure(file: input, position: failure.position, cause: failure.cause)
        }
    }

    /// The rewrite counts, the faces chosen and the fonts embedded as JSON members, shared with
    /// `subfix extract --fix`.
    var countsJSON: [(String, JSON)] {
        var members: [(String, JSON)] = [
            ("styles", .int(styles)), ("fnTags", .int(fnTags)), ("fontTags", .int(fontTags)),
            ("unknownFonts", .array(unknownFonts.map(JSON.string))),
        ]
        if let keptFonts {
            let kept = keptFonts.map { JSON.object([("font", .string($0.font)), ("reason", .string($0.reason))]) }
            members.append(("keptFonts", .array(kept)))
        }
        members.append(("faces", .array(references.filter { $0.replacement != nil }.map(FixFileResult.json))))
        members.append(("embedded", .array(embedded.map(FixFileResult.json))))
        if let embedNote { members.append(("embedNote", .string(embedNote))) }
        return members
    }

    /// One rewritten reference as JSON: kind, style, old and new name, language, why, how many.
    static func json(_ reference: FontReference) -> JSON {
        .object([
            ("kind", .string(reference.kind.rawValue)), ("style", .optional(reference.style)),
            ("font", .string(reference.font)), ("face", .optional(reference.replacement)),
            ("language", .optional(reference.language?.rawValue)), ("reason", .string(reference.reason)),
            ("count", .int(reference.count)),
        ])
    }

    /// One embedded font as JSON.
    static func json(_ font: EmbeddedFontReport) -> JSON {
        .object([
            ("family", .string(font.family)), ("file", .string(font.fileName)), ("source", .string(font.source)),
            ("characters", .int(font.characters)), ("bytes", .int(font.bytes)), ("weight", .int(font.weight)),
            ("note", .optional(font.note)),
        ])
    }

    /// "; kept: Arial (resolves to DejaVu Sans, covers all 12 characters shown)" per kept font with
    /// `--policy missing`, else "; left alone: A, B" (empty when nothing was left alone).
    var leftAloneText: String {
        if let keptFonts {
            return keptFonts.map { "; kept: \($0.font) (\($0.reason))" }.joined()
        }
        return unknownFonts.isEmpty ? "" : "; left alone: " + unknownFonts.joined(separator: ", ")
    }

    /// The lines printed under the report line, indented by two blanks: each face chosen, for which style or
    /// run and why (`  style Default: 微软雅黑 -> Noto Sans CJK JP (draws CJK text; kana in the text)`), then each
    /// font embedded, then why nothing could be embedded.
    var detailLines: [String] {
        var lines = verboseLines
        for reference in references {
            let count = reference.count > 1 ? " (\(reference.count) times)" : ""
            if let replacement = reference.replacement {
                lines.append(
                    "  \(Self.label(reference)): \(reference.font) -> \(replacement)\(count): \(reference.reason)")
            } else if explanation != nil {
                lines.append("  \(Self.label(reference)): \(reference.font) kept\(count): \(reference.reason)")
            }
        }
        for font in embedded {
            let weight = font.weight >= 600 ? " Bold" : ""
            lines.append(
                "  embedded \(font.family)\(weight): \(font.characters) characters, \((font.bytes + 512) / 1024) KB,"
                    + " cut from \(font.source)" + (font.note.map { "; \($0)" } ?? ""))
        }
        if let embedNote { lines.append("  note: " + embedNote) }
        return lines
    }

    /// `style Default`, `\\fn`, `<font face>` or `font-family`: which kind of reference, as the report lines say.
    private static func label(_ reference: FontReference) -> String {
        switch reference.kind {
        case .style: return "style \(reference.style ?? "")"
        case .fnTag: return "\\fn"
        case .fontTag: return "<font face>"
        case .fontFamily: return "font-family"
        }
    }

    /// With `--verbose`, the lines before the references': how the encoding was decided, and the policy and
    /// target (`  encoding: GB18030 -> UTF-8 (read best of every candidate encoding; runner-up Big5)`,
    /// `  policy text, font auto`); the kept references are then listed too.
    private var verboseLines: [String] {
        guard let explanation else { return [] }
        var lines: [String] = []
        if let detection {
            var why = detection.basis.explanation
            if let runnerUp = detection.runnerUp { why += "; runner-up \(runnerUp)" }
            lines.append("  encoding: \(encoding) (\(why))")
        }
        let target =
            explanation.font == "auto" ? "auto (a face for the language of each style's text)" : explanation.font
        lines.append("  policy \(explanation.policy), font \(target)")
        return lines
    }

    /// "styles 2, \\fn 1, font tags 0", shared with `subfix extract --fix`.
    var countsText: String { "styles \(styles), \\fn \(fnTags), font tags \(fontTags)" }

    /// The `--json` object of this file.
    var json: JSON {
        var members: [(String, JSON)] = [("file", .string(input))]
        if fromMedia {
            members += [
                ("track", .optional(track?.playerIndex)), ("subtitleIndex", .optional(track?.subtitleIndex)),
                ("stream", .optional(track?.index)),
            ]
        }
        members += [
            ("output", .optional(output)), ("status", .string(status.rawValue)),
            ("encoding", .optional(detection?.input)), ("runnerUp", .optional(detection?.runnerUp)),
            ("outputEncoding", .optional(detection?.output)),
        ]
        members += countsJSON + [("error", .optional(error?.detail))]
        if fromMedia { members.append(("note", .optional(note))) }
        if let explanation {
            members += [
                ("encodingBasis", .optional(detection?.basis.rawValue)), ("policy", .string(explanation.policy)),
                ("target", .string(explanation.font)),
                ("decisions", .array(references.map(FixFileResult.json))),
            ]
        }
        return .typed("file", members)
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

extension FixFileResult {
    /// The result of fixing `input` into `fixed` (to be written to `output`): the counts, the encodings, the faces
    /// chosen, the fonts embedded and whether anything changed. With `reportsKeptFonts` (`--policy missing`),
    /// each font left alone and why; with `explanation` (`--verbose`), the policy and target that decided.
    init(
        input: String, output: String?, fixed: FixedSubtitle, reportsKeptFonts: Bool,
        explanation: FixExplanation? = nil, fromMedia: Bool = false, track: MediaStream? = nil
    ) {
        self.init(
            input: input, output: output, status: fixed.changed ? .changed : .unchanged, fromMedia: fromMedia,
            track: track)
        let rewrite = fixed.rewrite
        styles = rewrite.styles
        fnTags = rewrite.fnTags
        fontTags = rewrite.fontTags
        unknownFonts = rewrite.unknownFonts
        references = rewrite.references
        degradations = rewrite.degradations
        embedded = fixed.embedded
        embedNote = fixed.embedNote
        if reportsKeptFonts {
            var seen = Set<String>()
            keptFonts = rewrite.references.compactMap { reference in
                guard reference.replacement == nil, seen.insert(reference.font).inserted else { return nil }
                return KeptFont(font: reference.font, reason: reference.reason)
            }
        }
        let source = fixed.decoded.encoding
        let target = fixed.outputEncoding
        encoding = target == source ? target.name : "\(source.name) -> \(target.name)"
        detection = Detection(fixed.decoded, output: target)
        self.explanation = explanation
    }

    /// A failed result for `input` (or for `track` of it).
    static func failed(
        _ input: String, _ failure: CommandFailure, fromMedia: Bool = false, track: MediaStream? = nil
    ) -> FixFileResult {
        var result = FixFileResult(input: input, output: nil, status: .failed, fromMedia: fromMedia, track: track)
        result.fail(failure)
        return result
    }
}

/// A font `--policy missing` left alone, and why.
struct KeptFont: Sendable, Equatable {
    /// The name as written (with a vertical `@` when it had one).
    var font: String
    /// Why it was kept: `resolves to DejaVu Sans, covers all 12 characters shown`.
    var reason: String
}

extension FixFileResult {
    /// The encodings of one file as JSON reports them: `encoding` (what the input was read as), `runnerUp` (the
    /// encoding that read it second best, when detection weighed candidates) and `outputEncoding`.
    struct Detection: Sendable, Equatable {
        var input: String
        var runnerUp: String?
        var output: String
        /// What decided `input`.
        var basis: DecodingBasis

        init(_ decoded: DecodedText, output: TextEncoding) {
            input = decoded.encoding.name
            runnerUp = decoded.runnerUp?.name
            basis = decoded.basis
            self.output = output.name
        }
    }
}

/// A whole `subfix fix` run: the command line, when it ran, and each file's result, ready for the job log.
struct FixRunResult: Sendable {
    /// The arguments after `subfix`.
    var commandLine: [String]
    /// Whether it was `--dry-run` (the job log marks it: nothing was written).
    var dryRun = false
    var started: Date
    var finished: Date
    var files: [FixFileResult]

    var changed: Int { files.count { $0.status == .changed } }
    var unchanged: Int { files.count { $0.status == .unchanged } }
    var failed: Int { files.count { $0.status == .failed } }
    var skipped: Int { files.count { $0.status == .skipped } }
    var seconds: Double { finished.timeIntervalSince(started) }

    /// What drew text in place of a missing face (a serif or bold face not installed), each once for the
    /// whole run, in the order first met: printed as warnings after the summary.
    var degradations: [String] {
        var seen: [String] = []
        for file in files {
            for line in file.degradations + file.embedded.compactMap(\.note) where !seen.contains(line) {
                seen.append(line)
            }
        }
        return seen
    }

    /// The `--json` summary object.
    var summaryJSON: JSON {
        .typed(
            "summary",
            [
                ("files", .int(files.count)), ("changed", .int(changed)), ("unchanged", .int(unchanged)),
                ("failed", .int(failed)), ("skipped", .int(skipped)),
                ("seconds", .double((seconds * 1000).rounded() / 1000)),
            ])
    }

    /// The summary line printed without `--json`.
    var summaryLine: String {
        "\(files.count) file\(files.count == 1 ? "" : "s"): \(changed) changed, \(unchanged) unchanged, \(failed) failed"
            + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}
