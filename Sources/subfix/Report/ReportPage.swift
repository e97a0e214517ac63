import Foundation
import SubCore

/// The one HTML page `subfix report` writes: self-contained (styles inline, frames as `data:` PNGs, nothing
/// fetched), with a Content Security Policy that allows no script at all, and every string from a file escaped
/// through `HTMLText`, so a hostile subtitle can show its `<script>` but never run it.
struct ReportPage {
    var entries: [ReportEntry]
    /// Where the page goes: links to the files are made relative to its folder.
    var output: String
    /// The folder relative paths are taken from (the current directory).
    var directory: String
    /// What the player of the "before" frames has, in words (`no fonts`, `the fonts in DIR`).
    var playerFonts: String

    /// No scripts, no connections, no frames, no forms; only inline styles and `data:` images.
    static let contentSecurityPolicy =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

    /// The page as text.
    var html: String {
        let summary = ReportSummary(entries)
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>subfix report</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <header>
            <h1>subfix report</h1>

            """
        page += "<ul class=\"summary\" id=\"summary\">\n"
        page += "<li id=\"count-files\"><span class=\"count\">\(summary.files)</span> files</li>\n"
        for status in ReportStatus.allCases {
            page += "<li class=\"\(status.rawValue)\" id=\"count-\(status.rawValue)\"><span class=\"count\">"
            page += "\(summary.count(status))</span> \(status.label)</li>\n"
        }
        page += "</ul>\n"
        page += """
            <p class="about">Before: the file as a player without CJK fonts draws it (\(HTMLText.escaped(playerFonts))
            and the fonts the file carries). After: the same player with the file as <code>subfix fix --embed</code>
            would write it (computed in memory; nothing was written). Only CJK characters count as missing: Latin
            text is drawn by any player's own fonts.</p>
            </header>
            <main>

            """
        for (number, entry) in entries.enumerated() {
            page += section(entry, number: number + 1)
        }
        page += "</main>\n</body>\n</html>\n"
        return page
    }

    /// One file's section.
    func section(_ entry: ReportEntry, number: Int) -> String {
        let status = entry.status
        var html = "<section class=\"file \(status.rawValue)\" id=\"file-\(number)\">\n"
        html += "<h2><a href=\"\(link(entry.file))\">\(HTMLText.escaped(entry.file))</a>"
        html += " <span class=\"status\">\(status.label)</span></h2>\n"
        if let error = entry.error {
            html += "<p class=\"error\">\(HTMLText.escaped(error.description))</p>\n"
        }
        if !entry.missingBefore.isEmpty {
            html += "<p class=\"missing\">Blank on the player as it is: " + characters(entry.missingBefore) + "</p>\n"
        }
        if entry.missingAfter == entry.missingBefore, !entry.missingAfter.isEmpty {
            html += "<p class=\"missing after\">Still blank after the fix: all of them.</p>\n"
        } else if !entry.missingAfter.isEmpty {
            html += "<p class=\"missing after\">Still blank after the fix: " + characters(entry.missingAfter) + "</p>\n"
        }
        html += list(entry.changes, class: "changes", title: "The fix")
        html += list(entry.notes, class: "notes", title: "Notes")
        html += list(entry.lines, class: "lines", title: "Dialogue")
        if let frames = entry.frames {
            let time = RenderTime.format(frames.time)
            html += "<div class=\"frames\">\n"
            for (name, png) in [("before", frames.before), ("after", frames.after)] {
                html += "<figure><img class=\"\(name)\" alt=\"\(name) the fix, at \(time)\""
                html += " width=\"\(frames.width)\" height=\"\(frames.height)\""
                html += " src=\"data:image/png;base64,\(png.base64EncodedString())\">"
                html += "<figcaption>\(name), \(time)</figcaption></figure>\n"
            }
            html += "</div>\n"
        }
        if !entry.related.isEmpty {
            let title = FixInputs.isMedia(entry.file) ? "Sidecars" : "Sidecar of"
            html += "<p class=\"related\">\(title): "
            html += entry.related.map { "<a href=\"\(link($0))\">\(HTMLText.escaped($0))</a>" }.joined(separator: ", ")
            html += "</p>\n"
        }
        html += "</section>\n"
        return html
    }

    /// The escaped `href` of `path`, relative to the page's folder.
    func link(_ path: String) -> String {
        let folder = (output as NSString).deletingLastPathComponent
        return HTMLText.href(
            HTMLText.relativePath(path, from: folder.isEmpty ? "." : folder, directory: directory))
    }

    /// The characters, then their code points (`U+4F60`), escaped.
    private func characters(_ scalars: [Unicode.Scalar]) -> String {
        let shown = String(String.UnicodeScalarView(scalars))
        let codes = scalars.prefix(40).map { "U+" + String($0.value, radix: 16, uppercase: true) }
        let more = scalars.count > 40 ? " and \(scalars.count - 40) more" : ""
        return "<span class=\"chars\">\(HTMLText.escaped(shown))</span>"
            + " <span class=\"codes\">(\(codes.joined(separator: " "))\(more))</span>"
    }

    private func list(_ items: [String], class name: String, title: String) -> String {
        guard !items.isEmpty else { return "" }
        return "<div class=\"\(name)\"><h3>\(title)</h3><ul>\n"
            + items.map { "<li>\(HTMLText.escaped($0))</li>\n" }.joined() + "</ul></div>\n"
    }

    static let style = """
        body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:1em;color:#222;background:#fafafa}
        h1{margin:.2em 0}h2{font-size:1.05em;word-break:break-all}h3{font-size:.9em;margin:.4em 0}
        .summary{display:flex;gap:.6em;list-style:none;padding:0;flex-wrap:wrap}
        .summary li{padding:.4em .8em;border-radius:6px;background:#eee}.count{font-weight:bold;font-size:1.3em}
        .file{background:#fff;border:1px solid #ddd;border-left:6px solid #999;border-radius:6px;margin:1em 0;padding:.2em 1em}
        .needs-fixing{border-left-color:#d98a00}.fixed{border-left-color:#2a9d4b}
        .missing-glyphs{border-left-color:#c0392b}.failed{border-left-color:#6c3483}.skipped{border-left-color:#bbb}
        .status{font-weight:normal;font-size:.85em;padding:.1em .5em;border-radius:4px;background:#eee}
        .error{color:#8b0000;font-family:monospace;white-space:pre-wrap;word-break:break-all}
        .chars{font-size:1.2em}.codes{color:#666;font-size:.8em}
        .lines li{white-space:pre-wrap}.changes li,.notes li{font-family:monospace;font-size:.85em;word-break:break-all}
        .frames{display:flex;gap:1em;flex-wrap:wrap}figure{margin:0;flex:1 1 280px;max-width:640px}
        img{width:100%;height:auto;background:#000}
        figcaption{color:#555;font-size:.85em}
        """
}
