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
