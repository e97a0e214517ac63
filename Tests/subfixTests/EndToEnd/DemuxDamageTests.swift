import Foundation
import Testing

/// One rule for damage on every media path (issue 35, items 3 and 4): the demuxer's errors and the last
/// timestamp read, never a decoder's complaint. A cut MKV never remuxes with exit 0; a bad video frame never
/// fails subtitle extraction; an empty attachment fails nothing.
@Suite struct DemuxDamageTests {
    static let source = SubfixBinary.samples + "/tram.mkv"

    /// Video packets in a Matroska file, as ffprobe counts them.
    static func videoPackets(_ path: String) throws -> Int {
        let run = try SubfixBinary.shell(
            "ffprobe -v error -count_packets -select_streams v -show_entries stream=nb_read_packets -of csv=p=0 '"
                + path + "'", in: "/")
        return Int(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The issue's cut at byte 30,465 gave "changed" and a file with 6 of 125 video frames in place of the
    /// original. Now it fails, the original stays, and no backup is made.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe")))
    func theIssuesCutFailsInPlace() throws {
        let folder = try SubfixBinary.folder("cut-inplace")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cut = try Data(contentsOf: URL(fileURLWithPath: Self.source)).prefix(30_465)
        try cut.write(to: URL(fileURLWithPath: folder + "/t.mkv"))
        let run = try SubfixBinary.run(["fix", "t.mkv", "--remux", "--in-place"], in: folder)
        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                "subfix: error: t.mkv: cannot be remuxed: the file is damaged or truncated (File ended prematurely"
                    + " at pos. 30465 (0x7701)); nothing written"
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["t.mkv"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/t.mkv")) == cut)
    }

    /// Every cut point: a remux either fails, or writes every video frame of the source.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe")))
    func noCutRemuxesShort() throws {
        let folder = try SubfixBinary.folder("cuts")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.source))
        let whole = try Self.videoPackets(Self.source)
        try #require(whole == 125)
        for cut in stride(from: 20_000, to: bytes.count, by: 1_499) {
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: folder + "/c.mkv"))
            try? FileManager.default.removeItem(atPath: folder + "/o")
            let run = try SubfixBinary.run(["fix", "c.mkv", "--remux", "--out", "o", "-q"], in: folder)
            if run.status == 0 {
                #expect(try Self.videoPackets(folder + "/o/c.mkv") == whole, "cut at \(cut) remuxed short")
            } else {
                #expect(run.status == 1, "cut at \(cut): \(run.stderr)")
                #expect(!FileManager.default.fileExists(atPath: folder + "/o/c.mkv"))
            }
        }
    }

    /// A flipped bit inside an H.264 frame: the decoder complains while the probe decodes it, but the subtitle
    /// packets are whole. Extraction and sidecar fix succeed with the clean file's bytes; the remux copies it.
    @Test func aBadVideoFrameFailsNoSubtitlePath() throws {
        let folder = try SubfixBinary.folder("flip")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.source))
        try bytes.write(to: URL(fileURLWithPath: folder + "/tram.mkv"))
        let clean = try SubfixBinary.run(["extract", "tram.mkv", "--all", "--out", "clean"], in: folder)
        try #require(clean.status == 0)
        // The first video keyframe's slice data: damaging it makes libavcodec's H.264 decoder log errors.
        let keyframe = try #require(try Self.firstVideoPacketOffset())
        bytes[keyframe + 800] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: folder + "/tram.mkv"))
        let extracted = try SubfixBinary.run(["extract", "tram.mkv", "--all", "--out", "ex"], in: folder)
        #expect(extracted.status == 0, "\(extracted.stderr)")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/clean") {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: folder + "/ex/" + name))
                    == Data(contentsOf: URL(fileURLWithPath: folder + "/clean/" + name)), "\(name)")
        }
        let fixed = try SubfixBinary.run(["fix", "tram.mkv", "--out", "fixed", "-q"], in: folder)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        let remuxed = try SubfixBinary.run(["fix", "tram.mkv", "--remux", "--out", "remux", "-q"], in: folder)
        #expect(remuxed.status == 0, "\(remuxed.stderr)")
    }

    /// The byte offset of the first video packet's data, from ffprobe.
    static func firstVideoPacketOffset() throws -> Int? {
        let run = try SubfixBinary.shell(
            "ffprobe -v error -select_streams v -show_entries packet=pos -read_intervals '%+#1' -of csv=p=0 '"
                + source + "'", in: "/")
        return Int(run.stdout.split(separator: "\n").first ?? "")
    }

    /// An attachment with no bytes: libavformat logs "incomplete attachment" while reading the header. It is
    /// metadata, not packets: sidecar fix and the remux both go on.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
    func anEmptyAttachmentFailsNothing() throws {
        let folder = try SubfixBinary.folder("emptyattach")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("AA".utf8).write(to: URL(fileURLWithPath: folder + "/aa.ttf"))
        let mux = try SubfixBinary.shell(
            "ffmpeg -v error -i '" + Self.source + "' -map 0 -c copy -attach aa.ttf"
                + " -metadata:s:t:1 mimetype=application/x-truetype-font a.mkv", in: folder)
        try #require(mux.status == 0, "\(mux.stderr)")
        // ffmpeg will not attach an empty file: the 2-byte FileData (46 5C 82 'A' 'A') becomes an empty one
        // followed by an empty Void element (EC 80), the same length.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/a.mkv")))
        let pattern: [UInt8] = [0x46, 0x5C, 0x82, 0x41, 0x41]
        let at = try #require((0...(bytes.count - pattern.count)).first { Array(bytes[$0..<$0 + 5]) == pattern })
        bytes.replaceSubrange(at..<at + 5, with: [0x46, 0x5C, 0x80, 0xEC, 0x80])
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/z.mkv"))
        let fixed = try SubfixBinary.run(["fix", "z.mkv", "--out", "o", "-q"], in: folder)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        let remuxed = try SubfixBinary.run(["fix", "z.mkv", "--remux", "--out", "r", "-q"], in: folder)
        #expect(remuxed.status == 0, "\(remuxed.stderr)")
        let extracted = try SubfixBinary.run(["extract", "z.mkv", "--all", "--out", "x"], in: folder)
        #expect(extracted.status == 0, "\(extracted.stderr)")
    }
}
