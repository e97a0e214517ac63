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

    /// A library whose dialogue index keeps positions (subfix 0.1's) is searched only once a writer has made the
    /// index again, as pairs without positions; its lines and folding are kept.
    @Test(arguments: [false, true])
    func anIndexWithPositionsIsMadeAgainByTheNextWriter(foldsChinese: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        do {
            let test = try LibraryDatabase(path: path, mode: .create)
            try test.prepareDialogueIndex(foldsChinese: foldsChinese)
            try test.store([TestLibrary.file(path: "/a.srt", texts: ["東京都に", "你，好", "你好吗"])])
            // What subfix 0.1 left: a table with positions, and no record of the new migration.
            try test.pool.write { db in
                let tokenize = foldsChinese ? "'subfix fold'" : "'subfix'"
                try db.execute(
                    sql: """
                        DROP TABLE dialogue_fts;
                        CREATE VIRTUAL TABLE dialogue_fts USING fts5(
                            text, content='dialogue_line', content_rowid='id', tokenize=\(tokenize));
                        INSERT INTO dialogue_fts(dialogue_fts) VALUES ('rebuild');
                        DELETE FROM grdb_migrations WHERE identifier = 'library-v2-dialogue-pairs';
                        """)
            }
        }
        #expect(throws: LibraryError.olderSchema(path: path)) { try LibraryDatabase(path: path, mode: .readOnly) }
        let writer = try LibraryDatabase(path: path, mode: .existing)
        #expect(try writer.dialogueIndexFoldsChinese() == foldsChinese)
        let reader = try LibraryDatabase(path: path, mode: .readOnly)
        let sql = try reader.reader.read {
            try String.fetchOne($0, sql: "SELECT sql FROM sqlite_master WHERE name = 'dialogue_fts'")
        }
        #expect(sql?.contains("detail=none") == true)
        let options = DialogueSearchOptions(limit: 10)
        #expect(try reader.search(try DialogueQuery("京都"), options: options).map(\.line.text) == ["東京都に"])
        #expect(try reader.search(try DialogueQuery("你好"), options: options).map(\.line.text) == ["你好吗"])
        #expect(try reader.search(try DialogueQuery(foldsChinese ? "东京都" : "東京都"), options: options).count == 1)
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
