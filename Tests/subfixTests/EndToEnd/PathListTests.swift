import Foundation
import Testing

/// Paths from a pipe and options before the command, run as a user types them: `find … -print0 | subfix fix - -0`,
/// `--out -` refused in one line, `subfix --db L search Q`.
@Suite struct PathListTests {
    private static let srt = "1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好</font>\n"

    @Test func pathsFromStandardInput() throws {
        let folder = try SubfixBinary.folder("pathlist")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in/sub", withIntermediateDirectories: true)
        // A name with a space and one with a newline: only NUL separation keeps the second whole.
        for name in ["in/a b.srt", "in/sub/c.srt", "in/new\nline.srt"] {
            try SubfixBinary.write(Self.srt, to: folder + "/" + name)
        }
        let nul = try SubfixBinary.shell(
            "find in -name '*.srt' -print0 | sort -z | \"$SUBFIX\" fix - -0 --out o", in: folder)
        #expect(nul.status == 0, "\(nul.stderr)")
        #expect(nul.stdout.hasSuffix("3 files: 3 changed, 0 unchanged, 0 failed\n"))
        #expect(FileManager.default.fileExists(atPath: folder + "/o/a b.srt"))
        #expect(FileManager.default.fileExists(atPath: folder + "/o/new\nline.srt"))

        // One path per line, mixed with a path on the command line; blank lines are skipped.
        let lines = try SubfixBinary.shell(
            "printf 'in/a b.srt\\n\\nin/sub/c.srt\\n' | \"$SUBFIX\" fix - in/sub/c.srt --dry-run", in: folder)
        #expect(lines.status == 0, "\(lines.stderr)")
        #expect(lines.stdout.hasSuffix("3 files: 3 changed, 0 unchanged, 0 failed\n"))

        // A listed path that does not exist fails alone, named, and the run exits 1.
        let missing = try SubfixBinary.shell(
            "printf 'in/sub/c.srt\\nin/gone.srt\\n' | \"$SUBFIX\" fix - --dry-run", in: folder)
        #expect(missing.status == 1)
        #expect(missing.errorLines.count == 1 && missing.errorLines[0].hasPrefix("subfix: error: in/gone.srt: "))

        // A listed name that is not UTF-8 and holds no subtitle: still that file, named (escaped) in one line.
        let raw = try SubfixBinary.shell(
            "printf 'junk' > \"$(printf 'in/\\377.srt')\"; printf 'in/\\377.srt\\0' | \"$SUBFIX\" fix - -0 --dry-run",
            in: folder)
        #expect(raw.status == 1)
        #expect(raw.errorLines.count == 1 && raw.errorLines[0].hasPrefix("subfix: error: in/\\xff.srt:1:1: "))

        // -0 without '-', and --out - : usage errors in one line, nothing written.
        let stray = try SubfixBinary.run(["fix", "in", "-0", "--dry-run"], in: folder)
        #expect(stray.status == 2)
        #expect(
            stray.errorLines == [
                "subfix: error: option '--null' means nothing without '-' among the paths (the list on standard input)"
            ])
        let stream = try SubfixBinary.run(["fix", "in", "--out", "-"], in: folder)
        #expect(stream.status == 2 && stream.stdout == "")
        #expect(stream.errorLines.count == 1 && stream.errorLines[0].contains("invalid value '-' for '--out'"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/-"))
    }

    @Test func theLibraryOptionBeforeTheCommand() throws {
        let folder = try SubfixBinary.folder("global")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SubfixBinary.write(Self.srt, to: folder + "/a.srt")
        #expect(try SubfixBinary.run(["--db", "l.sqlite", "index", "a.srt"], in: folder).status == 0)
        let found = try SubfixBinary.run(["--db=l.sqlite", "search", "你好"], in: folder)
        #expect(found.status == 0 && found.stdout.contains("你好"))
        // The one after the command wins, as the last value of any option does.
        let later = try SubfixBinary.run(["--db", "other.sqlite", "search", "你好", "--db", "l.sqlite"], in: folder)
        #expect(later.status == 0 && later.stdout.contains("你好"))
        let dangling = try SubfixBinary.run(["--db"], in: folder)
        #expect(dangling.status == 2 && dangling.errorLines == ["subfix: error: option '--db' needs a value (PATH)"])
    }
}
