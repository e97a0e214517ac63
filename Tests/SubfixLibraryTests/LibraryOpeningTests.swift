import Dispatch
import Foundation
import SubDB
import Synchronization
import TestSupport
import Testing

@testable import SubfixLibrary

/// How the library is opened: writers migrate one process at a time; readers never migrate.
@Suite struct LibraryOpeningTests {
    /// Two writers opening a library that does not exist yet, at once (as two `subfix index` runs do): both
    /// succeed, each migration runs once.
    @Test(arguments: 0..<5)
    func concurrentCreationMigratesOnce(round: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("race-\(round).sqlite")
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                do {
                    let library = try LibraryDatabase(path: path, mode: .create)
                    try library.prepareDialogueIndex(foldsChinese: false)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(failures.withLock { $0 } == [])
        let library = try LibraryDatabase(path: path, mode: .readOnly)
        let applied = try library.reader.read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
        }
        #expect(applied == LibraryDatabase.migrator.migrationIdentifiers)
    }

    /// A reader opens a library without writing to it: an empty file stays empty and says what to run.
    @Test func readOnlyNeverMigrates() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: LibraryError.olderSchema(path: path)) { try LibraryDatabase(path: path, mode: .readOnly) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        #expect(
            "\(LibraryError.olderSchema(path: path))"
                == "\(path): the library was written by an older subfix (run `subfix index` to update it)")
        #expect(throws: LibraryError.missing(path: path + "-none")) {
            try LibraryDatabase(path: path + "-none", mode: .readOnly)
        }
    }

    /// A library written by subfix 0.1 (lines with a foreign key and a source index, a dialogue index with
    /// positions) is searched only once a writer has migrated it: lines copied with their ids and named by
    /// ranges, the index made again as pairs without positions or sizes, folding kept.
    @Test(arguments: [false, true])
    func aLibraryOfSubfix01IsMigratedByTheNextWriter(foldsChinese: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in db.add(tokenizer: DialogueTokenizer.self) }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try LibraryDatabase.migrator.migrate(queue, upTo: "library-v1")
            try queue.write { db in
                let tokenize = foldsChinese ? "'subfix fold'" : "'subfix'"
                try db.execute(
                    sql: """
                        INSERT INTO media_file (id, path, size, mtime) VALUES (1, '/a.srt', 1, 1), (2, '/b.srt', 1, 1);
                        INSERT INTO subtitle_source (id, media_file_id, kind, codec) VALUES
                            (1, 1, 'sidecar', 'srt'), (2, 2, 'sidecar', 'srt'), (3, 2, 'embedded', 'ass');
                        INSERT INTO dialogue_line (id, source_id, start_ms, end_ms, style, text) VALUES
                            (1, 1, 0, 900, 'Default', '東京都に'), (2, 1, 1000, 1900, 'Default', '你，好'),
                            (3, 1, 2000, 2900, 'Default', '你好吗'), (4, 2, 0, 900, 'Default', '你好');
                        CREATE VIRTUAL TABLE dialogue_fts USING fts5(
                            text, content='dialogue_line', content_rowid='id', tokenize=\(tokenize));
                        INSERT INTO dialogue_fts(dialogue_fts) VALUES ('rebuild');
                        """)
            }
        }
        #expect(throws: LibraryError.olderSchema(path: path)) { try LibraryDatabase(path: path, mode: .readOnly) }
        let writer = try LibraryDatabase(path: path, mode: .existing)
        #expect(try writer.dialogueIndexFoldsChinese() == foldsChinese)
        let reader = try LibraryDatabase(path: path, mode: .readOnly)
        let (sql, ranges, indexes) = try reader.reader.read { db in
            (
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'dialogue_fts'"),
                try Row.fetchAll(db, sql: "SELECT first_line_id, last_line_id FROM subtitle_source ORDER BY id")
                    .map { [$0[0] as Int64?, $0[1] as Int64?] },
                try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('dialogue_line')")
            )
        }
        #expect(sql?.contains("detail=none") == true && sql?.contains("columnsize=0") == true)
        #expect(ranges == [[1, 3], [4, 4], [nil, nil]])  // a source without lines has no range
        #expect(indexes.isEmpty)
        let options = DialogueSearchOptions(limit: 10)
        #expect(try reader.search(try DialogueQuery("京都"), options: options).map(\.line.text) == ["東京都に"])
        #expect(try reader.search(try DialogueQuery("你好"), options: options).map(\.line.text) == ["你好", "你好吗"])
        #expect(try reader.search(try DialogueQuery(foldsChinese ? "东京都" : "東京都"), options: options).count == 1)
        let context = DialogueSearchOptions(limit: 10, context: 1)
        let hit = try #require(try reader.search(try DialogueQuery("你好吗"), options: context).first)
        #expect(hit.before.map(\.text) == ["你，好"] && hit.after.isEmpty)
        // Removing a file removes its lines and their index entries, through the range.
        #expect(try writer.remove(paths: ["/a.srt"]) == 1)
        #expect(try writer.counts().lines == 1)
        #expect(try reader.search(try DialogueQuery("你"), options: options).map(\.line.text) == ["你好"])
        #expect(try writer.remove(paths: ["/b.srt"]) == 1)
        #expect(try writer.counts().lines == 0)
        try writer.pool.write { db in
            try db.execute(sql: "INSERT INTO dialogue_fts(dialogue_fts, rank) VALUES ('integrity-check', 1)")
        }
    }

    /// A file that is not a database (or a truncated one) fails the read-only open and is left as it was.
    @Test(arguments: [false, true])
    func brokenFilesFailReadOnlyOpenAndStayUntouched(truncated: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("bad.sqlite")
        if truncated {
            let writer = try LibraryDatabase(path: directory.path("good.sqlite"), mode: .create)
            try writer.prepareDialogueIndex(foldsChinese: false)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: writer.path))
            try bytes.prefix(1500).write(to: URL(fileURLWithPath: path))
        } else {
            try Data(String(repeating: "not a database\n", count: 300).utf8).write(to: URL(fileURLWithPath: path))
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: (any Error).self) { try LibraryDatabase(path: path, mode: .readOnly) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// A library opened read-only reads, and refuses writes with a clear error.
    @Test func readOnlyReadsAndRefusesWrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("lib.sqlite")
        let writer = try LibraryDatabase(path: path, mode: .create)
        try writer.prepareDialogueIndex(foldsChinese: false)
        let reader = try LibraryDatabase(path: path, mode: .readOnly)
        #expect(try reader.dialogueIndexFoldsChinese() == false)
        #expect(throws: LibraryError.readOnly(path: path)) { try reader.prepareDialogueIndex(foldsChinese: false) }
    }
}
