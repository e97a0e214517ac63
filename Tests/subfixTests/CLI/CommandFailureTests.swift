import Foundation
import SubCore
import SubDB
import SubfixLibrary
import Testing

@testable import subfix

/// Every error reaches standard error through `CommandIO.error` as `subfix: error: <file>:<position>: <cause>`,
/// with the command line's own advice added, and never as Swift's default description of an error value.
@Suite struct CommandFailureTests {
    private func printed(_ error: any Error, file: String? = nil) -> String {
        let (io, captured) = CommandIO.capturing()
        io.error(error, file: file)
        return captured.stderr
    }

    @Test func fileErrorsPrintTheirFileAndPosition() {
        let parse = SubtitleParseError(file: "a.srt", line: 2, column: 18, message: "malformed timestamp")
        #expect(printed(parse) == "subfix: error: a.srt:2:18: malformed timestamp\n")
        #expect(printed(SubtitleFixError.parse(parse)) == "subfix: error: a.srt:2:18: malformed timestamp\n")
        // The file the caller knows is used only when the error names none.
        #expect(printed(parse, file: "other.srt") == "subfix: error: a.srt:2:18: malformed timestamp\n")
        #expect(
            printed(RenderError.badTime("x"), file: "in.ass")
                == "subfix: error: in.ass: invalid time 'x' (expected HH:MM:SS.mmm, MM:SS or seconds)\n")
        #expect(
            printed(LibraryError.olderSchema(path: "lib.sqlite"))
                == "subfix: error: lib.sqlite: the library was written by an older subfix (run `subfix index` to update"
                + " it)\n")
    }

    /// SubCore's messages name no option; the command line adds the one that gets past the failure.
    @Test func theCommandLineAddsItsOptions() {
        let ambiguous = TextDecodingError(file: "t.srt", cause: .ambiguous(first: "GB18030", second: "EUC-JP"))
        #expect(
            printed(ambiguous)
                == "subfix: error: t.srt: ambiguous encoding (GB18030 or EUC-JP?): pass --encoding-hint\n")
        #expect(
            printed(SubtitleFixError.decoding(ambiguous))
                == "subfix: error: t.srt: ambiguous encoding (GB18030 or EUC-JP?): pass --encoding-hint\n")
        #expect(
            printed(RenderError.noVideo(file: "a.ass"))
                == "subfix: error: a.ass: no video stream for '--background video'\n")
        let notKept = TextDecodingError(file: "k.ass", cause: .notKept(encoding: "GBK", offset: 3))
        #expect(
            printed(notKept)
                == "subfix: error: k.ass: cannot keep the original GBK bytes at byte offset 3 (use --encoding utf8)\n")
    }

    /// Errors outside the protocol print their own description (SubDB's `DatabaseError`), about the file the
    /// caller names; one without a description prints its localized description, never `Type.case(...)`.
    @Test func otherErrorsPrintTheirOwnWords() {
        #expect(
            printed(DatabaseError(message: "disk I/O error"), file: "lib.sqlite")
                == "subfix: error: lib.sqlite: SQLite error 1: disk I/O error\n")
        enum Opaque: Error { case broken(Int) }
        let line = printed(Opaque.broken(3), file: "x")
        #expect(line.hasPrefix("subfix: error: x: "))
        #expect(!line.contains("broken(3)"))
        #expect(line.split(separator: "\n").count == 1)
    }

    /// A part of a file (a media file's track) keeps the part's position inside its cause.
    @Test func failuresWithinAPartNameThePart() {
        let parse = SubtitleParseError(file: "x.0.chi.ass", line: 1, column: 1, message: "not an ASS/SSA script")
        let failure = CommandFailure(parse).within("track 1", of: "x.mkv")
        #expect(failure.description == "x.mkv: track 1: 1:1: not an ASS/SSA script")
        #expect(failure.detail == "track 1: 1:1: not an ASS/SSA script")
    }
}
