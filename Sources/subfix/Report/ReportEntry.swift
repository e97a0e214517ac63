import Foundation
import SubCore

/// Where a file stands on a player without CJK fonts, as `subfix report` sorts it.
enum ReportStatus: String, Sendable, CaseIterable {
    /// Some CJK characters render blank as the file is, and `fix --embed` would make every one render.
    case needsFixing = "needs-fixing"
    /// Every CJK character renders as the file is (already fixed, or nothing to fix).
    case fixed
    /// Some CJK characters still render blank after `fix --embed` (no font here covers them, or the format
    /// cannot carry fonts).
    case missingGlyphs = "missing-glyphs"
    /// The file could not be read, decoded, parsed, fixed or rendered.
    case failed
    /// A media file with no text subtitle track (none at all, or only bitmap ones): nothing to look at.
    case skipped

    /// The words the page shows.
    var label: String {
        switch self {
        case .needsFixing: return "needs fixing"
        case .fixed: return "fixed"
        case .missingGlyphs: return "missing glyphs"
        case .failed: return "failed"
        case .skipped: return "skipped"
        }
    }
}

/// Two frames of one moment rendered by libass on the player: the file as it is, and as `fix --embed` makes it.
struct ReportFrames: Sendable {
    /// The moment, in milliseconds: the middle of the first event with CJK text.
    var time: Int
    var width: Int
    var height: Int
    /// PNG bytes of the frame before the fix.
    var before: Data
    /// PNG bytes of the frame after the fix (in memory; nothing is written).
    var after: Data
}

/// What `subfix report` found for one file. Every string in it comes from the file or its name and is
/// untrusted: the page escapes all of them.
struct ReportEntry: Sendable {
    var file: String
    var status: ReportStatus
    /// Why the file failed.
    var error: CommandFailure?
    /// CJK characters the player cannot draw as the file is.
    var missingBefore: [Unicode.Scalar] = []
    /// CJK characters the player still cannot draw after `fix --embed`.
    var missingAfter: [Unicode.Scalar] = []
    /// What the fix does, one line per rewritten reference or embedded font (`fix`'s own detail lines).
    var changes: [String] = []
    /// What the page lists under the fix's decisions: the warnings below, and why a file was skipped.
    var notes: [String] = []
    /// Fonts skipped on the way (undecodable `[Fonts]` entries, attachments libass cannot open), printed as
    /// warnings.
    var warnings: [FontWarning] = []
    /// A few dialogue lines as plain text (override tags removed), the ones with CJK text first.
    var lines: [String] = []
    var frames: ReportFrames?
    /// Files that belong with this one: a media file's sidecar subtitles, or the media file a subtitle is a
    /// sidecar of.
    var related: [String] = []

    /// The `--json` object of this entry.
    var json: JSON {
        .typed(
            "file",
            [
                ("file", .string(file)), ("status", .string(status.rawValue)),
                ("missingBefore", .string(String(String.UnicodeScalarView(missingBefore)))),
                ("missingAfter", .string(String(String.UnicodeScalarView(missingAfter)))),
                ("changes", .array(changes.map(JSON.string))), ("notes", .array(notes.map(JSON.string))),
                ("frameTime", frames.map { .string(RenderTime.format($0.time)) } ?? .null),
                ("related", .array(related.map(JSON.string))), ("error", .optional(error?.description)),
            ])
    }

    /// The line printed for this entry without `--json`.
    var line: String {
        switch status {
        case .failed: return "\(file): failed"
        case .skipped: return "\(file): skipped (\(notes.first ?? "no text subtitle track"))"
        case .fixed: return "\(file): fixed"
        case .needsFixing:
            return "\(file): needs fixing (\(missingBefore.count) CJK characters render blank as it is)"
        case .missingGlyphs:
            return "\(file): missing glyphs after the fix: \(String(String.UnicodeScalarView(missingAfter)))"
        }
    }
}

/// The counts at the top of the page and in the summary object.
struct ReportSummary: Sendable, Equatable {
    var files = 0
    var counts: [ReportStatus: Int] = [:]

    init(_ entries: [ReportEntry]) {
        files = entries.count
        for entry in entries { counts[entry.status, default: 0] += 1 }
    }

    func count(_ status: ReportStatus) -> Int { counts[status] ?? 0 }

    /// The `--json` summary object; `out` is the page written.
    func json(out: String) -> JSON {
        .typed(
            "summary",
            [
                ("files", .int(files)), ("needsFixing", .int(count(.needsFixing))),
                ("fixed", .int(count(.fixed))), ("missingGlyphs", .int(count(.missingGlyphs))),
                ("failed", .int(count(.failed))), ("skipped", .int(count(.skipped))), ("output", .string(out)),
            ])
    }

    /// The summary line printed without `--json`.
    func line(out: String) -> String {
        "\(files) file\(files == 1 ? "" : "s"): \(count(.needsFixing)) need fixing, \(count(.fixed)) fixed,"
            + " \(count(.missingGlyphs)) with missing glyphs, \(count(.failed)) failed, \(count(.skipped)) skipped;"
            + " report written to \(out)"
    }
}
