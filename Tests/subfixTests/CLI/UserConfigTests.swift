import Foundation
import Testing

@testable import subfix

/// `$XDG_CONFIG_HOME/subfix/config`: defaults below the command line and the environment, and one error line
/// (exit 2) for a file that cannot be used.
@Suite struct UserConfigTests {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples").path

    /// A scratch folder as XDG_CONFIG_HOME, with `bytes` as subfix/config (nil: no file).
    private func configHome(_ bytes: [UInt8]?) throws -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("subfix-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("subfix"), withIntermediateDirectories: true)
        if let bytes { try Data(bytes).write(to: home.appendingPathComponent("subfix/config")) }
        return home.path
    }

    private func run(_ arguments: [String], environment: Environment) -> (subfix.ExitStatus, String, String) {
        let (io, output) = CommandIO.capturing(environment: environment)
        let status = SubfixCLI.run(arguments, io: io)
        return (status, output.stdout, output.stderr)
    }

    @Test(arguments: [
        ("font = Noto Sans CJK TC\nfnot = x\n", "2: unknown key 'fnot' (known: font, policy, db, fonts-dir)"),
        ("# comment\nfont Noto Sans CJK TC\n", "2: expected 'key = value', found 'font Noto Sans CJK TC'"),
        ("policy = some\n", "1: invalid value 'some' (expected text, all, cjk, missing)"),
        ("db = lib.sqlite\n", "1: invalid value 'lib.sqlite' (expected an absolute path or one starting with ~/)"),
        ("fonts-dir =\n", "1: 'fonts-dir' has no value"),
        ("font = Noto, Arial\n", "1: invalid value 'Noto, Arial' (expected \(RewriteOptions.fontExpectation))"),
        ("= all\n", "1: unknown key '' (known: font, policy, db, fonts-dir)"),
    ])
    func aMalformedLineIsOneErrorNamingTheFileAndLine(text: String, message: String) throws {
        let home = try configHome(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: home) }
        let (status, out, err) = run(["fonts", "--no-system-fonts"], environment: ["XDG_CONFIG_HOME": home])
        #expect(status == .usage)
        #expect(out == "")
        #expect(err == "subfix: error: \(home)/subfix/config:\(message)\n")
    }

    @Test func bytesThatAreNotUTF8AreRefusedWithTheirLine() throws {
        let home = try configHome(
            Array("# fonts\npolicy = all\n".utf8) + [0x66, 0x6F, 0x6E, 0x74, 0x3D, 0xB9, 0xFE, 0x0A])
        defer { try? FileManager.default.removeItem(atPath: home) }
        let (status, _, err) = run(["fonts"], environment: ["XDG_CONFIG_HOME": home])
        #expect(status == .usage)
        #expect(err == "subfix: error: \(home)/subfix/config:3: the line is not text (invalid UTF-8 or a NUL byte)\n")
    }

    @Test func aFolderOrAFIFOInsteadOfTheFileIsRefusedAtOnce() throws {
        let home = try configHome(nil)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/subfix/config", withIntermediateDirectories: false)
        let (status, _, err) = run(["jobs"], environment: ["XDG_CONFIG_HOME": home])
        #expect(status == .usage)
        #expect(err == "subfix: error: \(home)/subfix/config: cannot read: a folder, not a regular file\n")

        try FileManager.default.removeItem(atPath: home + "/subfix/config")
        #expect(mkfifo(home + "/subfix/config", 0o600) == 0)
        let (fifoStatus, _, fifoErr) = run(["jobs"], environment: ["XDG_CONFIG_HOME": home])
        #expect(fifoStatus == .usage)
        #expect(
            fifoErr == "subfix: error: \(home)/subfix/config: cannot read: a FIFO (named pipe), not a regular file\n")
    }

    @Test func noFileCommentsBlankLinesAndCRLFAreFine() throws {
        #expect(try UserConfig.load(environment: ["XDG_CONFIG_HOME": "/nonexistent-subfix-folder"]) == UserConfig())
        #expect(UserConfig.location(environment: ["HOME": "/home/u"]) == "/home/u/.config/subfix/config")
        #expect(
            UserConfig.location(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/subfix/config")
        #expect(UserConfig.location(environment: [:]) == nil)
        let text = "# defaults\r\n\r\n  policy =  all \r\nfonts-dir = ~/a\nfonts-dir = /b\npolicy = cjk\n"
        let config = try UserConfig.parse(Array(text.utf8), path: "c", home: "/home/u")
        #expect(config.values == ["policy": ["cjk"], "fonts-dir": ["/home/u/a", "/b"]])
    }

    /// A value from the file counts where the command line says nothing; a flag beats it.
    @Test func theFileGivesDefaultsAndTheCommandLineWins() throws {
        let fonts = Self.samples + "/media-src"
        let home = try configHome(Array("fonts-dir = \(fonts)\npolicy = all\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment: Environment = ["XDG_CONFIG_HOME": home]
        let (status, out, _) = run(["fonts", "--no-system-fonts", "--json"], environment: environment)
        #expect(status == .success)
        #expect(out.contains("NotoSansCJKsc-Sample.otf"))
        // --fonts-dir on the command line replaces the file's folders.
        let empty = try configHome(nil)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let (_, replaced, _) = run(
            ["fonts", "--no-system-fonts", "--fonts-dir", empty, "--json"], environment: environment)
        #expect(replaced == "")

        let folder = try configHome(nil)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ass = folder + "/a.ass"
        try FileManager.default.copyItem(atPath: Self.samples + "/yahei-styles.ass", toPath: ass)
        let (_, fromFile, _) = run(["fix", ass, "--dry-run", "-v"], environment: environment)
        #expect(fromFile.contains("  policy all, font auto"))
        #expect(fromFile.contains("style Credits: Arial -> "))
        let (_, fromFlag, _) = run(["fix", ass, "--dry-run", "-v", "--policy", "text"], environment: environment)
        #expect(fromFlag.contains("  policy text, font auto"))
        #expect(fromFlag.contains("style Credits: Arial kept: draws no CJK text"))
        // `extract` without --fix has --font and --policy only with --fix: the file's values are no error there.
        let (extractStatus, _, extractErr) = run(
            ["extract", Self.samples + "/tram.mkv", "--track", "1", "--out", folder], environment: environment)
        #expect(extractStatus == .success && extractErr == "")
    }

    /// The library: --db, then $SUBFIX_DB, then the file's db, then the XDG default.
    @Test func theLibraryComesFromTheFlagThenTheEnvironmentThenTheFile() throws {
        let spec = JobsCommand.spec
        var arguments = ParsedArguments(command: "jobs")
        arguments.defaults = UserConfig(path: "c", values: ["db": ["/config.sqlite"]]).defaults(for: spec)
        let (withEnvironment, _) = CommandIO.capturing(environment: ["SUBFIX_DB": "/env.sqlite", "HOME": "/h"])
        let (withoutEnvironment, _) = CommandIO.capturing(environment: ["HOME": "/h"])
        #expect(try LibraryLocation.path(arguments, io: withEnvironment) == "/env.sqlite")
        #expect(try LibraryLocation.path(arguments, io: withoutEnvironment) == "/config.sqlite")
        arguments.values["db"] = ["/flag.sqlite"]
        #expect(try LibraryLocation.path(arguments, io: withEnvironment) == "/flag.sqlite")
        #expect(
            try LibraryLocation.path(ParsedArguments(command: "jobs"), io: withoutEnvironment)
                == "/h/.local/share/subfix/library.sqlite")
        // The job log records what was typed, not the file's defaults.
        #expect(!ParsedArguments(command: "jobs", defaults: ["db": ["/c.sqlite"]]).loggedArguments.contains("--db"))
    }
}
