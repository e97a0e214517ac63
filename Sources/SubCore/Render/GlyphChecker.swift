import Foundation

/// Characters of one event that would come out blank, and the font that was asked for them.
public struct MissingGlyphs: Sendable, Hashable {
    /// The event's position in the file, from 1.
    public var event: Int
    /// Its start time in milliseconds.
    public var start: Int
    /// Its visible text.
    public var text: String
    /// The font name the style or `\fn` asked for, as written.
    public var font: String
    /// The face libass draws the run with: its pick for the name (`Noto Sans CJK SC (x.otf)`), or the
    /// default font when no name matches (`default font DejaVu Sans (DejaVuSans.ttf)`); nil when none.
    public var face: String?
    /// The characters no usable font covers, in order of appearance.
    public var characters: [Unicode.Scalar]
}

/// The missing-glyph report of one subtitle file.
public struct GlyphCheckReport: Sendable {
    /// The input's name.
    public var file: String
    /// How many events it has.
    public var events: Int
    /// One entry per event and font with missing characters.
    public var missing: [MissingGlyphs]

    /// How many distinct events have missing characters.
    public var eventsWithMissingGlyphs: Int { Set(missing.map(\.event)).count }
}

/// Finds the characters that would not render, per event, two ways: the catalog's coverage (the face libass
/// picks for each run's font, its family, and fontconfig's fallback when system fonts are on), and libass's
/// own messages while it renders each event ("Glyph 0x… not found", "failed to find any fallback").
public enum GlyphChecker {
    /// Checks every event of `renderer`'s script against `catalog` (read for the same `FontSetup`).
    public static func check(_ renderer: SubtitleRenderer, catalog: FontCatalog) throws(RenderError) -> GlyphCheckReport
    {
        let styles = renderer.styles
        let events = renderer.events
        var entries: [Int: [(font: FontRequest, face: String?, chars: [Unicode.Scalar])]] = [:]
        var texts: [Int: String] = [:]
        var runsByEvent: [Int: [EventTextRun]] = [:]

        for event in events {
            guard let style = style(of: event, styles: styles, defaultStyle: renderer.defaultStyle) else { continue }
            let runs = EventTextRuns.split(event.text, style: style, styles: styles)
            runsByEvent[event.index] = runs
            texts[event.index] = runs.map(\.text).joined()
            for run in runs {
                let chars = catalog.missing(in: run.text, for: run.font)
                if !chars.isEmpty {
                    add(&entries[event.index, default: []], font: run.font, face: face(for: run.font, catalog), chars)
                }
            }
        }

        // libass's own view: render each start time once and read what it reports.
        _ = renderer.drainMessages()
        var canvas = try Canvas(width: renderer.width, height: renderer.height)
        // libass lays out a whole event at once: a 19 MB one took gigabytes. Past the limit, an event's
        // characters are checked by coverage alone, and the times it shows are not rendered.
        let huge = events.filter { $0.text.utf8.count > renderedEventLimit }
        for time in Set(events.map(\.start)).sorted()
        where !huge.contains(where: { $0.start <= time && time < $0.end }) {
            renderer.render(at: time, into: &canvas)
            for message in renderer.drainMessages() {
                // An invisible character (a line separator, a format control) draws nothing with or without a glyph.
                guard let (code, family) = parseMissingGlyph(message.text), let scalar = Unicode.Scalar(code),
                    FontCoverage.needsGlyph(scalar)
                else {
                    continue
                }
                for event in events where event.start <= time && time < event.end {
                    for run in runsByEvent[event.index] ?? []
                    where run.font.family == family && run.text.unicodeScalars.contains(scalar) {
                        add(
                            &entries[event.index, default: []], font: run.font, face: face(for: run.font, catalog),
                            [scalar])
                    }
                }
            }
        }

        var missing: [MissingGlyphs] = []
        for event in events {
            for entry in entries[event.index] ?? [] {
                missing.append(
                    MissingGlyphs(
                        event: event.index + 1, start: event.start, text: shown(texts[event.index] ?? ""),
                        font: entry.font.name,
                        face: entry.face, characters: entry.chars))
            }
        }
        return GlyphCheckReport(file: renderer.name, events: events.count, missing: missing)
    }

    /// The longest event text (UTF-8 bytes) rendered through libass; longer ones are checked by coverage only.
    public static let renderedEventLimit = 64 << 10
    /// How many characters of an event's text a report shows.
    public static let shownTextLimit = 500

    /// `text` cut to `shownTextLimit` characters, with "…" where it was cut.
    public static func shown(_ text: String) -> String {
        guard text.count > shownTextLimit else { return text }
        return String(text.prefix(shownTextLimit)) + "…"
    }

    /// What draws `request`: libass's pick for the name, else the default font.
    static func face(for request: FontRequest, _ catalog: FontCatalog) -> String? {
        if let face = catalog.resolve(request).face { return face.displayName }
        return catalog.defaultFace.map { "default font " + $0.displayName }
    }

    private static func add(
        _ list: inout [(font: FontRequest, face: String?, chars: [Unicode.Scalar])], font: FontRequest,
        face: String?, _ chars: [Unicode.Scalar]
    ) {
        if let index = list.firstIndex(where: { $0.font.name == font.name }) {
            for char in chars where !list[index].chars.contains(char) { list[index].chars.append(char) }
        } else {
            list.append((font, face, chars))
        }
    }

    /// The style libass uses for an event (its own, or the track's default for an unknown one).
    static func style(of event: AssEvent, styles: [AssStyle], defaultStyle: Int) -> AssStyle? {
        if styles.indices.contains(event.style) { return styles[event.style] }
        return styles.indices.contains(defaultStyle) ? styles[defaultStyle] : styles.first
    }

    /// The code point and family of libass's missing-glyph messages:
    /// `Glyph 0x4E2D not found in font for (SimHei, 400, 0)` and
    /// `fontselect: failed to find any fallback with glyph 0x4E2D for font: (SimHei, 400, 0)`.
    static func parseMissingGlyph(_ text: String) -> (UInt32, String)? {
        let patterns = ["Glyph 0x", "failed to find any fallback with glyph 0x"]
        guard
            text.hasPrefix(patterns[0]) && text.contains(" not found in font for (")
                || text.contains(patterns[1])
        else { return nil }
        guard let hexStart = text.range(of: "0x")?.upperBound else { return nil }
        let hex = text[hexStart...].prefix { $0.isHexDigit }
        guard let code = UInt32(hex, radix: 16), code != 0,
            let open = text.range(of: "(", options: .backwards)?.upperBound
        else { return nil }
        // The family runs up to the last two ", <number>" fields.
        let inner = text[open...].dropLast(text.hasSuffix(")") ? 1 : 0)
        let parts = inner.components(separatedBy: ", ")
        guard parts.count >= 3 else { return nil }
        return (code, parts.dropLast(2).joined(separator: ", "))
    }
}
