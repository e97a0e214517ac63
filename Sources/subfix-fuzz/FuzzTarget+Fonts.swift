import Foundation
import SubCore
import SubfixLibrary

extension FuzzTarget {
    /// `[Fonts]` data, font files and subsets from hostile bytes (issue 35, item 8): the SSA encoding round-trips
    /// any bytes; decoding any text never traps; a collection header is bounded; FreeType reads the bytes as an
    /// attachment, and HarfBuzz cuts a subset of any face it finds.
    static func checkFonts(_ bytes: [UInt8]) {
        let data = Data(bytes.prefix(1 << 16))
        let encoded = SSAFontEncoding.encode(data)
        guard SSAFontEncoding.decode(encoded) == data else { promiseBroken("[Fonts] encoding lost bytes") }
        _ = SSAFontEncoding.decode(bytes.prefix(4096))
        let collection = FontCollection(data: data)
        if collection.indexes.count > FontCollection.faceLimit { promiseBroken("a collection read past its limit") }
        guard
            let catalog = try? FontCatalog(setup: FontSetup(systemFonts: false)).adding(attachments: [
                FontAttachment(name: "fuzz.ttf", data: data)
            ])
        else { return }
        for face in catalog.faces.prefix(2) {
            _ = try? FontSubsetter.subset(
                face.source, index: face.index, data: data, characters: ["A", "中", "あ", " "])
        }
    }

    /// The library's SQL from hostile text (issue 35, item 8): the text stored as dialogue lines, then searched
    /// for with a query made of it, in a library of the fuzz run's own. Errors are expected; a trap is a bug.
    static func checkLibrary(_ text: String) {
        guard let library = fuzzLibrary else { return }
        let lines = text.split(separator: "\n").prefix(16).enumerated().map { index, line in
            IndexedLine(
                startMs: index * 1000, endMs: index * 1000 + 500, style: "Default", text: String(line.prefix(512)))
        }
        let file = IndexedFile(
            path: "/fuzz/\(text.utf8.count).srt", size: Int64(text.utf8.count), mtime: 0,
            sources: [
                IndexedSource(
                    source: SubtitleSourceRecord(mediaFileId: 0, kind: .sidecar, codec: "srt"), lines: Array(lines))
            ])
        try? library.store([file])
        if let query = try? DialogueQuery(String(text.prefix(64))) {
            _ = try? library.search(query, options: DialogueSearchOptions(limit: 5, context: 1))
            _ = try? library.search(
                query, options: DialogueSearchOptions(pathPattern: String(text.prefix(16)), limit: 5))
        }
    }

    /// The fuzz run's library, in a temporary folder (nil when none can be made).
    static let fuzzLibrary: LibraryDatabase? = {
        let path = NSTemporaryDirectory() + "subfix-fuzz-\(getpid()).sqlite"
        return try? LibraryDatabase(path: path, mode: .create)
    }()
}
