import Foundation
import SubCore

/// Looks at one file for `subfix report` with the very calls `check`, `render` and `fix` make: the file is
/// checked and rendered as a player without CJK fonts sees it, fixed in memory as `fix --embed` fixes it
/// (nothing is written), and the fixed script checked and rendered on the same player.
struct ReportInspector: Sendable {
    /// How files are fixed: `fix --embed --dry-run` with the same font options.
    var options: FixOptions
    /// The player: no system fonts, only the fonts named for it and those that travel with each file.
    var player: FontSetup
    /// The catalog of `player`, read once.
    var playerCatalog: FontCatalog
    /// Frame size of the before/after pictures.
    var width = 640
    var height = 360
    /// Dialogue lines kept per file for the page.
    var lineLimit = 3

    /// The entry for `input`, with the warnings met (fonts skipped). Never throws: a failure is the entry's.
    /// Safe to call from several threads at once (each call has its own renderers).
    func inspect(_ input: FixInput) -> ReportEntry {
        var entry = ReportEntry(file: input.path, status: .failed)
        do {
            try inspect(input, into: &entry)
        } catch  where error.skipped {
            entry.status = .skipped
            entry.notes.append(error.cause)
        } catch {
            entry.status = .failed
            entry.error = error.line
        }
        return entry
    }

    private func inspect(_ input: FixInput, into entry: inout ReportEntry) throws(ReportFailure) {
        let path = input.path
        if let problem = input.problem { throw ReportFailure(file: path, cause: problem) }
        let before: SubtitleInput
        let original: [UInt8]
        let format: SubtitleFormat
        if input.isMedia {
            // The player's first subtitle track, with the file's font attachments; fixed as its ASS text.
            do {
                before = try MediaSubtitles.input(path: path, track: .player(1))
            } catch let error as MediaError {
                switch error {
                case .noSuchTrack, .bitmapTrack, .unsupportedCodec:
                    // As `fix` skips them: nothing in text to look at, and nothing wrong with the file.
                    throw ReportFailure(file: path, cause: error.description, skipped: true)
                default:
                    throw ReportFailure(file: path, cause: error.description)
                }
            } catch {
                throw ReportFailure(file: nil, cause: String(describing: error))
            }
            original = Array(before.assText.utf8)
            format = .ass
        } else {
            guard let known = SubtitleFormat(path: path) else {
                throw ReportFailure(
                    file: path,
                    cause: "not a subtitle or media file (expected .ass, .ssa, .srt, .vtt or a media file such as"
                        + " .mkv or .mp4)")
            }
            format = known
            do {
                original = try FixFileSystem.read(path).bytes
            } catch {
                throw ReportFailure(file: path, cause: error.cause)
            }
            do {
                before = try SubtitleInput(bytes: Data(original), name: path)
            } catch .mediaInput {
                throw ReportFailure(file: path, cause: "binary data, not subtitle text")
            } catch {
                throw ReportFailure(file: nil, cause: error.description)
            }
        }

        var result = FixFileResult(input: path, output: nil, status: .failed)
        let fixed: FixedSubtitle
        do {
            fixed = try FixProcessor.fix(
                original, format: format, file: path, options: options, attachments: before.attachments,
                into: &result)
        } catch {
            throw ReportFailure(file: path, cause: error.cause)
        }
        entry.changes = result.detailLines.map { $0.trimmingCharacters(in: .whitespaces) }
        var after: SubtitleInput
        do {
            after = try SubtitleInput(bytes: Data(fixed.output), name: path)
        } catch {
            throw ReportFailure(file: nil, cause: error.description)
        }
        after.attachments = before.attachments

        let (beforeRenderer, beforeMissing) = try check(before, into: &entry)
        let (afterRenderer, afterMissing) = try check(after, into: &entry)
        entry.missingBefore = beforeMissing
        entry.missingAfter = afterMissing
        if beforeMissing.isEmpty {
            entry.status = .fixed
        } else if afterMissing.isEmpty {
            entry.status = .needsFixing
        } else {
            entry.status = .missingGlyphs
        }

        let texts = beforeRenderer.events.map { event in (event, plainText(event, renderer: beforeRenderer)) }
        let cjk = texts.filter { CJKText.containsCJK($0.1) }
        entry.lines = Array((cjk + texts.filter { !CJKText.containsCJK($0.1) }).prefix(lineLimit).map(\.1))
        if let (event, _) = cjk.first {
            let time = event.start + event.duration / 2
            entry.frames = ReportFrames(
                time: time, width: width, height: height, before: try frame(beforeRenderer, at: time),
                after: try frame(afterRenderer, at: time))
        }
    }

    /// A renderer of `input` on the player and the CJK characters it cannot draw, as `check` finds them.
    private func check(
        _ input: SubtitleInput, into entry: inout ReportEntry
    ) throws(ReportFailure) -> (SubtitleRenderer, [Unicode.Scalar]) {
        do {
            let renderer = try SubtitleRenderer(input: input, setup: player, width: width, height: height)
            let embedded = input.embeddedFonts()
            let catalog = try playerCatalog.adding(attachments: input.attachments + embedded.fonts)
            let warnings =
                renderer.fontWarnings + embedded.warnings + catalog.warnings.dropFirst(playerCatalog.warnings.count)
            for warning in warnings where !entry.warnings.contains(warning) {
                entry.warnings.append(warning)
                entry.notes.append(warning.description)
            }
            let report = try GlyphChecker.check(renderer, catalog: catalog)
            var seen = Set<Unicode.Scalar>()
            let missing = report.missing.flatMap(\.characters).filter { Self.isCJK($0) && seen.insert($0).inserted }
            return (renderer, missing)
        } catch let error as RenderError {
            throw ReportFailure(file: nil, cause: error.description)
        } catch let error as FontError {
            throw ReportFailure(file: nil, cause: error.description)
        } catch {
            throw ReportFailure(file: input.name, cause: String(describing: error))
        }
    }

    /// The frame at `time` on black, as PNG.
    private func frame(_ renderer: SubtitleRenderer, at time: Int) throws(ReportFailure) -> Data {
        do {
            var canvas = try Canvas(width: width, height: height, background: .black)
            renderer.render(at: time, into: &canvas, background: .black)
            return try PNGEncoder(width: width, height: height, opaque: true).encode(canvas)
        } catch {
            throw ReportFailure(file: renderer.name, cause: error.description)
        }
    }

    /// The event's text as drawn: override blocks and drawings removed (`EventTextRuns`, as `check` reads it).
    private func plainText(_ event: AssEvent, renderer: SubtitleRenderer) -> String {
        let styles = renderer.styles
        let index = styles.indices.contains(event.style) ? event.style : renderer.defaultStyle
        guard styles.indices.contains(index) else { return event.text }
        return EventTextRuns.plainText(event.text, style: styles[index], styles: styles)
    }

    /// The characters a player without CJK fonts cannot draw: Han, kana, Hangul, Bopomofo, CJK symbols and
    /// punctuation, fullwidth forms. (Latin text is drawn by any player's own fonts; it is not counted.)
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        if CJKText.isHan(scalar) || CJKText.isKana(scalar) || CJKText.isHangul(scalar) { return true }
        switch scalar.value {
        case 0x3000...0x303F, 0x3100...0x312F, 0x31A0...0x31BF, 0x3200...0x33FF, 0xFE30...0xFE4F, 0xFF00...0xFFEF:
            return true
        default: return false
        }
    }
}

/// Why one file could not be looked at, as one line: the file (nil when the cause already names it) and the
/// cause.
struct ReportFailure: Error, Sendable {
    var file: String?
    var cause: String
    /// Whether the file is skipped rather than failed: a media file without a text subtitle track.
    var skipped = false

    /// `<file>: <cause>`, as it follows `subfix: error: ` on standard error.
    var line: String { (file.map { "\($0): " } ?? "") + cause }
}
