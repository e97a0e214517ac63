import Foundation
import Testing

@testable import subfix

@Suite struct ProbeCommandTests {
    @Test func printsATablePerFile() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: directory, as: "tram.mkv")
        let mp4 = try MediaCLIFixtures.copy(MediaCLIFixtures.mp4, to: directory, as: "tram.mp4")
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["probe", mkv, mp4], io: io) == .success)
        #expect(output.stderr == "")
        #expect(
            output.stdout == """
                \(mkv): matroska,webm, 0:00:05.000
                  stream  kind        codec   type  lang  flags    sub    track  title
                  0       video       h264
                  1       audio       flac
                  2       subtitle    ass     text  chi   default  0:s:0  1      简体中文
                  3       subtitle    subrip  text  eng            0:s:1  2      English
                  4       subtitle    ass     text  jpn   forced   0:s:2  3      日本語
                  5       attachment  otf
                  attachments:
                    5  NotoSansCJKsc-Sample.otf  application/vnd.ms-opentype  24168 bytes

                \(mp4): mov,mp4,m4a,3gp,3g2,mj2, 0:00:05.000
                  stream  kind      codec     type  lang  flags    sub    track  title
                  0       video     h264                  default
                  1       subtitle  mov_text  text  chi   default  0:s:0  1

                """)
    }

    @Test func jsonHasEveryField() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: directory, as: "tram.mkv")
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["probe", "--json", mkv], io: io) == .success)
        let streams = [
            #"{"stream":0,"kind":"video","codec":"h264","text":null,"language":null,"title":null,"default":false,"forced":false,"hearingImpaired":false,"subtitleIndex":null,"track":null}"#,
            #"{"stream":1,"kind":"audio","codec":"flac","text":null,"language":null,"title":null,"default":false,"forced":false,"hearingImpaired":false,"subtitleIndex":null,"track":null}"#,
            #"{"stream":2,"kind":"subtitle","codec":"ass","text":true,"language":"chi","title":"简体中文","default":true,"forced":false,"hearingImpaired":false,"subtitleIndex":0,"track":1}"#,
            #"{"stream":3,"kind":"subtitle","codec":"subrip","text":true,"language":"eng","title":"English","default":false,"forced":false,"hearingImpaired":false,"subtitleIndex":1,"track":2}"#,
            #"{"stream":4,"kind":"subtitle","codec":"ass","text":true,"language":"jpn","title":"日本語","default":false,"forced":true,"hearingImpaired":false,"subtitleIndex":2,"track":3}"#,
            #"{"stream":5,"kind":"attachment","codec":"otf","text":null,"language":null,"title":null,"default":false,"forced":false,"hearingImpaired":false,"subtitleIndex":null,"track":null}"#,
        ]
        let attachments =
            #"[{"stream":5,"filename":"NotoSansCJKsc-Sample.otf","mimetype":"application/vnd.ms-opentype","size":24168}]"#
        #expect(
            output.stdout == #"{"type":"file","file":"\#(mkv)","format":"matroska,webm","duration":5.0,"streams":["#
                + streams.joined(separator: ",") + #"],"attachments":"# + attachments + "}\n")
    }

    /// A file that is not media fails alone: the others are still probed, and the exit status is 1.
    @Test func notMediaIsReportedAndTheRestStillProbed() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let bogus = directory.appendingPathComponent("notes.mkv")
        try Data("not a video".utf8).write(to: bogus)
        let mp4 = try MediaCLIFixtures.copy(MediaCLIFixtures.mp4, to: directory, as: "tram.mp4")
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["probe", "--json", bogus.path, mp4], io: io) == .someFailed)
        #expect(
            output.stderr
                == "subfix: error: \(bogus.path): not a media file libavformat can read "
                + "(avformat_open_input: Invalid data found when processing input)\n")
        // Under --json the error is also an object on standard output, in order with the others.
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"{"type":"error","file":"\#(bogus.path)","error":"not a media file"#) == true)
        #expect(lines.last?.hasPrefix(#"{"type":"file","file":"\#(mp4)","format":"mov,mp4,m4a,3gp,3g2,mj2""#) == true)
    }
}
