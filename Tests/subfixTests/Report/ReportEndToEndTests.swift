import Foundation
import Testing

@testable import subfix

/// `subfix report` as a user runs it: the built binary, its exit codes, its stderr lines and the page it leaves.
@Suite struct ReportEndToEndTests {
    @Test func helpAndUsageErrorsExitAsTheOtherCommands() throws {
        let folder = try SubfixBinary.folder("report-usage")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let help = try SubfixBinary.run(["report", "--help"], in: folder)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: subfix report"))
        let usage = try SubfixBinary.run(["report", "a.ass"], in: folder)
        #expect(usage.status == 2)
        #expect(usage.stderr == "subfix: error: 'report' needs one of '--out'\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "data" } == [])
    }

    @Test func rawByteNamesAreEscapedInLinesTheFileNameAndTheLink() throws {
        let folder = try SubfixBinary.folder("report-bytes")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fonts = ReportSamples.fontOptions.map { "'\($0)'" }.joined(separator: " ")
        let script = ReportSamples.ass(font: "SimHei", lines: ["你好"])
        try SubfixBinary.write(script, to: folder + "/source.ass")
        let run = try SubfixBinary.shell(
            "mv source.ass $'bad\\xff<.ass' && \"$SUBFIX\" report . --out page.html \(fonts)", in: folder)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout.hasPrefix("./bad\\xff<.ass: needs fixing (2 CJK characters render blank as it is)\n"))
        let page = try String(contentsOfFile: folder + "/page.html", encoding: .utf8)
        #expect(page.contains("<a href=\"bad%FF%3C.ass\">./bad\\xff&lt;.ass</a>"))
    }

    @Test func aNonexistentInputFailsWithOneLineAndThePageStillShowsIt() throws {
        let folder = try SubfixBinary.folder("report-missing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try SubfixBinary.run(["report", "gone.ass", "--out", "page.html"], in: folder)
        #expect(run.status == 1)
        #expect(run.errorLines == ["subfix: error: gone.ass: cannot read: No such file or directory"])
        let page = try String(contentsOfFile: folder + "/page.html", encoding: .utf8)
        #expect(page.contains("<p class=\"error\">gone.ass: cannot read: No such file or directory</p>"))
        #expect(page.contains("id=\"count-failed\"><span class=\"count\">1</span>"))
    }
}
