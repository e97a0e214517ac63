import Foundation
import Testing

/// A library on shared storage, through the built binary: read-only commands never make a library, no command
/// leaves the WAL's `-wal` and `-shm` files behind, and a library (and home folder) another user cannot write is
/// still searched.
@Suite struct SharedLibraryTests {
    /// The files in `folder`, sorted; empty when it does not exist.
    static func listing(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func readOnlyCommandsMakeNoLibraryAndNothingLeavesTheWAL() throws {
        let folder = try SubfixBinary.folder("wal")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(
            atPath: SubfixBinary.samples + "/yahei-styles.ass", toPath: folder + "/a.ass")
        let data = folder + "/data"
        let environment = ["XDG_DATA_HOME": data]
        let check = try SubfixBinary.run(["check", "a.ass", "-q"], in: folder, environment: environment)
        #expect(check.status != nil)
        let jobs = try SubfixBinary.run(["jobs"], in: folder, environment: environment)
        #expect(jobs.status == 1)
        #expect(!FileManager.default.fileExists(atPath: data), "\(Self.listing(data + "/subfix"))")

        // Each run makes its connections and closes them all before it exits (the library is created by the
        // first one, opened by the others).
        for run in 0..<5 {
            let fix = try SubfixBinary.run(
                ["fix", "a.ass", "--out", "out\(run)", "-q"], in: folder, environment: environment)
            #expect(fix.status == 0, "\(fix.stderr)")
            #expect(Self.listing(data + "/subfix") == ["library.sqlite"])
        }
        let index = try SubfixBinary.run(["index", SubfixBinary.samples, "-q"], in: folder, environment: environment)
        #expect(index.status == 0, "\(index.stderr)")
        for arguments in [["search", "谢谢"], ["jobs"], ["check", "a.ass", "-q"]] {
            let run = try SubfixBinary.run(arguments, in: folder, environment: environment)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(Self.listing(data + "/subfix") == ["library.sqlite"], "\(arguments)")
        }
    }

    /// As root: a library indexed by root in a folder, the folder and the file made read-only, searched by
    /// `nobody` (setpriv) whose home folder cannot be read. The search finds its lines, says that it reads a
    /// snapshot, and the unreadable config file is a warning.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func anotherUserSearchesALibraryTheyCannotWrite() throws {
        let folder = try SubfixBinary.folder("shared")
        defer {
            chmod(folder + "/lib", 0o755)
            try? FileManager.default.removeItem(atPath: folder)
        }
        chmod(folder, 0o755)
        let library = folder + "/lib/library.sqlite"
        let index = try SubfixBinary.run(["index", SubfixBinary.samples, "--db", library, "-q"], in: folder)
        #expect(index.status == 0, "\(index.stderr)")
        #expect(Self.listing(folder + "/lib") == ["library.sqlite"])
        chmod(library, 0o444)
        chmod(folder + "/lib", 0o555)
        let home = folder + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        chmod(home, 0o700)

        func asNobody(_ arguments: [String]) throws -> SubfixBinary.Run {
            try SubfixBinary.start(
                ["--reuid=65534", "--regid=65534", "--clear-groups", "--", SubfixBinary.executable.path] + arguments,
                in: folder, environment: ["HOME": home, "XDG_DATA_HOME": home + "/data"],
                executable: URL(fileURLWithPath: "/usr/bin/setpriv")
            ).finish()
        }
        let expectedWarnings = [
            "subfix: warning: \(home)/.config/subfix/config: cannot read: Permission denied (running without its"
                + " defaults)",
            "subfix: warning: \(library): read as a snapshot (its folder cannot be written): changes made while this"
                + " command runs are not seen",
        ]
        let search = try asNobody(["search", "谢谢", "--db", library])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("谢谢你。"))
        #expect(search.errorLines == expectedWarnings)
        let jobs = try asNobody(["jobs", "--db", library])
        #expect(jobs.status == 0, "\(jobs.stderr)")
        #expect(jobs.stdout.contains(" index succeeded "))
        #expect(jobs.errorLines == expectedWarnings)
        // check logs nothing to a library it cannot write, and says nothing about it.
        let check = try asNobody(["check", SubfixBinary.samples + "/media-src/zh.ass", "--db", library, "-q"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.errorLines == [expectedWarnings[0]])
        #expect(Self.listing(folder + "/lib") == ["library.sqlite"])
    }

    /// `-h` is a short usage; `--help` the whole text, wrapped to `$COLUMNS` when standard output is no terminal.
    @Test func shortAndFullHelp() throws {
        let folder = try SubfixBinary.folder("help")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let short = try SubfixBinary.run(["fix", "-h"], in: folder, environment: ["COLUMNS": "80"])
        let full = try SubfixBinary.run(["fix", "--help"], in: folder, environment: ["COLUMNS": "80"])
        #expect(short.status == 0 && full.status == 0)
        let shortLines = short.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let fullLines = full.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(shortLines.count < 30, "\(short.stdout)")
        #expect(shortLines.count * 3 < fullLines.count)
        #expect(short.stdout.hasSuffix("'subfix fix --help' shows all 23 options.\n"))
        #expect(short.stdout.contains("  --out DIR "))
        #expect(!short.stdout.contains("--jobs"))
        #expect(full.stdout.contains("--jobs N"))
        for line in shortLines + fullLines { #expect(line.count <= 80, "\(line)") }
        let overview = try SubfixBinary.run(["-h"], in: folder, environment: ["COLUMNS": "80"])
        #expect(overview.stdout.contains("\n  search "))
        #expect(overview.stdout.contains("'subfix COMMAND -h'"))
    }
}
