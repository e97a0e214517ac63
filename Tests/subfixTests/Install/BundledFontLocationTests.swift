import Foundation
import SubCore
import Testing

/// Where a subfix executable looks for its bundled font: `$SUBFIX_FONTS_DIR`, `../share/subfix/fonts` from
/// the real executable, the checkout's `Fonts/` for a build under `.build`, and nowhere else.
@Suite struct BundledFontLocationTests {
    @Test func candidatesForInstalledCheckoutAndCopiedBinaries() {
        let installed = BundledFont.candidates(
            environment: [:], executable: URL(fileURLWithPath: "/usr/local/bin/subfix"))
        #expect(installed.map(\.path) == ["/usr/local/share/subfix/fonts"])
        let built = BundledFont.candidates(
            environment: ["SUBFIX_FONTS_DIR": "/opt/fonts"],
            executable: URL(fileURLWithPath: "/home/me/subfix/.build/x86_64-unknown-linux-gnu/release/subfix"))
        #expect(
            built.map(\.path) == [
                "/opt/fonts", "/home/me/subfix/.build/x86_64-unknown-linux-gnu/share/subfix/fonts",
                "/home/me/subfix/Fonts",
            ])
        let copied = BundledFont.candidates(environment: ["SUBFIX_FONTS_DIR": ""], executable: nil)
        #expect(copied.isEmpty)
    }

    /// A prefix laid out as `make install` lays it out, reached through a symbolic link in another folder.
    @Test func findsTheInstalledFontThroughSymbolicLinks() throws {
        let folder = try InstallSupport.folder("bundled")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        let prefix = folder.appendingPathComponent("prefix")
        let fonts = prefix.appendingPathComponent("share/subfix/fonts")
        try manager.createDirectory(at: fonts, withIntermediateDirectories: true)
        try manager.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        let executable = prefix.appendingPathComponent("bin/subfix")
        try Data().write(to: executable)
        let link = folder.appendingPathComponent("elsewhere/subfix")
        try manager.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try manager.createSymbolicLink(at: link, withDestinationURL: executable)

        // No font yet: nothing found, however the binary is reached.
        #expect(BundledFont.directory(environment: [:], executable: link) == nil)
        try Data("not really a font".utf8).write(to: fonts.appendingPathComponent(BundledFont.fileName))
        #expect(BundledFont.directory(environment: [:], executable: link)?.path == fonts.path)
        #expect(BundledFont.directory(environment: [:], executable: executable)?.path == fonts.path)

        // SUBFIX_FONTS_DIR comes first when it holds the font; a folder without it, a file or a missing path is
        // passed over.
        let override = folder.appendingPathComponent("override")
        try manager.createDirectory(at: override, withIntermediateDirectories: true)
        #expect(
            BundledFont.directory(environment: ["SUBFIX_FONTS_DIR": override.path], executable: link)?.path
                == fonts.path)
        for bad in [executable.path, folder.appendingPathComponent("missing").path, "relative/path"] {
            #expect(BundledFont.directory(environment: ["SUBFIX_FONTS_DIR": bad], executable: link)?.path == fonts.path)
        }
        try Data().write(to: override.appendingPathComponent(BundledFont.fileName))
        #expect(
            BundledFont.directory(environment: ["SUBFIX_FONTS_DIR": override.path], executable: link)?.path
                == override.path)
    }

    /// This test process runs from `.build`, so it finds the checkout's font, as `swift run` and the tests do.
    @Test func theTestProcessFindsTheCheckoutsFont() throws {
        let executable = try #require(BundledFont.runningExecutable())
        #expect(executable.path.contains("/.build/"))
        #expect(
            BundledFont.directory(environment: [:])?.path
                == InstallSupport.checkout.appendingPathComponent("Fonts").path)
    }
}
