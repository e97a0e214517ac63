import Foundation
import SubfixLibrary
import TestSupport
import Testing

@testable import subfix

/// `--naming subfix|jellyfin|plex` on `extract` and on `fix MEDIA`: sidecars named as media servers read them,
/// from the tracks' language tags, titles and forced/default/hearing-impaired dispositions.
@Suite struct NamingCommandTests: RunsSubfix {
    /// Every file below `folder`, relative, sorted.
    private func tree(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    /// `Movie.mkv` with five subtitle tracks, made by ffmpeg: Chinese forced (title 简体中文), Japanese default,
    /// Chinese hearing-impaired (SubRip), and two Japanese tracks titled Signs and Songs.
    static func media(in directory: URL, as name: String = "Movie.mkv") throws -> String {
        let source = MediaCLIFixtures.samples.appendingPathComponent("media-src")
        let zh = source.appendingPathComponent("zh.ass").path
        let ja = source.appendingPathComponent("ja.ass").path
        let output = directory.appendingPathComponent(name).path
        var arguments = ["-f", "lavfi", "-i", "testsrc=size=64x36:rate=5:duration=3"]
        for input in [zh, ja, zh, ja, ja] { arguments += ["-i", input] }
        arguments += ["-map", "0:v"]
        for input in 1...5 { arguments += ["-map", "\(input):s"] }
        arguments += ["-c:v", "mpeg4", "-c:s", "ass", "-c:s:2", "srt"]
        let tracks: [[String]] = [
            ["language=chi", "title=简体中文", "forced"], ["language=jpn", "default"],
            ["language=chi", "hearing_impaired"], ["language=jpn", "title=Signs", "0"],
            ["language=jpn", "title=Songs", "0"],
        ]
        for (number, settings) in tracks.enumerated() {
            for setting in settings {
                let option = setting.contains("=") ? "-metadata:s:s:\(number)" : "-disposition:s:\(number)"
                arguments += [option, setting]
            }
        }
        try MediaCLIFixtures.ffmpeg(arguments + [output])
        return output
    }

    /// ffmpeg wrote the dispositions, and subfix reads all three (probe shows them).
    @Test func probeShowsTheDispositions() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = try Self.media(in: directory)
        let (status, stdout, stderr) = run(["probe", mkv])
        #expect(status == .success)
        #expect(stderr == "")
        let rows = stdout.split(separator: "\n").filter { $0.contains(" subtitle ") }.map {
            $0.split(separator: " ").map(String.init)
        }
        #expect(rows.count == 5)
        #expect(rows.map { $0[5] } == ["forced", "default", "sdh", "0:s:3", "0:s:4"])
    }

    @Test func extractNamesTracksAsJellyfinReadsThem() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = try Self.media(in: directory)
        let out = directory.appendingPathComponent("jellyfin")
        let (status, stdout, stderr) = run(["extract", mkv, "--all", "--naming", "jellyfin", "--out", out.path])
        #expect(status == .success)
        #expect(stderr == "")
        #expect(
            try MediaCLIFixtures.listing(out) == [
                "Movie.Signs.ja.ass", "Movie.Songs.ja.ass", "Movie.ja.default.ass", "Movie.zh-Hans.zh.forced.ass",
                "Movie.zh.sdh.srt",
            ])
        #expect(stdout.hasPrefix("\(out.path)/Movie.zh-Hans.zh.forced.ass: track 1 = 0:s:0 = stream 1 (ass, chi)\n"))
        // The bytes are the track's, whatever the name.
        let plain = directory.appendingPathComponent("plain")
        #expect(run(["extract", mkv, "--all", "--out", plain.path]).0 == .success)
        #expect(
            try MediaCLIFixtures.listing(plain) == [
                "Movie.0.chi.ass", "Movie.1.jpn.ass", "Movie.2.chi.srt", "Movie.3.jpn.ass", "Movie.4.jpn.ass",
            ])
        #expect(
            try Data(contentsOf: out.appendingPathComponent("Movie.Songs.ja.ass"))
                == Data(contentsOf: plain.appendingPathComponent("Movie.4.jpn.ass")))
    }

    /// Plex has no default flag, so the default Japanese track would share `Movie.ja.ass` with the titled ones:
    /// all three get their track numbers.
    @Test func extractNamesTracksAsPlexReadsThem() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let mkv = try Self.media(in: directory)
        let out = directory.appendingPathComponent("plex")
        let (status, _, stderr) = run(["extract", mkv, "--all", "--naming", "plex", "--out", out.path])
        #expect(status == .success)
        #expect(stderr == "")
        #expect(
            try MediaCLIFixtures.listing(out) == [
                "Movie.track2.ja.ass", "Movie.track4.ja.ass", "Movie.track5.ja.ass", "Movie.zh-Hans.zh.forced.ass",
                "Movie.zh.sdh.srt",
            ])
        // One track asked for alone keeps the name it has among all of them.
        let single = directory.appendingPathComponent("single")
        #expect(run(["extract", mkv, "--track", "4", "--naming", "plex", "--out", single.path]).0 == .success)
        #expect(try MediaCLIFixtures.listing(single) == ["Movie.track4.ja.ass"])
    }

    /// `fix --out` puts each sidecar beside the media file's name in the mirrored folder, where a server scanning
    /// the out folder (with the media file copied or linked there) finds it.
    @Test func fixOutPutsServerNamedSidecarsBesideTheMediaName() throws {
        let directory = try MediaCLIFixtures.temporaryDirectory()
        let season = directory.appendingPathComponent("in/Show/Season 01")
        try FileManager.default.createDirectory(at: season, withIntermediateDirectories: true)
        let mkv = try Self.media(in: season, as: "Show S01E01.mkv")
        let out = directory.appendingPathComponent("out")
        let (status, stdout, stderr) = run([
            "fix", directory.appendingPathComponent("in").path, "--out", out.path, "--naming", "jellyfin",
        ])
        #expect(status == .success, "\(stdout)")
        #expect(stderr == "")
        #expect(
            tree(out) == [
                "Show", "Show/Season 01", "Show/Season 01/Show S01E01.Signs.ja.ass",
                "Show/Season 01/Show S01E01.Songs.ja.ass", "Show/Season 01/Show S01E01.ja.default.ass",
                "Show/Season 01/Show S01E01.zh-Hans.zh.forced.ass", "Show/Season 01/Show S01E01.zh.sdh.srt",
            ])
        #expect(stdout.contains("\(mkv) track 3 = 0:s:2 = stream 3 (subrip, chi) -> \(out.path)/Show/Season 01/"))
        // The Chinese track titled 简体中文 was fixed with the Simplified face.
        let chinese = try String(
            contentsOf: out.appendingPathComponent("Show/Season 01/Show S01E01.zh-Hans.zh.forced.ass"), encoding: .utf8)
        #expect(chinese.contains("Noto Sans CJK SC"))
    }

    @Test(
        arguments: [
            (
                ["extract", "M.mkv", "--all", "--naming", "kodi"],
                "subfix: error: invalid value 'kodi' for '--naming' (expected subfix, jellyfin, plex)\n"
            ),
            (
                ["fix", "M.mkv", "--dry-run", "--remux", "--naming", "plex"],
                "subfix: error: options '--remux', '--naming' cannot be used together\n"
            ),
            (
                ["fix", "M.mkv", "--dry-run", "--naming"],
                "subfix: error: option '--naming' needs a value (subfix|jellyfin|plex)\n"
            ),
        ] as [([String], String)])
    func badNamingIsAUsageError(arguments: [String], stderr: String) {
        let (status, stdout, error) = run(arguments)
        #expect(status == .usage)
        #expect(stdout == "")
        #expect(error == stderr)
    }

    /// The index reads a sidecar's language through the same type that writes the names.
    @Test(
        arguments: [
            ("Movie.zh-Hant.zh.forced.ass", "zh-Hant"), ("Movie.zh.sdh.srt", "zh"), ("Movie.track2.ja.ass", "ja"),
            ("movie.0.chi.ass", "chi"), ("movie.zh-Hans.srt", "zh-Hans"),
        ] as [(String, String)])
    func indexReadsTheLanguageOfEveryScheme(name: String, language: String) {
        #expect(DialogueReader.language(ofSidecar: "/library/" + name) == language)
    }
}
