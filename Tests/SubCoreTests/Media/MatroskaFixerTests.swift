import Foundation
import Testing

@testable import SubCore

/// Another Swift program can fix a Matroska file through SubCore alone (issue 32, item 1): `MatroskaFixer` plans
/// the tracks' fixes and the subsets to attach, and writes the file.
@Suite struct MatroskaFixerTests {
    static func fixer() throws -> MatroskaFixer {
        let catalog = try FontCatalog(setup: FontSetup(), systemFamilies: FaceChooser.families)
        let rewriter = FontRewriter(target: .auto(FaceChooser(catalog: catalog)), policy: .text(also: []))
        return MatroskaFixer(
            fixer: SubtitleFixer(rewriter: rewriter),
            embedder: FontEmbedder(catalog: catalog, families: FaceChooser.families))
    }

    @Test func plansAndWritesTheFixedFile() throws {
        let folder = try MediaFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = try Self.fixer().plan(try MediaFile(path: MediaFixtures.mkv))
        #expect(plan.tracks.map(\.stream.index) == [2, 3, 4])
        #expect(plan.tracks.allSatisfy { $0.content != nil })
        #expect(plan.changesFile)
        #expect(
            plan.added.map(\.fileName)
                == ["subfix-NotoSansCJKSC_0.otf", "subfix-NotoSansCJKSC-Bold_0.otf", "subfix-NotoSansCJKJP_0.otf"])
        #expect(
            plan.tracks[0].embedded.map(\.fileName) == [
                "subfix-NotoSansCJKSC_0.otf", "subfix-NotoSansCJKSC-Bold_0.otf",
            ])
        let output = folder.appendingPathComponent("fixed.mkv").path
        let summary = try plan.write(to: output, mode: 0o644, placement: .replace)
        #expect(summary.packets > 0)
        let fixed = try MediaFile(path: output)
        #expect(fixed.streams.count == 9)
        // Planned again, the fixed file needs nothing: its tracks are fixed and its subsets attached.
        let again = try Self.fixer().plan(fixed)
        #expect(!again.changesFile)
        #expect(again.alreadyAttached.count == 3)
    }

    /// A file that is not Matroska is refused before anything is read.
    @Test func otherContainersAreRefused() throws {
        #expect(throws: MediaError.self) { try Self.fixer().plan(try MediaFile(path: MediaFixtures.mp4)) }
    }
}
