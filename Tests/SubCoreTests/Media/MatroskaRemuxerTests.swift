import Foundation
import TestSupport
import Testing

@testable import SubCore

/// `MatroskaRemuxer`: every packet but the replaced text tracks' copied as it is (the ffmpeg CLI's `framemd5` is
/// the oracle), tags, flags and order kept, attachments added, nothing written for a damaged file.
@Suite struct MatroskaRemuxerTests {
    /// ffprobe's view of a file's streams: index, type, codec, language, title, default and forced flags and the
    /// attachment tags, one line per stream.
    static func streams(_ path: String) throws -> [String] {
        let outcome = try ProcessRunner.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries",
                "stream=index,codec_type,codec_name:stream_tags=language,title,filename,mimetype"
                    + ":stream_disposition=default,forced",
                "-of", "compact", path,
            ])
        return outcome.text.split(separator: "\n").map(String.init)
    }

    /// The byte range of the first `needle` in `haystack`.
    static func range(of needle: String, in haystack: [UInt8]) -> Range<Int>? {
        let bytes = Array(needle.utf8)
        guard bytes.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - bytes.count) where Array(haystack[start..<(start + bytes.count)]) == bytes {
            return start..<(start + bytes.count)
        }
        return nil
    }

    @Test func readsTheTextTracksAsDocuments() throws {
        let remuxer = try MatroskaRemuxer(file: try MediaFile(path: MediaFixtures.mkv))
        let tracks = try remuxer.readTextTracks()
        #expect(tracks.map(\.stream.index) == [2, 3, 4])
        #expect(tracks.map(\.format) == [.ass, .srt, .ass])
        #expect(tracks.map(\.packets.count) == [5, 4, 5])
        let chinese = try #require(tracks.first)
        let document = String(decoding: chinese.document, as: UTF8.self)
        #expect(document.hasPrefix("[Script Info]\r\n"))
        #expect(document.contains("Style: Default,微软雅黑,18,"))
        #expect(document.contains("\r\nDialogue: 0,0:00:00.00,0:00:00.00,Default,司机,0,0,0,,末班车十分钟后发车。\r\n"))
        #expect(String(decoding: chinese.packets[0], as: UTF8.self) == "0,0,Default,司机,0,0,0,,末班车十分钟后发车。")
        // Nothing edited: the header and packets come back byte for byte.
        let (header, packets) = try chinese.applying([])
        #expect(header == chinese.header)
        #expect(packets == chinese.packets)
    }

    @Test func editsMapBackOntoHeaderAndPackets() throws {
        let stream = MediaStream(
            index: 2, kind: .subtitle, codec: "ass", subtitleEncoding: .text, language: "chi", title: nil,
            isDefault: false, isForced: false, subtitleIndex: 0, playerIndex: 1)
        let header = Array("[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nStyle: A,SimHei,20\n\n[Events]\n".utf8)
        let packets = [Array("0,0,A,,0,0,0,,{\\fnSimHei}你好".utf8), Array("1,0,A,,0,0,0,,plain".utf8)]
        let track = MatroskaTextTrack(file: "a.mkv", stream: stream, format: .ass, header: header, packets: packets)
        let document = track.document
        let inHeader = try #require(Self.range(of: "SimHei", in: document))
        let inPacket = try #require(Self.range(of: "\\fnSimHei", in: document))
        let edits = [
            TextEdit(range: inHeader, replacement: Array("Noto Sans CJK SC".utf8)),
            TextEdit(range: (inPacket.lowerBound + 3)..<inPacket.upperBound, replacement: Array("X".utf8)),
        ]
        let (newHeader, newPackets) = try track.applying(edits)
        #expect(String(decoding: newHeader, as: UTF8.self).contains("Style: A,Noto Sans CJK SC,20\n"))
        #expect(String(decoding: newPackets[0], as: UTF8.self) == "0,0,A,,0,0,0,,{\\fnX}你好")
        #expect(newPackets[1] == packets[1])

        // An edit over bytes the document made up (the timing) cannot go back into the track.
        let timing = try #require(Self.range(of: "0:00:00.00", in: document))
        #expect(throws: MediaError.self) { try track.applying([TextEdit(range: timing, replacement: [])]) }
    }

    @Test func srtPacketsBecomeCues() throws {
        let stream = MediaStream(
            index: 0, kind: .subtitle, codec: "subrip", subtitleEncoding: .text, language: nil, title: nil,
            isDefault: false, isForced: false, subtitleIndex: 0, playerIndex: 1)
        let packets = [Array("<font face=\"SimHei\">你好</font>".utf8), Array("two\nlines".utf8)]
        let track = MatroskaTextTrack(file: "a.mkv", stream: stream, format: .srt, header: [], packets: packets)
        #expect(
            String(decoding: track.document, as: UTF8.self)
                == "1\n00:00:00,000 --> 00:00:00,000\n<font face=\"SimHei\">你好</font>\n\n"
                + "2\n00:00:00,000 --> 00:00:00,000\ntwo\nlines\n\n")
        let face = try #require(Self.range(of: "SimHei", in: track.document))
        let (_, fixed) = try track.applying([TextEdit(range: face, replacement: Array("Noto Sans CJK SC".utf8))])
        #expect(String(decoding: fixed[0], as: UTF8.self) == "<font face=\"Noto Sans CJK SC\">你好</font>")
    }

    @Test func copiesEveryOtherPacketAndKeepsTracks() throws {
        let folder = try MediaFixtures.temporaryDirectory()
        let remuxer = try MatroskaRemuxer(file: try MediaFile(path: MediaFixtures.mkv))
        let tracks = try remuxer.readTextTracks()
        let chinese = try #require(tracks.first)
        let style = try #require(Self.range(of: "微软雅黑", in: chinese.document))
        let (header, packets) = try chinese.applying([
            TextEdit(range: style, replacement: Array("Noto Sans CJK SC".utf8))
        ])
        let font = try Data(contentsOf: URL(fileURLWithPath: MediaFixtures.source("NotoSansCJKsc-Sample.otf")))
        var altered = font
        altered.append(0)
        let plan = RemuxPlan(
            tracks: [2: RemuxTrackContent(header: header, packets: packets)],
            attachments: [RemuxAttachment(fileName: "extra.otf", mimeType: "font/otf", data: altered)])
        let output = folder.appendingPathComponent("out.mkv").path
        let summary = try remuxer.write(plan, to: output, mode: 0o640, placement: .replace)
        #expect(summary.replacedPackets == 5)
        #expect(summary.bytes == Int64((try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? -1))
        #expect(try MediaCLIListing.names(folder) == ["out.mkv"])
        #expect((try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int) == 0o640)

        // Video and audio: the same packets (timestamps, sizes, bytes) as the input.
        let before = try ProcessRunner.framemd5(MediaFixtures.mkv)
        #expect(!before.isEmpty)
        #expect(try ProcessRunner.framemd5(output) == before)
        // Order, languages, titles, flags and the old attachment kept; the new one last.
        let original = try Self.streams(MediaFixtures.mkv)
        let remuxed = try Self.streams(output)
        #expect(Array(remuxed.prefix(original.count)) == original)
        #expect(remuxed.count == original.count + 1)
        #expect(remuxed.last?.contains("tag:filename=extra.otf|tag:mimetype=font/otf") == true)
        // The replaced track: the new header, the same events with the same timing.
        let extracted = try MediaFixtures.ffmpegExtract(output, subtitleIndex: 0, format: "ass", in: folder)
        let expected = try MediaFixtures.ffmpegExtract(MediaFixtures.mkv, subtitleIndex: 0, format: "ass", in: folder)
        #expect(
            String(decoding: extracted, as: UTF8.self)
                == String(decoding: expected, as: UTF8.self).replacingOccurrences(
                    of: "Style: Default,微软雅黑,", with: "Style: Default,Noto Sans CJK SC,"))
        // The others byte for byte.
        for index in [1, 2] {
            let format = index == 1 ? "srt" : "ass"
            let ours = try MediaFixtures.ffmpegExtract(output, subtitleIndex: index, format: format, in: folder)
            let theirs = try MediaFixtures.ffmpegExtract(
                MediaFixtures.mkv, subtitleIndex: index, format: format, in: folder)
            #expect(ours == theirs)
        }
        let reopened = try MediaFile(path: output)
        let attached = try reopened.attachmentData(stream: 6)
        #expect(attached == altered)
        #expect(try reopened.attachmentData(stream: 5) == font)
    }

    @Test func keepsChaptersAndFileTags() throws {
        let folder = try MediaFixtures.temporaryDirectory()
        let metadata = folder.appendingPathComponent("chapters.txt")
        try Data(
            ";FFMETADATA1\ntitle=With chapters\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=2000\ntitle=Platform\n"
                .utf8
        ).write(to: metadata)
        let input = folder.appendingPathComponent("chapters.mkv").path
        try MediaFixtures.ffmpeg([
            "-i", MediaFixtures.mkv, "-i", metadata.path, "-map", "0", "-map_metadata", "1", "-map_chapters", "1",
            "-c", "copy", input,
        ])
        let remuxer = try MatroskaRemuxer(file: try MediaFile(path: input))
        let output = folder.appendingPathComponent("out.mkv").path
        try remuxer.write(RemuxPlan(tracks: [:], attachments: []), to: output, mode: 0o644, placement: .replace)
        let probe = try ProcessRunner.run(
            "ffprobe",
            ["-v", "error", "-show_chapters", "-show_entries", "format_tags=title", "-of", "compact", output])
        #expect(probe.text.contains("tag:title=Platform"))
        #expect(probe.text.contains("tag:title=With chapters"))
        #expect(probe.text.contains("|start_time=0.000000|"))
        #expect(probe.text.contains("|end_time=2.000000|"))
    }

    @Test func damagedFileWritesNothing() throws {
        let folder = try MediaFixtures.temporaryDirectory()
        let input = try MediaFixtures.truncated(MediaFixtures.mkv, fraction: 0.8, as: "cut.mkv", in: folder)
        let remuxer = try MatroskaRemuxer(file: try MediaFile(path: input))
        #expect(throws: MediaError.self) { _ = try remuxer.readTextTracks() }
        let output = folder.appendingPathComponent("out.mkv").path
        #expect(throws: MediaError.self) {
            try remuxer.write(RemuxPlan(tracks: [:], attachments: []), to: output, mode: 0o644, placement: .replace)
        }
        #expect(try MediaCLIListing.names(folder) == ["cut.mkv"])
    }

    @Test func refusesOtherContainers() throws {
        let media = try MediaFile(path: MediaFixtures.mp4)
        #expect(throws: MediaError.notMatroska(file: MediaFixtures.mp4, format: media.formatName)) {
            _ = try MatroskaRemuxer(file: media)
        }
    }

    @Test func failedPlacementLeavesNothing() throws {
        let folder = try MediaFixtures.temporaryDirectory()
        // The destination is a folder: the file is written, then cannot be renamed over it.
        let output = folder.appendingPathComponent("out.mkv")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
        let remuxer = try MatroskaRemuxer(file: try MediaFile(path: MediaFixtures.mkv))
        #expect(throws: MediaError.self) {
            try remuxer.write(
                RemuxPlan(tracks: [:], attachments: []), to: output.path, mode: 0o644, placement: .replace)
        }
        #expect(try MediaCLIListing.names(folder) == ["out.mkv"])
        // A backup that exists is never replaced, and the original stays.
        let input = folder.appendingPathComponent("in.mkv").path
        try FileManager.default.copyItem(atPath: MediaFixtures.mkv, toPath: input)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: input + ".orig"))
        let again = try MatroskaRemuxer(file: try MediaFile(path: input))
        #expect(throws: MediaError.self) {
            try again.write(
                RemuxPlan(tracks: [:], attachments: []), to: input, mode: 0o644,
                placement: .keepingOriginal(backup: input + ".orig"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input + ".orig")) == Data("keep".utf8))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: input))
                == Data(contentsOf: URL(fileURLWithPath: MediaFixtures.mkv)))
        #expect(try MediaCLIListing.names(folder) == ["in.mkv", "in.mkv.orig", "out.mkv"])
    }

    @Test func attachmentsSkipIdenticalBytesAndRenameCollisions() {
        let existing = [
            (MediaAttachment(index: 5, fileName: "subfix-A_0.otf", mimeType: "font/otf", size: 3), Data([1, 2, 3])),
            (MediaAttachment(index: 6, fileName: "Subfix-B_0.otf", mimeType: "font/otf", size: 3), Data([4, 5, 6])),
        ]
        let fonts = [
            EmbeddedFont(name: "subfix-A_0.otf", data: Data([1, 2, 3])),  // already there: skipped
            EmbeddedFont(name: "subfix-B_0.otf", data: Data([7])),  // name taken (any case): numbered
            EmbeddedFont(name: "../subfix-C_0.ttf", data: Data([8])),  // made safe
        ]
        let (added, already) = RemuxFonts.attachments(for: fonts, existing: existing)
        #expect(added.map(\.fileName) == ["subfix-B_0-1.otf", "subfix-C_0.ttf"])
        #expect(added.map(\.mimeType) == ["font/otf", "application/x-truetype-font"])
        #expect(already.map(\.font) == ["subfix-A_0.otf"])
        #expect(already.map(\.existing) == ["subfix-A_0.otf"])
    }
}

/// Folder listings for the remux tests.
enum MediaCLIListing {
    /// The names in `folder`, hidden ones included, sorted.
    static func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
