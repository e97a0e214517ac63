import Foundation
import SubCore
import Testing

/// Every error a user can see prints through `FileError`: `file:position: cause` on one line, only the parts it
/// has, and no CLI option names (the command line adds those).
@Suite struct FileErrorTests {
    static let parse = SubtitleParseError(
        file: "movie.zh.srt", line: 42, column: 14, message: "malformed timestamp '00:01:02.5x' (expected HH:MM:SS,mmm)"
    )
    static let decoding = TextDecodingError(file: "movie.srt", cause: .ambiguous(first: "GB18030", second: "EUC-JP"))

    /// One error of each type, with the line it prints.
    static let cases: [(any FileError, String)] = [
        (parse, "movie.zh.srt:42:14: malformed timestamp '00:01:02.5x' (expected HH:MM:SS,mmm)"),
        (decoding, "movie.srt: ambiguous encoding (GB18030 or EUC-JP?)"),
        (
            TextDecodingError(file: "a.srt", cause: .undetectable(offset: 7)),
            "a.srt: not UTF-8 (invalid byte at offset 7) and no known encoding decodes it cleanly"
        ),
        (
            MediaError.disableTrack(file: "ep.mkv"),
            "ep.mkv: track 0 means \"Disable\" (no subtitles) in a player's subtitle menu; the first subtitle track"
                + " is track 1"
        ),
        (
            MediaError.notMatroska(file: "a.mp4", format: "mov,mp4"),
            "a.mp4: remux writes Matroska only and this is mov,mp4; convert it to .mkv first, or fix its text tracks"
                + " as sidecars"
        ),
        (RenderError.parse(parse), "movie.zh.srt:42:14: malformed timestamp '00:01:02.5x' (expected HH:MM:SS,mmm)"),
        (RenderError.decoding(decoding), "movie.srt: ambiguous encoding (GB18030 or EUC-JP?)"),
        (RenderError.noVideo(file: "a.ass"), "a.ass: no video stream"),
        (RenderError.badTime("1:2:3:4"), "invalid time '1:2:3:4' (expected HH:MM:SS.mmm, MM:SS or seconds)"),
        (RenderError.libass(function: "ass_library_init", file: nil), "ass_library_init failed"),
        (
            FontError.freetype(function: "FT_New_Face", code: 2, message: "unknown file format", file: "bad.ttf"),
            "bad.ttf: FT_New_Face failed: unknown file format (0x02)"
        ),
        (FontError.fontconfig(function: "FcInitLoadConfigAndFonts"), "FcInitLoadConfigAndFonts failed"),
        (
            EmbedError(file: "x.otf", font: "Noto Sans CJK JP", reason: "no glyphs"),
            "x.otf: cannot embed Noto Sans CJK JP: no glyphs"
        ),
        (
            SubtitleFixError.parse(parse),
            "movie.zh.srt:42:14: malformed timestamp '00:01:02.5x' (expected HH:MM:SS,mmm)"
        ),
        (SubtitleFixError.decoding(decoding), "movie.srt: ambiguous encoding (GB18030 or EUC-JP?)"),
        (
            SubtitleFixError.embed(EmbedError(font: "Noto Sans CJK JP", reason: "no face"), file: "a.ass"),
            "a.ass: cannot embed Noto Sans CJK JP: no face"
        ),
        (
            InputFileError(file: "fifo.srt", problem: .notRegular(kind: "a FIFO (named pipe)")),
            "fifo.srt: cannot read: a FIFO (named pipe), not a regular file"
        ),
        (
            FileWriteError.backupExists(file: "a.ass", backup: "a.ass.orig"),
            "a.ass: backup 'a.ass.orig' already exists; not overwriting it"
        ),
    ]

    @Test func eachErrorPrintsFilePositionAndCauseInOneLine() {
        for (error, line) in Self.cases {
            #expect(error.description == line)
            #expect(!error.description.contains("\n"))
            #expect(!error.description.contains("--"), "SubCore names no command-line option: \(error)")
            #expect(String(describing: error) == line)
        }
    }

    /// The parts stay apart for callers that place them themselves.
    @Test func partsAreKeptApart() {
        #expect(Self.parse.file == "movie.zh.srt")
        #expect(Self.parse.position == "42:14")
        #expect(Self.parse.cause == "malformed timestamp '00:01:02.5x' (expected HH:MM:SS,mmm)")
        let fix = SubtitleFixError.parse(Self.parse)
        #expect(fix.file == "movie.zh.srt" && fix.position == "42:14" && fix.cause == Self.parse.cause)
        #expect(MediaError.disableTrack(file: "ep.mkv").position == nil)
        #expect(RenderError.badSize("0x0").file == nil)
    }

    /// A real parse failure of the fixer carries the file, line and column of the input.
    @Test func theFixerReportsWhereTheInputIsBroken() throws {
        let fixer = SubtitleFixer(rewriter: FontRewriter(targetFont: "Noto Sans CJK SC"))
        let bytes = Array("1\n00:00:01,000 --> 00:0x:02,000\nhi\n".utf8)
        let error = try #require(throws: SubtitleFixError.self) { try fixer.fix(bytes, format: .srt, file: "b.srt") }
        #expect(error.description == "b.srt:2:18: malformed timestamp '00:0x:02,000' (expected HH:MM:SS,mmm)")
    }
}
