import Foundation
import SubCore
import TestSupport
import Testing

@Suite struct AtomicFileTests {
    private func names(_ folder: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    private func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    private func inode(_ path: String) -> ino_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_ino : nil
    }

    /// Nothing is at the destination until `commit`, which replaces what was there and sets the mode; the
    /// temporary file is gone afterwards.
    @Test func commitReplacesInOneStepWithTheMode() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("a.srt")
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let file = try AtomicFile(destination: path, mode: 0o640)
        file.write(Array("new".utf8)[...])
        #expect(try text(path) == "old")
        #expect(try names(folder).count == 2)
        try file.commit()
        #expect(try text(path) == "new")
        #expect(try names(folder) == ["a.srt"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }

    /// A file released without `commit` leaves nothing behind, and the destination as it was.
    @Test func anAbandonedFileLeavesNothing() throws {
        let folder = try TemporaryDirectory()
        do {
            let file = try AtomicFile(destination: folder.path("b.ass"), mode: 0o644)
            file.write(Array(repeating: 65, count: 3 << 20)[...])
        }
        #expect(try names(folder) == [])
    }

    /// `keepingOriginal` gives the original its backup name as a hard link before the new file is renamed over
    /// the path; a backup that is another file is never overwritten, one holding the same bytes is kept.
    @Test func keepingTheOriginal() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("c.srt")
        try "original".write(toFile: path, atomically: false, encoding: .utf8)
        let before = inode(path)
        let file = try AtomicFile(destination: path, mode: 0o644)
        file.write(Array("fixed".utf8)[...])
        try file.commit(.keepingOriginal(backup: path + ".orig"))
        #expect(try text(path) == "fixed")
        #expect(try text(path + ".orig") == "original")
        #expect(inode(path + ".orig") == before)

        // The backup now holds other bytes than the file: refused, nothing changed, no temporary file left.
        let again = try AtomicFile(destination: path, mode: 0o644)
        again.write(Array("fixed twice".utf8)[...])
        #expect(AtomicFile.backupConflict(of: path, backup: path + ".orig") != nil)
        #expect(throws: FileWriteError.backupExists(file: path, backup: path + ".orig")) {
            try again.commit(.keepingOriginal(backup: path + ".orig"))
        }
        #expect(try text(path) == "fixed")
        #expect(try text(path + ".orig") == "original")

        // A backup that is a copy of the file (a run killed between the two steps) is kept as it is.
        try "fixed".write(toFile: folder.path("d.srt"), atomically: false, encoding: .utf8)
        try "fixed".write(toFile: folder.path("d.srt.orig"), atomically: false, encoding: .utf8)
        #expect(AtomicFile.backupConflict(of: folder.path("d.srt"), backup: folder.path("d.srt.orig")) == nil)
        let third = try AtomicFile(destination: folder.path("d.srt"), mode: 0o644)
        third.write(Array("third".utf8)[...])
        try third.commit(.keepingOriginal(backup: folder.path("d.srt.orig")))
        #expect(try text(folder.path("d.srt")) == "third")
        #expect(try names(folder) == ["c.srt", "c.srt.orig", "d.srt", "d.srt.orig"])
    }

    /// `commitWithoutReplacing` takes the first free alternative name and never touches an existing file.
    @Test func withoutReplacingTakesTheNextFreeName() throws {
        let folder = try TemporaryDirectory()
        try "taken".write(toFile: folder.path("font.ttf"), atomically: false, encoding: .utf8)
        let file = try AtomicFile(destination: folder.path("font.ttf"), mode: 0o644)
        file.write(Array("font".utf8)[...])
        let used = try file.commitWithoutReplacing { folder.path("font_\($0).ttf") }
        #expect(used == folder.path("font_1.ttf"))
        #expect(try text(folder.path("font.ttf")) == "taken")
        #expect(try text(used) == "font")
        #expect(try names(folder) == ["font.ttf", "font_1.ttf"])
    }

    /// A folder that cannot take the temporary file fails at once, naming the destination.
    @Test func aMissingFolderFails() {
        #expect(throws: FileWriteError.system(file: "/nonexistent-subfix/x.srt", action: "cannot write", code: ENOENT))
        {
            _ = try AtomicFile(destination: "/nonexistent-subfix/x.srt", mode: 0o644)
        }
        let error = FileWriteError.system(file: "/x/y.srt", action: "cannot write", code: ENOSPC)
        #expect(error.description == "/x/y.srt: cannot write: No space left on device")
    }

    /// Staged files appear only when the batch commits, all of them, in key order; a file whose folder went
    /// away is reported under its key and the others are still placed.
    /// The same with one `fdatasync` per file and with one `syncfs` for the batch (`fileSystemSyncThreshold`).
    @Test(arguments: [1000, 1])
    func aBatchPlacesEverythingAtOnce(fileSystemSyncThreshold: Int) throws {
        let folder = try TemporaryDirectory()
        let sub = folder.path("sub")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)
        let batch = CommitBatch(
            limit: 3, maximumDelay: .seconds(3600), fileSystemSyncThreshold: fileSystemSyncThreshold)
        var due: [Bool] = []
        for (key, path) in [(2, folder.path("b")), (0, folder.path("a")), (1, sub + "/gone")] {
            let file = try AtomicFile(destination: path, mode: 0o644)
            file.write(Array("file \(key)".utf8)[...])
            due.append(batch.add(try file.stage(), key: key))
        }
        #expect(due == [false, false, true])
        #expect(!FileManager.default.fileExists(atPath: folder.path("a")))
        // The folder of key 1 is replaced by a file: its rename cannot succeed.
        let held = try FileManager.default.contentsOfDirectory(atPath: sub)
        for name in held { try FileManager.default.removeItem(atPath: sub + "/" + name) }
        try FileManager.default.removeItem(atPath: sub)
        let outcome = batch.commit()
        #expect(outcome.keys == [0, 1, 2])
        #expect(Array(outcome.failures.keys) == [1])
        #expect(try text(folder.path("a")) == "file 0")
        #expect(try text(folder.path("b")) == "file 2")
        #expect(try names(folder) == ["a", "b"])
        #expect(batch.commit().keys.isEmpty)
    }
}
