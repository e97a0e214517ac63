import Foundation
import SubDB
import TestSupport

@testable import SubfixLibrary

/// A library in a fresh temporary directory.
struct TestLibrary {
    let directory: TemporaryDirectory
    let library: LibraryDatabase

    init(foldsChinese: Bool = false) throws {
        directory = try TemporaryDirectory()
        library = try LibraryDatabase(path: directory.path("lib/library.sqlite"), mode: .create)
        try library.prepareDialogueIndex(foldsChinese: foldsChinese)
    }

    /// Stores one sidecar file holding `texts`, a second apart.
    func store(path: String, texts: [String], language: String? = nil, mtime: Int64 = 1) throws {
        try library.store([Self.file(path: path, texts: texts, language: language, mtime: mtime)])
    }

    static func file(path: String, texts: [String], language: String? = nil, mtime: Int64 = 1) -> IndexedFile {
        let lines = texts.enumerated().map { index, text in
            IndexedLine(startMs: index * 1000, endMs: index * 1000 + 900, style: "Default", text: text)
        }
        let source = SubtitleSourceRecord(mediaFileId: 0, kind: .sidecar, codec: "srt", language: language)
        return IndexedFile(path: path, size: 10, mtime: mtime, sources: [IndexedSource(source: source, lines: lines)])
    }

    /// The texts of the hits for `query`, highlighted with `[...]`.
    func search(_ query: String, options: DialogueSearchOptions = DialogueSearchOptions(limit: 1000)) throws
        -> [String]
    {
        try library.search(try DialogueQuery(query), options: options).map(Self.bracketed)
    }

    static func bracketed(_ hit: DialogueHit) -> String {
        hit.segments.map { $0.isMatch ? "[" + $0.text + "]" : $0.text }.joined()
    }
}
