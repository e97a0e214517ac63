import Foundation
import SubCore
import TestSupport
import Testing

@Suite struct InputFileTests {
    /// A FIFO with no writer: a blocking `open` would never return; this one is refused at once.
    @Test func fifosAndFoldersAreRefusedWithoutBlocking() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-input")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("f.srt").path
        try #require(mkfifo(fifo, 0o644) == 0)
        #expect(throws: InputFileError(file: fifo, problem: .notRegular(kind: "a FIFO (named pipe)"))) {
            try InputFile.read(fifo)
        }
        #expect(throws: InputFileError(file: folder.path, problem: .notRegular(kind: "a folder"))) {
            try InputFile.read(folder.path)
        }
        #expect(throws: InputFileError(file: "/dev/zero", problem: .notRegular(kind: "a character device"))) {
            try InputFile.read("/dev/zero")
        }
        #expect(
            InputFileError(file: "d", problem: .notRegular(kind: "a folder")).description
                == "d: cannot read: a folder, not a regular file")
    }

    /// A file over the limit is refused from its size, before anything is read.
    @Test func filesOverTheLimitAreRefused() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-input")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.srt").path
        try Data(repeating: 0x41, count: 3000).write(to: URL(fileURLWithPath: path))
        #expect(throws: InputFileError(file: path, problem: .tooLarge(size: 3000, limit: 2048))) {
            try InputFile.read(path, limit: 2048)
        }
        #expect(try InputFile.read(path, limit: 3000).bytes.count == 3000)
        #expect(
            InputFileError(file: nil, problem: .tooLarge(size: 3000, limit: 2048)).description
                == "cannot read: larger than the limit of 2 KiB (3000 bytes or more; raise it with SUBFIX_MAX_INPUT_SIZE)"
        )
    }

    /// Data that keeps coming past what `fstat` said (a growing file, a /proc file) stops at the limit.
    @Test func streamsThatKeepGoingStopAtTheLimit() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let chunk = [UInt8](repeating: 0x42, count: 5000)
        #expect(chunk.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == 5000)
        close(ends[1])
        #expect(throws: InputFileError(file: nil, problem: .tooLarge(size: 5000, limit: 1000))) {
            try InputFile.read(descriptor: ends[0], expected: 0, limit: 1000)
        }
    }

    @Test func sizesParse() {
        #expect(InputFile.parseSize("1000") == 1000)
        #expect(InputFile.parseSize("4K") == 4096)
        #expect(InputFile.parseSize("2g") == 2 << 30)
        #expect(InputFile.parseSize("0") == nil)
        #expect(InputFile.parseSize("lots") == nil)
        #expect(InputFile.parseSize("99999999999T") == nil)
    }
}

@Suite struct PathBytesTests {
    @Test func invalidBytesRoundTrip() {
        let bytes: [UInt8] = Array("bad".utf8) + [0xFF, 0xFE, 0xC3] + Array("é.srt".utf8)
        let name = PathBytes.decode(bytes)
        #expect(PathBytes.encode(name) == bytes)
        #expect(name.hasSuffix("é.srt"))
        #expect(PathBytes.decode(Array("plain 名前.srt".utf8)) == "plain 名前.srt")
        #expect(MessageText.escaped(name) == "bad\\xff\\xfe\\xc3é.srt")
    }

    /// A name that is not UTF-8 is listed, opened and read by its bytes.
    @Test func namesThatAreNotUTF8AreListedAndRead() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-bytes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = PathBytes.decode(Array("bad".utf8) + [0xFF] + Array(".srt".utf8))
        let path = folder.path + "/" + name
        let descriptor = PathBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        try #require(descriptor >= 0)
        #expect(write(descriptor, "hi", 2) == 2)
        close(descriptor)
        #expect(try PathBytes.names(inFolder: folder.path).get() == [name])
        #expect(try InputFile.read(path).bytes == Array("hi".utf8))
    }
}

@Suite struct MessageTextTests {
    @Test func controlCharactersAreEscaped() {
        #expect(MessageText.escaped("plain 文字") == "plain 文字")
        #expect(MessageText.escaped("a\u{1B}]0;title\u{07}b") == "a\\x1b]0;title\\x07b")
        #expect(MessageText.escaped("x\u{1B}[31my") == "x\\x1b[31my")
        #expect(MessageText.escaped("1\n2\r3\t4\u{0C}5\u{7F}") == "1\\n2\\r3\\t4\\x0c5\\x7f")
        #expect(MessageText.escaped("a\u{2028}b\u{2029}c\u{85}d\u{202E}e") == "a\\u{2028}b\\u{2029}c\\u{85}d\\u{202e}e")
    }
}
