import Foundation
import SubCore
import Testing

@Suite struct AttachmentWriterTests {
    @Test(arguments: [
        ("../../etc/passwd", "passwd"),
        ("a/b.ttf", "b.ttf"),
        ("fonts\\windows\\simhei.ttf", "simhei.ttf"),
        (".hidden", "hidden"),
        ("...", "attachment-7.ttf"),
        ("", "attachment-7.ttf"),
        ("/", "attachment-7.ttf"),
        ("..", "attachment-7.ttf"),
        ("-rf.ttf", "rf.ttf"),
        ("ok\u{0}name\u{1b}.ttf", "okname.ttf"),
        ("C:evil?.ttf", "C_evil_.ttf"),
        ("微软雅黑.ttf", "微软雅黑.ttf"),
    ])
    func safeNames(raw: String, expected: String) {
        #expect(SafeFileName.make(raw, fallback: "attachment-7.ttf") == expected)
    }

    @Test func longNamesAreCut() {
        let name = SafeFileName.make(String(repeating: "字", count: 300) + ".ttf", fallback: "x")
        #expect(name.utf8.count <= SafeFileName.maximumBytes)
        #expect(!name.isEmpty)
    }

    @Test func numberedAlternatives() {
        #expect(SafeFileName.numbered("font.ttf", 1) == "font-1.ttf")
        #expect(SafeFileName.numbered("font", 2) == "font-2")
        #expect(SafeFileName.numbered("archive.tar.gz", 3) == "archive.tar-3.gz")
    }

    /// Attachments whose stored names try to escape the folder, hide, or collide, made with ffmpeg `-attach`.
    @Test func hostileAttachmentNamesStayInTheFolderAndNeverOverwrite() throws {
        let directory = try MediaFixtures.temporaryDirectory()
        let payloads = (0..<6).map { Data("font payload \($0) ".utf8) + Data(repeating: UInt8($0), count: 100 + $0) }
        var arguments = ["-f", "lavfi", "-i", "testsrc=size=64x36:rate=5:duration=1", "-map", "0:v", "-c:v", "mpeg4"]
        for (number, payload) in payloads.enumerated() {
            let url = directory.appendingPathComponent("payload\(number).bin")
            try payload.write(to: url)
            arguments += ["-attach", url.path]
        }
        let names = ["../../etc/passwd", "a/b.ttf", ".hidden", "dup.ttf", "dup.ttf", "keep.ttf"]
        for (number, name) in names.enumerated() {
            arguments += [
                "-metadata:s:t:\(number)", "filename=\(name)", "-metadata:s:t:\(number)", "mimetype=font/ttf",
            ]
        }
        let mkv = directory.appendingPathComponent("hostile.mkv").path
        try MediaFixtures.ffmpeg(arguments + [mkv])

        let media = try MediaFile(path: mkv)
        #expect(media.attachments.map(\.fileName) == names)
        let out = directory.appendingPathComponent("out/fonts", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let existing = Data("already here".utf8)
        try existing.write(to: out.appendingPathComponent("keep.ttf"))

        let written = try AttachmentWriter.write(media.attachments, of: media, to: out)
        #expect(
            written.map(\.url.lastPathComponent) == ["passwd", "b.ttf", "hidden", "dup.ttf", "dup-1.ttf", "keep-1.ttf"])
        for (item, payload) in zip(written, payloads) {
            #expect(item.url.deletingLastPathComponent().standardizedFileURL.path == out.standardizedFileURL.path)
            #expect(try Data(contentsOf: item.url) == payload)
        }
        #expect(try Data(contentsOf: out.appendingPathComponent("keep.ttf")) == existing)
        let listing = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(listing == ["b.ttf", "dup-1.ttf", "dup.ttf", "hidden", "keep-1.ttf", "keep.ttf", "passwd"])
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("etc/passwd").path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path) == [
                "fonts"
            ])
    }

    @Test func sampleFontIsWrittenUnderItsOwnName() throws {
        let directory = try MediaFixtures.temporaryDirectory()
        let media = try MediaFile(path: MediaFixtures.mkv)
        let written = try AttachmentWriter.write(media.attachments, of: media, to: directory)
        #expect(written.map(\.url.lastPathComponent) == ["NotoSansCJKsc-Sample.otf"])
        let font = try Data(contentsOf: URL(fileURLWithPath: MediaFixtures.source("NotoSansCJKsc-Sample.otf")))
        #expect(try Data(contentsOf: written[0].url) == font)
    }
}
