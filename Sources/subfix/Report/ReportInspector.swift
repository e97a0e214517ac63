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
        do throws(CommandFailure) {
            return try entry(for: input)
        } catch {
            var entry = ReportEntry(file: input.path, status: .failed)
            entry.error = error
            return entry
        }
    }

    private func entry(for input: FixInput) throws(CommandFailure) -> ReportEntry {
        let path = input.path
        var entry = ReportEntry(file: path, status: .failed)
        if let problem = input.problem { throw CommandFailure(file: path, cause: problem) }
        guard let (before, original, format) = try read(input, skipping: &entry) else { return entry }

        let fixed = try FixProcessor.fix(
            original, format: format, file: path, options: options, attachments: before.attachments)
        let result = FixFileResult(
            input: path, output: nil, fixed: fixed, reportsKeptFonts: options.reportsKeptFonts)
        entry.changes = result.detailLines.map { $0.trimmingCharacters(in: .whitespaces) }
        var after: SubtitleInput
        do {
            after = try SubtitleInput(bytes: Data(fixed.output), name: path)
        } catch {
            throw CommandFailure(error)
        }
        after.attachments = before.attachments

        let checkedBefore = try check(before)
        let checkedAfter = try check(after)
        for warning in checkedBefore.warnings + checkedAfter.warnings where !entry.warnings.contains(warning) {
            entry.warnings.append(warning)
            entry.notes.append(warning.description)
        }
        entry.missingBefore = checkedBefore.missing
        entry.missingAfter = checkedAfter.missing
        if checkedBefore.missing.isEmpty {
            entry.status = .fixed
        } else if checkedAfter.missing.isEmpty {
            entry.status = .needsFixing
        } else {
            entry.status = .missingGlyphs
        }
        try show(checkedBefore.renderer, checkedAfter.renderer, in: &entry)
        return entry
    }

    /// The input as the player gets it, its bytes and its format; nil (with the entry marked skipped and why) for
    /// a media file with no text track to look at, as `fix` skips it.
    private func read(
        _ input: FixInput, skipping entry: inout ReportEntry
    ) throws(CommandFailure) -> (input: SubtitleInput, original: [UInt8], format: SubtitleFormat)? {
        let path = input.path
        if input.isMedia {
            // The player's first subtitle track, with the file's font attachments; fixed as its ASS text.
            do {
                let before = try MediaSubtitles.input(path: path, track: .player(1))
                return (before, Array(before.assText.utf8), .ass)
            } catch let error as MediaError {
                switch error {
                case .noSuchTrack, .bitmapTrack, .unsupportedCodec:
                    // As `fix` skips them: nothing in text to look at, and nothing wrong with the file.
                    entry.status = .skipped
                    entry.notes.append(error.cause)
                    return nil
                default:
                    throw CommandFailure(error, file: path)
                }
            } catch {
                throw CommandFailure(error, file: path)
            }
        }
        guard let format = SubtitleFormat(path: path) else {
            throw CommandFailure(
                file: path,
                cause: "not a subtitle or media file (expected .ass, .ssa, .srt, .vtt or a media file such as"
                    + " .mkv or .mp4)")
        }
        let original = try FixFileSystem.read(path).bytes
        do {
            return (try SubtitleInput(bytes: Data(original), name: path), original, format)
        } catch .mediaInput {
            throw CommandFailure(file: path, cause: "binary data, not subtitle text")
        } catch {
            throw CommandFailure(error)
        }
    }

    /// The lines the page shows (CJK first, each cut to what a page can show: a one-line 5 MB script made an 8 MB
    /// page no browser opened) and the frame before and after the fix at the first CJK line, unless an event too
    /// long for libass to lay out is on screen then (`GlyphChecker.renderedEventLimit`).
    private func show(
        _ beforeRenderer: SubtitleRenderer, _ afterRenderer: SubtitleRenderer, in entry: inout ReportEntry
    ) throws(CommandFailure) {
        let texts = beforeRenderer.events.map { event in (event, plainText(event, renderer: beforeRenderer)) }
        let cjk = texts.filter { CJKText.containsCJK($0.1) }
        entry.lines = Array(
            (cjk + texts.filter { !CJKText.containsCJK($0.1) }).prefix(lineLimit).map { GlyphChecker.shown($0.1) })
        let limit = GlyphChecker.renderedEventLimit
        guard let (event, _) = cjk.first(where: { $0.0.text.utf8.count <= limit }) else { return }
        let time = event.start + event.duration / 2
        guard
            !beforeRenderer.events.contains(where: { $0.text.utf8.count > limit && $0.start <= time && time < $0.end })
        else { return }
        entry.frames = ReportFrames(
            time: time, width: width, height: height, before: try frame(beforeRenderer, at: time),
            after: try frame(afterRenderer, at: time))
    }

    /// A renderer of `input` on the player, the CJK characters it cannot draw (as `check` finds them), and the
    /// fonts skipped on the way.
    private func check(
        _ input: SubtitleInput
    ) throws(CommandFailure) -> (renderer: SubtitleRenderer, missing: [Unicode.Scalar], warnings: [FontWarning]) {
        do {
            let renderer = try SubtitleRenderer(input: input, setup: player, width: width, height: height)
            let embedded = renderer.embedded
            let catalog = try playerCatalog.adding(attachments: input.attachments + embedded.fonts)
            let warnings =
                renderer.fontWarnings + embedded.warnings + catalog.warnings.dropFirst(playerCatalog.warnings.count)
            let report = try GlyphChecker.check(renderer, catalog: catalog)
            var seen = Set<Unicode.Scalar>()
            let missing = report.missing.flatMap(\.characters).filter { Self.isCJK($0) && seen.insert($0).inserted }
            return (renderer, missing, warnings)
        } catch {
            throw CommandFailure(error, file: input.name)
        }
    }

    /// The frame at `time` on black, as PNG.
    private func frame(_ renderer: SubtitleRenderer, at time: Int) throws(CommandFailure) -> Data {
        do {
            var canvas = try Canvas(width: width, height: height, background: .black)
            renderer.render(at: time, into: &canvas, background: .black)
            return try PNGEncoder(width: width, height: height, opaque: true).encode(canvas)
        } catch {
            throw CommandFailure(error, file: renderer.name)
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
