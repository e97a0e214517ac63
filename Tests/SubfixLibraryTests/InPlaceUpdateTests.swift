import Foundation
import SubDB
import TestSupport
import Testing

@testable import SubfixLibrary

/// A file indexed again with the same sources and line counts is updated in place: only changed lines are written,
/// and only lines whose text changed are indexed again. Any other change stores the file again from scratch.
@Suite struct InPlaceUpdateTests {
    static func ids(_ test: TestLibrary) throws -> [Int64] {
        try test.library.pool.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM dialogue_line ORDER BY id") }
    }

    static func checkIndex(_ test: TestLibrary) throws {
        try test.library.pool.write { db in
            try db.execute(sql: "INSERT INTO dialogue_fts(dialogue_fts, rank) VALUES ('integrity-check', 1)")
        }
    }

    /// The index's own storage: unchanged when no statement wrote to it.
    static func indexData(_ test: TestLibrary) throws -> [Row] {
        try test.library.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, block FROM dialogue_fts_data ORDER BY id")
        }
    }

    static func file(path: String, lines: [(Int, String)], mtime: Int64) -> IndexedFile {
        let indexed = lines.map { IndexedLine(startMs: $0.0, endMs: $0.0 + 900, style: "Default", text: $0.1) }
        let source = SubtitleSourceRecord(mediaFileId: 0, kind: .sidecar, codec: "srt", language: "zh")
        return IndexedFile(path: path, size: 10, mtime: mtime, sources: [IndexedSource(source: source, lines: indexed)])
    }

    @Test func anEditedLineIsIndexedAgainInPlace() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["你好世界", "再见", "see you"])
        try test.store(path: "/b.srt", texts: ["别的文件"])
        let before = try Self.ids(test)
        try test.store(path: "/a.srt", texts: ["你好世界", "再会", "see you"], mtime: 2)
        #expect(try Self.ids(test) == before)
        #expect(try test.search("再会") == ["[再会]"])
        #expect(try test.search("再见").isEmpty)
        #expect(try test.search("你好") == ["[你好]世界"])
        #expect(try test.library.indexedFiles()["/a.srt"]?.mtime == 2)
        try Self.checkIndex(test)
    }

    @Test func newTimesOrStylesLeaveTheIndexAlone() throws {
        let test = try TestLibrary()
        try test.library.store([Self.file(path: "/a.srt", lines: [(0, "你好"), (1000, "再见")], mtime: 1)])
        let data = try Self.indexData(test)
        try test.library.store([Self.file(path: "/a.srt", lines: [(500, "你好"), (1500, "再见")], mtime: 2)])
        #expect(try Self.indexData(test) == data)
        let hits = try test.library.search(try DialogueQuery("再见"), options: DialogueSearchOptions())
        #expect(hits.map(\.line.startMs) == [1500])
        #expect(hits.map(\.line.endMs) == [2400])
        try Self.checkIndex(test)
    }

    @Test(arguments: [
        ["你好", "再见", "第三行"],  // a line added
        ["你好"],  // a line removed
        [String](),  // every line removed
    ])
    func anotherShapeIsStoredAgainFromScratch(texts: [String]) throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["你好", "再见"])
        try test.store(path: "/b.srt", texts: ["后来的"])
        let before = try Self.ids(test)
        try test.store(path: "/a.srt", texts: texts, mtime: 2)
        let after = try Self.ids(test)
        // /a.srt's lines were deleted and stored again after /b.srt's.
        #expect(after.count == texts.count + 1)
        #expect(after.first == before.last)
        #expect(after.dropFirst().allSatisfy { $0 > before.max() ?? 0 })
        #expect(try test.search("再见").count == (texts.contains("再见") ? 1 : 0))
        #expect(try test.library.counts().sources == 2)
        try Self.checkIndex(test)
    }

    @Test func anotherNumberOfSourcesIsStoredAgainFromScratch() throws {
        let test = try TestLibrary()
        let line = [IndexedLine(startMs: 0, endMs: 900, style: "", text: "轨道")]
        let track = { (index: Int) in
            IndexedSource(
                source: SubtitleSourceRecord(
                    mediaFileId: 0, kind: .embedded, codec: "ass", language: "zh", playerIndex: index + 1,
                    subtitleIndex: index),
                lines: line)
        }
        try test.library.store([IndexedFile(path: "/m.mkv", size: 1, mtime: 1, sources: [track(0)])])
        try test.library.store([IndexedFile(path: "/m.mkv", size: 1, mtime: 2, sources: [track(0), track(1)])])
        #expect(try test.library.counts().sources == 2)
        #expect(try test.search("轨道").count == 2)
        try Self.checkIndex(test)
    }

    /// A library whose lines were deleted by hand (a gap in a source's id range) is never patched in place.
    @Test func aSourceWithAGapIsStoredAgainFromScratch() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["一", "二", "三"])
        try test.library.pool.write { db in
            // Both rows go, and one comes back under another id: the count matches, the ids do not.
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM dialogue_line ORDER BY id")
            try db.execute(sql: "DELETE FROM dialogue_line WHERE id = ?", arguments: [ids[1]])
            try db.execute(
                sql:
                    "INSERT INTO dialogue_line (id, source_id, start_ms, end_ms, style, text) VALUES (?, 1, 0, 1, '', '二')",
                arguments: [ids[2] + 10])
            try db.execute(
                sql: "INSERT INTO dialogue_fts(rowid, text) VALUES (?, '二')", arguments: [ids[2] + 10])
        }
        try test.store(path: "/a.srt", texts: ["一", "二", "四"], mtime: 2)
        #expect(try test.search("四") == ["[四]"])
        #expect(try test.search("三").isEmpty)
        try Self.checkIndex(test)
    }

    /// The oracle: files changed at random over several runs (edits, new times, added and removed lines, new
    /// content, new files) search exactly like a library that indexed their last versions once.
    @Test func randomChangesSearchLikeAFreshIndex() throws {
        var generator = SplitMix64(state: 18)
        let alphabet = Array("你好再见世界的一是不了人我在有他这中大来上个们到说国和地也子时道出而要于就下得可")
        func text() -> String {
            String(
                (0..<Int.random(in: 1...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        var files: [String: [(Int, String)]] = [:]
        for index in 0..<12 {
            files["/f\(index).srt"] = (0..<Int.random(in: 1...6, using: &generator)).map { ($0 * 1000, text()) }
        }
        let test = try TestLibrary()
        var mtime: Int64 = 1
        try test.library.store(files.map { Self.file(path: $0.key, lines: $0.value, mtime: mtime) })
        for _ in 0..<6 {
            mtime += 1
            var changed: [IndexedFile] = []
            for path in files.keys.sorted() where Bool.random(using: &generator) {
                var lines = files[path]!
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: lines[Int.random(in: 0..<lines.count, using: &generator)].1 = text()
                case 1: lines = lines.map { ($0.0 + 250, $0.1) }
                case 2: lines.append((lines.count * 1000, text()))
                case 3: if lines.count > 1 { lines.removeLast() }
                default: lines = lines.map { ($0.0, text()) }
                }
                files[path] = lines
                changed.append(Self.file(path: path, lines: lines, mtime: mtime))
            }
            try test.library.store(changed)
        }
        let fresh = try TestLibrary()
        try fresh.library.store(files.keys.sorted().map { Self.file(path: $0, lines: files[$0]!, mtime: mtime) })
        func found(_ library: TestLibrary, _ query: String) throws -> [String] {
            try library.library.search(
                try DialogueQuery(query), options: DialogueSearchOptions(limit: 100_000, rankWindow: 0)
            )
            .map { "\($0.path) \($0.line.startMs) \($0.line.text)" }.sorted()
        }
        for query in alphabet.map(String.init) + ["你好", "再见", "世界", "的一"] {
            #expect(try found(test, query) == found(fresh, query), "\(query)")
        }
        #expect(try test.library.counts().lines == fresh.library.counts().lines)
        try Self.checkIndex(test)
    }

    /// A library made before `library-v3-text-update-trigger` (its update trigger fired on any column) gets the
    /// new trigger from the next writer, and keeps its lines and index.
    @Test func theNextWriterNarrowsAnOlderLibrarysUpdateTrigger() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["你好", "再见"])
        let path = test.directory.path("lib/library.sqlite")
        try test.library.pool.write { db in
            try db.execute(
                sql: """
                    DROP TRIGGER dialogue_line_au;
                    CREATE TRIGGER dialogue_line_au AFTER UPDATE ON dialogue_line BEGIN
                        INSERT INTO dialogue_fts(dialogue_fts, rowid, text) VALUES ('delete', old.id, old.text);
                        INSERT INTO dialogue_fts(rowid, text) VALUES (new.id, new.text);
                    END;
                    DELETE FROM grdb_migrations WHERE identifier = 'library-v3-text-update-trigger';
                    """)
        }
        #expect(throws: LibraryError.olderSchema(path: path)) { try LibraryDatabase(path: path, mode: .readOnly) }
        let writer = try LibraryDatabase(path: path, mode: .create)
        let trigger = try writer.reader.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'dialogue_line_au'")
        }
        #expect(trigger?.contains("AFTER UPDATE OF text ON dialogue_line") == true)
        #expect(try writer.search(try DialogueQuery("再见"), options: DialogueSearchOptions()).count == 1)
    }
}
