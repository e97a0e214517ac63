import Foundation
import TestSupport
import Testing

@testable import SubCore

/// Font collections that list a face thousands of times (issue 35, item 1): each distinct face is read once,
/// at most `FontCollection.faceLimit` per file and `setupFaceLimit` per setup, with one warning.
@Suite struct FontCollectionTests {
    static let font = FontTestSupport.fixtures.appendingPathComponent("subfix-test-sans.otf")
    static let realCollection = FontTestSupport.fixtures.appendingPathComponent("subfix-test-sans.ttc")

    @Test func aRealCollectionKeepsEveryFace() throws {
        let collection = FontCollection(data: try Data(contentsOf: Self.realCollection))
        #expect(collection.indexes == [0, 1])
        #expect(collection.declared == 2)
        #expect(collection.warning == nil)
        #expect(FontCollection(data: try Data(contentsOf: Self.font)).indexes == [0])
    }

    @Test(arguments: [false, true])
    func repeatedFacesAreReadOnce(copies: Bool) throws {
        let bomb = FontBomb.collection(of: try Data(contentsOf: Self.font), count: 20_000, copies: copies)
        let collection = FontCollection(data: bomb)
        #expect(collection.indexes == [0])
        #expect(collection.warning == "collection lists 20000 faces, 1 distinct: read 1")
        // What libass is handed lists the one face: FreeType sees a collection of 1.
        let library = try FreeTypeLibrary()
        let face = try library.face(data: collection.bounded(bomb), name: "bomb.ttc", index: 0)
        #expect(face.faceCount == 1)
        #expect(face.familyName == "subfix Test Sans")
    }

    @Test func distinctFacesStopAtTheLimitPerFile() throws {
        let bomb = FontBomb.collection(
            of: try Data(contentsOf: Self.font), count: 300, copies: true, distinct: true)
        let collection = FontCollection(data: bomb)
        #expect(collection.indexes == Array(0..<FontCollection.faceLimit))
        #expect(
            collection.warning == "collection lists 300 faces, at least 256 distinct: read 256 (the limit per file)")
    }

    /// A header cut short, offsets past the end, a count of 2^32-1: nothing is read past the bytes.
    @Test(arguments: [12, 40, 100, 1000])
    func truncatedHeadersReadWhatIsThere(length: Int) throws {
        let bomb = FontBomb.collection(of: try Data(contentsOf: Self.font), count: 20_000)
        let collection = FontCollection(data: bomb.prefix(length))
        #expect(!collection.indexes.isEmpty)
        #expect(collection.indexes.count <= 1)
        var huge = Data("ttcf".utf8) + Data([0, 1, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xF0])
        huge.append(contentsOf: [UInt8](repeating: 0, count: 8))
        // An offset past the end reads as an empty directory: one face, besides the one at offset 0.
        #expect(FontCollection(data: huge).indexes == [0, 1])
    }

    @Test func theCatalogReadsABombAttachmentOnce() throws {
        let bomb = FontBomb.collection(of: try Data(contentsOf: Self.font), count: 20_000)
        let setup = FontSetup(systemFonts: false, attachments: [FontAttachment(name: "bomb.ttc", data: bomb)])
        let catalog = try FontCatalog(setup: setup)
        #expect(catalog.faces.count == 1)
        #expect(catalog.warnings.map(\.description) == ["bomb.ttc: collection lists 20000 faces, 1 distinct: read 1"])
    }

    @Test func aSetupStopsAtItsFaceBudget() throws {
        let font = try Data(contentsOf: Self.font)
        let attachments = (0..<5).map {
            FontAttachment(
                name: "f\($0).ttc", data: FontBomb.collection(of: font, count: 256, copies: true, distinct: true))
        }
        let catalog = try FontCatalog(setup: FontSetup(systemFonts: false, attachments: attachments))
        #expect(catalog.faces.count == FontCollection.setupFaceLimit)
        #expect(
            catalog.warnings.map(\.description) == [
                "f4.ttc: more than 1024 font faces in one setup: this and later faces not read"
            ])
    }
}
