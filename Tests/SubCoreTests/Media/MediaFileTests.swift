import Foundation
import SubCore
import Testing

@Suite struct MediaFileTests {
    @Test func probesTheSampleMKV() throws {
        let media = try MediaFile(path: MediaFixtures.mkv)
        #expect(media.formatName == "matroska,webm")
        #expect(media.duration == 5.0)
        #expect(media.streams.map(\.kind) == [.video, .audio, .subtitle, .subtitle, .subtitle, .attachment])
        #expect(media.streams.map(\.codec) == ["h264", "flac", "ass", "subrip", "ass", "otf"])
        let subtitles = media.subtitleStreams
        #expect(subtitles.map(\.index) == [2, 3, 4])
        #expect(subtitles.map(\.subtitleIndex) == [0, 1, 2])
        #expect(subtitles.map(\.playerIndex) == [1, 2, 3])
        #expect(subtitles.map(\.language) == ["chi", "eng", "jpn"])
        #expect(subtitles.map(\.title) == ["简体中文", "English", "日本語"])
        #expect(subtitles.map(\.isDefault) == [true, false, false])
        #expect(subtitles.map(\.isForced) == [false, false, true])
        #expect(subtitles.map(\.isText) == [true, true, true])
        #expect(media.streams[0].subtitleIndex == nil && media.streams[0].playerIndex == nil)
        #expect(media.streams[0].subtitleEncoding == nil)
        #expect(
            media.attachments == [
                MediaAttachment(
                    index: 5, fileName: "NotoSansCJKsc-Sample.otf", mimeType: "application/vnd.ms-opentype", size: 24168
                )
            ])
    }

    @Test func attachmentBytesAreTheFontThatWasAttached() throws {
        let media = try MediaFile(path: MediaFixtures.mkv)
        let data = try media.attachmentData(stream: 5)
        #expect(data == (try Data(contentsOf: URL(fileURLWithPath: MediaFixtures.source("NotoSansCJKsc-Sample.otf")))))
        #expect(throws: MediaError.noSuchAttachment(file: MediaFixtures.mkv, stream: 2)) {
            try media.attachmentData(stream: 2)
        }
    }

    @Test func fontAttachmentsInMemory() throws {
        let media = try MediaFile(path: MediaFixtures.mkv)
        let fonts = try media.fontAttachments()
        #expect(fonts.map(\.attachment.fileName) == ["NotoSansCJKsc-Sample.otf"])
        #expect(fonts.first?.data.prefix(4) == Data("OTTO".utf8))
        #expect(try MediaFile(path: MediaFixtures.mp4).fontAttachments().isEmpty)
    }

    @Test func probesTheSampleMP4() throws {
        let media = try MediaFile(path: MediaFixtures.mp4)
        #expect(media.formatName == "mov,mp4,m4a,3gp,3g2,mj2")
        #expect(media.streams.map(\.codec) == ["h264", "mov_text"])
        #expect(media.subtitleStreams.first?.language == "chi")
        #expect(media.subtitleStreams.first?.playerIndex == 1)
        #expect(media.attachments.isEmpty)
    }

    @Test func bitmapTracksAreNamedAsSuch() throws {
        let directory = try MediaFixtures.temporaryDirectory()
        let media = try MediaFile(path: try MediaFixtures.bitmapMKV(in: directory))
        #expect(media.subtitleStreams.map(\.codec) == ["subrip", "hdmv_pgs_subtitle"])
        #expect(media.subtitleStreams.map(\.subtitleEncoding) == [.text, .bitmap])
        #expect(media.subtitleStreams.map(\.codecLabel) == ["SubRip", "PGS"])
    }

    @Test(arguments: [
        ("notes.mkv", Data("hello, this is not a video\n".utf8)),
        ("empty.mp4", Data()),
        ("noise.mkv", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })),
    ])
    func notMediaIsAClearError(name: String, bytes: Data) throws {
        let directory = try MediaFixtures.temporaryDirectory()
        let path = directory.appendingPathComponent(name).path
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: MediaError.self) { try MediaFile(path: path) }
        #expect(error.file == path)
        #expect(
            error.cause
                == "not a media file libavformat can read (avformat_open_input: Invalid data found when processing input)"
        )
    }

    @Test func missingFileNamesTheCCall() throws {
        let path = try MediaFixtures.temporaryDirectory().appendingPathComponent("gone.mkv").path
        let error = try #require(throws: MediaError.self) { try MediaFile(path: path) }
        #expect(error.cause == "avformat_open_input failed: No such file or directory (error -2)")
    }
}
