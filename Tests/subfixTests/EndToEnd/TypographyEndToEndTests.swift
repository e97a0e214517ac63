import Foundation
import Testing

private let notoFolder = "/usr/share/fonts/opentype/noto"
private let hasNotoFamilies = ["NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc", "NotoSerifCJK-Regular.ttc"]
    .allSatisfy { FileManager.default.fileExists(atPath: notoFolder + "/" + $0) }
private let latinDefault = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

/// `fix --embed` on a Japanese+Chinese script through the binary (issue 29): the same bytes from every process,
/// a second fix changes nothing, and a player with only a Latin default font draws every character.
@Suite(.enabled(if: hasNotoFamilies)) struct TypographyEndToEndTests {
    static let sample = SubfixBinary.samples + "/bilingual.JPSC.ass"

    /// Each process hashes with its own seed: 50 runs give one output.
    @Test func theSameBytesOnEveryRun() throws {
        let folder = try SubfixBinary.folder("determinism")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try SubfixBinary.shell(
            "for i in $(seq 50); do \"$SUBFIX\" fix '\(Self.sample)' --embed --out o$i -q --db db.sqlite >/dev/null || exit 1;"
                + " done; md5sum o*/bilingual.JPSC.ass"
                + " | cut -d' ' -f1 | sort | uniq -c | wc -l",
            in: folder, limit: 300)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "1\n")
    }

    /// The fixed file fixed again (from another process) is unchanged, byte for byte; it passes `check` on a
    /// player with no fonts but a Latin default one.
    @Test func fixingTheFixedFileChangesNothingAndItPassesCheck() throws {
        let folder = try SubfixBinary.folder("idempotent")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try SubfixBinary.run(
            ["fix", Self.sample, "--embed", "--out", "one", "--db", "db.sqlite"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("  embedded Noto Sans CJK SC Bold: "))
        #expect(first.stdout.contains("  embedded Noto Serif CJK JP: "))
        let again = try SubfixBinary.run(
            ["fix", "one/bilingual.JPSC.ass", "--embed", "--out", "two", "--db", "db.sqlite"], in: folder)
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("unchanged "), "\(again.stdout)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: folder + "/one/bilingual.JPSC.ass"))
                == Data(contentsOf: URL(fileURLWithPath: folder + "/two/bilingual.JPSC.ass")))
        let check = try SubfixBinary.run(
            [
                "check", "one/bilingual.JPSC.ass", "--no-system-fonts", "--default-font", latinDefault, "--db",
                "db.sqlite",
            ],
            in: folder)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout == "one/bilingual.JPSC.ass: 14 events, all characters covered\n")
    }

    /// `-v` says which level decided each run and the class of each serif style.
    @Test func verboseSaysWhatDecided() throws {
        let folder = try SubfixBinary.folder("typography-v")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try SubfixBinary.run(["fix", Self.sample, "--dry-run", "-v", "--db", "db.sqlite"], in: folder)
        #expect(run.status == 0)
        for line in [
            "  style Staff: 方正黑体_GBK -> Noto Sans CJK SC: known CJK font; Simplified-only characters in its style's text",
            "  style Letter: ＭＳ 明朝 -> Noto Serif CJK JP: known CJK font; kana in its style's text; Mincho (明朝) is serif",
            "  style Song: 宋体 -> Noto Serif CJK SC: known CJK font; Simplified-only characters in its style's text; Song (宋) is serif",
            "  \\fn: FOT-RodinPro-DB -> Noto Sans CJK JP: known CJK font; kana in the run",
        ] {
            #expect(run.stdout.contains(line + "\n"), "\(line)")
        }
    }

    /// On a machine with only the Regular sans collection, fixing still succeeds: one warning line each for the
    /// missing serif and bold faces, naming the package.
    @Test func missingFacesAreOneWarningEach() throws {
        let folder = try SubfixBinary.folder("partial-fonts")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/fonts", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/fonts/NotoSansCJK-Regular.ttc",
            withDestinationPath: notoFolder + "/NotoSansCJK-Regular.ttc")
        try SubfixBinary.write(
            """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
            <fontconfig><dir>\(folder)/fonts</dir><cachedir>\(folder)/cache</cachedir></fontconfig>
            """, to: folder + "/fonts.conf")
        let run = try SubfixBinary.run(
            ["fix", Self.sample, "--embed", "--out", "o", "-q", "--db", "db.sqlite"], in: folder,
            environment: ["FONTCONFIG_FILE": folder + "/fonts.conf", "SUBFIX_FONTS_DIR": folder + "/none"])
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.errorLines.filter { $0.hasPrefix("subfix: warning: ") }
        #expect(
            warnings.sorted() == [
                "subfix: warning: no Noto Serif CJK JP face is available here: its text is drawn with Noto Sans CJK JP"
                    + " (Debian's fonts-noto-cjk has it, or give --fonts-dir)",
                "subfix: warning: no Noto Serif CJK SC face is available here: its text is drawn with Noto Sans CJK SC"
                    + " (Debian's fonts-noto-cjk has it, or give --fonts-dir)",
                "subfix: warning: no bold face of Noto Sans CJK JP here: its bold text is drawn with synthetic bold",
                "subfix: warning: no bold face of Noto Sans CJK SC here: its bold text is drawn with synthetic bold",
            ], "\(run.stderr)")
    }
}

/// A machine without fonts-noto-cjk (issue 34, item 1): an empty fontconfig and no bundled font. A Korean script
/// is fixed with one warning naming the package; with --embed, nothing can be cut, and the one error line says
/// where to get the face; nothing is written.
@Suite struct NoCJKFontsTests {
    @Test func aMissingFaceIsOneWarningAndEmbedNamesTheRemedy() throws {
        let folder = try SubfixBinary.folder("nofonts")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/empty", withIntermediateDirectories: false)
        try SubfixBinary.write(
            """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
            <fontconfig><dir>\(folder)/empty</dir><cachedir>\(folder)/cache</cachedir></fontconfig>
            """, to: folder + "/fonts.conf")
        try SubfixBinary.write(
            "1\n00:00:01,000 --> 00:00:02,000\n<font face=\"Gulim\">안녕하세요</font>\n", to: folder + "/own.ko.srt")
        let environment = ["FONTCONFIG_FILE": folder + "/fonts.conf", "SUBFIX_FONTS_DIR": folder + "/empty"]
        let fix = try SubfixBinary.run(["fix", "own.ko.srt", "--out", "o", "-q"], in: folder, environment: environment)
        #expect(fix.status == 0)
        #expect(
            fix.errorLines.filter { $0.contains("Noto Sans CJK KR is not available here") } == [
                "subfix: warning: no installed face draws this text: Noto Sans CJK KR is not available here (Debian's"
                    + " fonts-noto-cjk has it, or give --fonts-dir); the name is written as it is"
            ], "\(fix.stderr)")
        let ass =
            "[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname\nStyle: Default,Gulim\n\n"
            + "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,안녕하세요\n"
        try SubfixBinary.write(ass, to: folder + "/own.ko.ass")
        let embed = try SubfixBinary.run(
            ["fix", "own.ko.ass", "--embed", "--out", "e", "-q"], in: folder, environment: environment)
        #expect(embed.status == 1)
        #expect(
            embed.errorLines.contains(
                "subfix: error: own.ko.ass: cannot embed Noto Sans CJK KR: no face of that name is available here"
                    + " (install Debian's fonts-noto-cjk, or give --fonts-dir)"), "\(embed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/e/own.ko.ass"))
    }
}
