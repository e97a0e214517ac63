import Foundation
import Testing

/// `subfix search` in a script, run as a built process: grep's exit statuses (0 matched, 1 nothing matched,
/// 2 error) and the `--count` and `--files-with-matches` outputs that `if subfix search ...; then` and
/// `xargs` rely on.
@Suite struct SearchScriptingTests {
    @Test func exitStatusesAndCounts() throws {
        let folder = try SubfixBinary.folder("search")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        let cue = { (text: String) in
            "1\n00:00:01,000 --> 00:00:02,000\n\(text)\n\n2\n00:00:03,000 --> 00:00:04,000\n再见\n"
        }
        try Data(cue("你好").utf8).write(to: URL(fileURLWithPath: folder + "/in/a.srt"))
        try Data(cue("你好，你好").utf8).write(to: URL(fileURLWithPath: folder + "/in/b.srt"))
        #expect(try SubfixBinary.run(["index", "in", "--db", "l.sqlite"], in: folder).status == 0)

        let found = try SubfixBinary.run(["search", "你好", "--db", "l.sqlite"], in: folder)
        #expect(found.status == 0 && found.stderr == "")
        #expect(found.stdout.split(separator: "\n").count == 2)
        let counted = try SubfixBinary.run(["search", "再见", "--db", "l.sqlite", "--count"], in: folder)
        #expect(counted.status == 0 && counted.stdout == "in/a.srt:1\nin/b.srt:1\n")
        let listed = try SubfixBinary.shell(
            "\"$SUBFIX\" search 你好 --db l.sqlite --files-with-matches | wc -l", in: folder)
        #expect(listed.status == 0 && listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2")

        let missing = try SubfixBinary.run(["search", "明天", "--db", "l.sqlite"], in: folder)
        #expect(missing.status == 1 && missing.stdout == "" && missing.stderr == "")
        let nothing = try SubfixBinary.run(["search", "再见", "--db", "l.sqlite", "--lang", "fr", "--count"], in: folder)
        #expect(nothing.status == 1 && nothing.stdout == "")

        let badQuery = try SubfixBinary.run(["search", "--db", "l.sqlite", "--", "-你好"], in: folder)
        #expect(badQuery.status == 2)
        #expect(badQuery.stderr == "subfix: error: query: the query only excludes words: add a word to find\n")
        let noLibrary = try SubfixBinary.run(["search", "你好", "--db", "none.sqlite", "--count"], in: folder)
        #expect(noLibrary.status == 2 && noLibrary.stdout == "")
        #expect(noLibrary.errorLines.count == 1)
    }
}
