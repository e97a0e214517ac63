import Foundation
import SubDB
import SubfixLibrary
import TestSupport
import Testing

@testable import subfix

/// `subfix fonts` keeps the catalog it lists in the library database.
@Suite struct FontCatalogStoreTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SubCoreTests/Fixtures")

    func temporaryDirectory() throws -> URL { try TestFiles.temporaryDirectory("subfix-fontdb") }

    @Test func storesTheCatalogAndForgetsVanishedFiles() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fonts = folder.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        let font = fonts.appendingPathComponent("a.otf")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("subfix-test-sans.otf"), to: font)
        let database = folder.appendingPathComponent("library.sqlite").path
        // The catalog goes into a library that exists (listing fonts never creates one).
        _ = try LibraryDatabase(path: database, mode: .create)

        let (io, output) = CommandIO.capturing()
        #expect(
            SubfixCLI.run(["fonts", "--no-system-fonts", "--fonts-dir", fonts.path, "--db", database], io: io)
                == .success)
        #expect(output.stderr.isEmpty)
        let stored = try LibraryDatabase(path: database, mode: .create).fontFaces()
        #expect(stored.map(\.file) == [font.path])
        let face = try #require(stored.first)
        #expect(face.faceIndex == 0)
        #expect(!face.families.isEmpty)
        #expect(output.stdout.hasPrefix(face.families.joined(separator: ", ") + " | "))
        #expect((face.coverage["Latin"] ?? 0) > 0)

        // The font file goes away: the next listing forgets it.
        try FileManager.default.removeItem(at: font)
        let (io2, _) = CommandIO.capturing()
        #expect(
            SubfixCLI.run(["fonts", "--no-system-fonts", "--fonts-dir", fonts.path, "--db", database], io: io2)
                == .success)
        #expect(try LibraryDatabase(path: database, mode: .create).fontFaces().isEmpty)
    }

    @Test func anUnusableDatabaseIsOnlyAWarning() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A file that is not a library: opening it fails, and it is left as it was.
        let database = folder.appendingPathComponent("library.sqlite").path
        try Data(repeating: 0x78, count: 4096).write(to: URL(fileURLWithPath: database))
        let (io, output) = CommandIO.capturing()
        let status = SubfixCLI.run(
            ["fonts", "--no-system-fonts", "--fonts-dir", Self.fixtures.path, "--db", database], io: io)
        #expect(status == .success)
        #expect(output.stderr.hasPrefix("subfix: warning: \(database): cannot store the font catalog: "))
        #expect(output.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!output.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == Data(repeating: 0x78, count: 4096))
    }
}
