import Foundation
import TestSupport
import Testing

@testable import subfix

/// The page `subfix report` writes, run by the built binary and opened in a real browser (Debian's headless
/// Chromium, through Scripts/browser-check.sh): it loads with no console message, shows the right counts, and
/// the hostile samples run nothing. Without Chromium these tests fail and say so (`make deps` installs it).
@Suite(.serialized) struct ReportBrowserTests {
    static let script = ReportSamples.root.appendingPathComponent("Scripts/browser-check.sh").path

    /// What the browser made of a page: the DOM after loading, and its console messages.
    struct Loaded {
        var dom: String
        var console: [String]
    }

    /// Opens `page` in Chromium; nil (with the reason recorded as a test failure) when it cannot run here.
    func load(_ page: String) throws -> Loaded? {
        let folder = try TestFiles.temporaryDirectory("subfix-browser")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try ProcessRunner.run("/bin/bash", [Self.script, page, folder.path])
        guard outcome.status == 0 else {
            let reason = "headless Chromium could not load the page (exit \(outcome.status)): \(outcome.stderr)"
            Issue.record(Comment(rawValue: reason + " (install Debian's chromium package with `make deps`)"))
            return nil
        }
        let dom = try String(contentsOf: folder.appendingPathComponent("dom.html"), encoding: .utf8)
        let console = try String(contentsOf: folder.appendingPathComponent("console.txt"), encoding: .utf8)
        return Loaded(dom: dom, console: console.split(separator: "\n").map(String.init))
    }

    @Test func theReportLoadsWithoutConsoleMessagesShowsTheCountsAndRunsNoHostileScript() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-report-browser")
        defer { try? FileManager.default.removeItem(at: folder) }
        try ReportSamples.write(into: folder)
        let page = folder.appendingPathComponent("report.html").path
        let run = try SubfixBinary.run(
            ["report", ".", "--out", "report.html"] + ReportSamples.fontOptions, in: folder.path)
        #expect(run.status == 1)
        #expect(run.errorLines.count == 3 && run.errorLines.allSatisfy { $0.hasPrefix("subfix: error: ./") })
        #expect(
            run.stdout.hasSuffix(
                "8 files: 3 need fixing, 1 fixed, 1 with missing glyphs, 3 failed, 0 skipped; report written to"
                    + " report.html\n"))
        guard let loaded = try load(page) else { return }
        #expect(loaded.console == [], "the page caused console messages")
        // Nothing changed the title or added the payload's element.
        #expect(loaded.dom.contains("<title>subfix report</title>"))
        #expect(!loaded.dom.contains("pwned</title>"))
        #expect(!loaded.dom.contains("id=\"pwned\""))
        #expect(!loaded.dom.lowercased().contains("<script"))
        // The browser parsed the counts and the hostile lines as text.
        for (id, count) in [("files", 8), ("needs-fixing", 3), ("fixed", 1), ("missing-glyphs", 1), ("failed", 3)] {
            #expect(loaded.dom.contains("id=\"count-\(id)\"><span class=\"count\">\(count)</span>"), "count \(id)")
        }
        #expect(loaded.dom.components(separatedBy: "<section class=\"file ").count == 9)
        #expect(loaded.dom.contains("你好&lt;script&gt;document.title='pwned';"))
        #expect(loaded.dom.contains("&lt;img src=x onerror=\"document.title='pwned';"))
        #expect(loaded.dom.contains("./name\"&lt;img src=x onerror='document.title='pwned';do'&gt;.ass</a>"))
        // Every image is one of the frames, inline.
        let images = loaded.dom.components(separatedBy: "<img ").dropFirst()
        #expect(images.count == 10)
        #expect(images.allSatisfy { $0.contains("src=\"data:image/png;base64,") })
    }

    /// The check itself can fail: the same payload, unescaped, does rename the page in this browser, and under
    /// the report's policy the blocked script shows up as a console message.
    @Test func theBrowserCheckSeesAScriptThatRunsOrIsBlocked() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-browser-control")
        defer { try? FileManager.default.removeItem(at: folder) }
        let unescaped =
            "<!DOCTYPE html><html><head><title>subfix report</title></head><body>"
            + "<p>\(ReportSamples.scriptLine)</p><p>\(ReportSamples.imageLine)</p></body></html>"
        let open = folder.appendingPathComponent("open.html").path
        try Data(unescaped.utf8).write(to: URL(fileURLWithPath: open))
        if let loaded = try load(open) {
            #expect(loaded.dom.contains("<title>pwned</title>"))
            #expect(loaded.dom.contains("<p id=\"pwned\">pwned</p>"))
        }
        let guarded = unescaped.replacingOccurrences(
            of: "<head>",
            with: "<head><meta http-equiv=\"Content-Security-Policy\" content=\"\(ReportPage.contentSecurityPolicy)\">")
        let blocked = folder.appendingPathComponent("blocked.html").path
        try Data(guarded.utf8).write(to: URL(fileURLWithPath: blocked))
        if let loaded = try load(blocked) {
            #expect(loaded.dom.contains("<title>subfix report</title>"))
            #expect(!loaded.dom.contains("id=\"pwned\""))
            #expect(loaded.console.contains { $0.contains("Content Security Policy") })
        }
    }
}
