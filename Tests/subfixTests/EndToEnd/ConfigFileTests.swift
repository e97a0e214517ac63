import Foundation
import Testing

/// The config file as the built binary meets it: a hostile file stops every command with one escaped line and
/// exit status 2, a good one gives its defaults, and subfix(1) documents the file and the environment.
@Suite struct ConfigFileTests {
    /// XDG_CONFIG_HOME with `bytes` as subfix/config.
    private func configHome(_ bytes: [UInt8]) throws -> String {
        let home = try SubfixBinary.folder("config")
        try FileManager.default.createDirectory(atPath: home + "/subfix", withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: home + "/subfix/config"))
        return home
    }

    @Test func aHostileFileIsOneEscapedLineAndExitTwo() throws {
        let hostile: [([UInt8], String)] = [
            (Array("font\u{1B}[31m red\n".utf8), ":1: expected 'key = value', found 'font\\x1b[31m red'"),
            ([0xFF, 0xFE, 0x3D, 0x0A], ":1: the line is not text (invalid UTF-8 or a NUL byte)"),
            (Array("font = A\0B\n".utf8), ":1: the line is not text (invalid UTF-8 or a NUL byte)"),
            (Array("colour = always\n".utf8), ":1: unknown key 'colour' (known: font, policy, db, fonts-dir)"),
        ]
        for (bytes, message) in hostile {
            let home = try configHome(bytes)
            defer { try? FileManager.default.removeItem(atPath: home) }
            let run = try SubfixBinary.run(["jobs", "--json"], in: home, environment: ["XDG_CONFIG_HOME": home])
            #expect(run.status == 2)
            #expect(run.stdout == "")
            #expect(run.stderr == "subfix: error: \(home)/subfix/config\(message)\n")
        }
        // Help and --version need no config: they still work with a broken one.
        let home = try configHome(Array("nonsense\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(try SubfixBinary.run(["fix", "--help"], in: home, environment: ["XDG_CONFIG_HOME": home]).status == 0)
        #expect(try SubfixBinary.run(["--version"], in: home, environment: ["XDG_CONFIG_HOME": home]).status == 0)
    }

    /// `db` in ~/.config/subfix/config (HOME, no XDG_CONFIG_HOME) is where `jobs` looks; SUBFIX_DB comes first.
    @Test func theFilesLibraryIsUsedBelowTheEnvironment() throws {
        let folder = try SubfixBinary.folder("config-db")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/.config/subfix", withIntermediateDirectories: true)
        try SubfixBinary.write("db = ~/from-config.sqlite\n", to: folder + "/.config/subfix/config")
        try SubfixBinary.write("1\n00:00:01,000 --> 00:00:02,000\n你好\n", to: folder + "/a.srt")
        let environment = ["HOME": folder]
        #expect(try SubfixBinary.run(["index", "a.srt"], in: folder, environment: environment).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/from-config.sqlite"))
        let found = try SubfixBinary.run(["search", "你好", "--count"], in: folder, environment: environment)
        #expect(found.status == 0 && found.stdout == "a.srt:1\n")
        let fromEnvironment = try SubfixBinary.run(
            ["search", "你好"], in: folder, environment: ["HOME": folder, "SUBFIX_DB": folder + "/none.sqlite"])
        #expect(fromEnvironment.status == 2 && fromEnvironment.stderr.contains("none.sqlite"))
    }

    @Test func theManPageDocumentsTheFileAndTheEnvironment() throws {
        let run = try SubfixBinary.run(["--generate", "man"], in: SubfixBinary.samples)
        #expect(run.status == 0)
        for name in ["SUBFIX_DB", "SUBFIX_FONTS_DIR", "XDG_CONFIG_HOME", "subfix/config", "fonts\\-dir"] {
            #expect(run.stdout.contains(name), "subfix(1) does not mention \(name)")
        }
    }
}
