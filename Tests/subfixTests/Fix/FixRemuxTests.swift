import Foundation
import TestSupport
import Testing

@testable import subfix

/// `subfix fix MEDIA --remux`: the Matroska file itself, fixed, with the fonts attached. Proven with the ffmpeg
/// CLI (`framemd5`, `ffprobe`, the `subtitles` filter with no CJK font visible to fontconfig) and `subfix check
/// --no-system-fonts`; `--in-place` is killed with SIGKILL at many points to show the path never goes missing.
@Suite(.serialized) struct FixRemuxTests: RunsSubfix {
    private static func folder() throws -> String { try TestFiles.temporaryDirectory("subfix-remux").path }
    private static func names(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }
    private static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func remuxKeepsPacketsAndTracksAndAttachesFonts() throws {
        let folder = try Self.folder()
        let input = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: URL(fileURLWithPath: folder), as: "tram.mkv")
        let db = ["--db", folder + "/db.sqlite"]
        let (status, stdout, stderr) = run(["fix", input, "--remux", "--out", folder + "/out"] + db)
        #expect(status == .success)
        #expect(stderr == "")
        let output = folder + "/out/tram.mkv"
        #expect(
            reportLinesOnly(stdout)
                == """
                changed   \(input) track 1 = 0:s:0 = stream 2 (ass, chi) -> \(output) (styles 2, \\fn 1, font tags 0; UTF-8)
                changed   \(input) track 2 = 0:s:1 = stream 3 (subrip, eng) -> \(output) (styles 0, \\fn 0, font tags 1; UTF-8)
                changed   \(input) track 3 = 0:s:2 = stream 4 (ass, jpn) -> \(output) (styles 2, \\fn 1, font tags 0; UTF-8)
                3 files: 3 changed, 0 unchanged, 0 failed

                """)
        // The Sign style is bold: its text gets the Bold face's own subset (issue 29).
        #expect(stdout.contains("  note: remuxed: 209 packets copied (14 of fixed tracks), 3 font(s) attached"))
        // The input is only read.
        #expect(try Self.bytes(input) == Self.bytes(MediaCLIFixtures.mkv))

        // Every video and audio packet as it was.
        #expect(try ProcessRunner.framemd5(output) == ProcessRunner.framemd5(input))
        // Track order, languages, titles, default and forced flags, the old attachment; the subsets last.
        let probe = try ProcessRunner.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries",
                "stream=index,codec_type:stream_tags=language,title,filename,mimetype"
                    + ":stream_disposition=default,forced",
                "-of", "compact", output,
            ])
        #expect(
            probe.text
                == """
                stream|index=0|codec_type=video|disposition:default=0|disposition:forced=0
                stream|index=1|codec_type=audio|disposition:default=0|disposition:forced=0
                stream|index=2|codec_type=subtitle|disposition:default=1|disposition:forced=0|tag:language=chi|tag:title=简体中文
                stream|index=3|codec_type=subtitle|disposition:default=0|disposition:forced=0|tag:language=eng|tag:title=English
                stream|index=4|codec_type=subtitle|disposition:default=0|disposition:forced=1|tag:language=jpn|tag:title=日本語
                stream|index=5|codec_type=attachment|disposition:default=0|disposition:forced=0|tag:filename=NotoSansCJKsc-Sample.otf|tag:mimetype=application/vnd.ms-opentype
                stream|index=6|codec_type=attachment|disposition:default=0|disposition:forced=0|tag:filename=subfix-NotoSansCJKSC_0.otf|tag:mimetype=font/otf
                stream|index=7|codec_type=attachment|disposition:default=0|disposition:forced=0|tag:filename=subfix-NotoSansCJKSC-Bold_0.otf|tag:mimetype=font/otf
                stream|index=8|codec_type=attachment|disposition:default=0|disposition:forced=0|tag:filename=subfix-NotoSansCJKJP_0.otf|tag:mimetype=font/otf

                """)

        // With no fonts but the attachments, nothing is missing.
        let check = run(["check", output, "--no-system-fonts"] + db)
        #expect(check.0 == .success)
        #expect(check.1 == "\(output)#s:0: 5 events, all characters covered\n")
        let before = run(["check", input, "--no-system-fonts"] + db)
        #expect(before.0 == .someFailed)

        // Remuxing the remuxed file changes nothing: the same subsets are already attached.
        let again = run(["fix", output, "--remux", "--in-place"] + db)
        #expect(again.0 == .success)
        #expect(reportLinesOnly(again.1).split(separator: "\n").allSatisfy { !$0.hasPrefix("changed") })
        #expect(again.1.contains("nothing to change: the file is not rewritten"))
        #expect(!FileManager.default.fileExists(atPath: output + ".orig"))
    }

    /// ffmpeg's `subtitles` filter loads the attachments: with no font visible to fontconfig, the fixed file
    /// renders exactly as the fixed track does with the face the subset was cut from installed.
    @Test func subtitlesFilterRendersFromTheAttachments() throws {
        let folder = try Self.folder()
        let input = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: URL(fileURLWithPath: folder), as: "tram.mkv")
        let (status, stdout, _) = run([
            "fix", input, "--remux", "--out", folder + "/out", "--json", "--db", folder + "/db.sqlite",
        ])
        #expect(status == .success)
        let output = folder + "/out/tram.mkv"
        let first = try #require(stdout.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let embedded = try #require(object["embedded"] as? [[String: Any]])
        // Every face a subset was cut from (the bundled Regular, the system's Bold), as a player would have them
        // installed.
        var fontFolders: [String] = []
        for entry in embedded {
            let source = try #require(entry["source"] as? String)
            let file =
                try #require(source.split(separator: "(").last.map { String($0.dropLast()) })
                .split(separator: "#").first.map(String.init) ?? ""
            let bundled = MediaCLIFixtures.samples.deletingLastPathComponent().appendingPathComponent("Fonts").path
            let folder = try #require(
                [bundled, "/usr/share/fonts/opentype/noto", "/usr/share/fonts/truetype/noto"].first {
                    FileManager.default.fileExists(atPath: $0 + "/" + file)
                })
            if !fontFolders.contains(folder) { fontFolders.append(folder) }
        }
        func config(_ name: String, fonts: [String]) throws -> String {
            let path = folder + "/\(name).conf"
            try FileManager.default.createDirectory(
                atPath: folder + "/\(name)-empty", withIntermediateDirectories: true)
            let dirs = fonts.map { "<dir>\($0)</dir>" }.joined()
            try Data(
                """
                <?xml version="1.0"?>
                <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
                <fontconfig>\(dirs)<cachedir>\(folder)/\(name)-cache</cachedir></fontconfig>
                """.utf8
            ).write(to: URL(fileURLWithPath: path))
            return path
        }
        let none = try config("none", fonts: [folder + "/none-empty"])
        let full = try config("full", fonts: fontFolders)
        let track = folder + "/fixed.ass"
        try FFmpegCLI.run(["-i", output, "-map", "0:s:0", "-c", "copy", track])
        func frame(_ video: String, subtitles: String, fontconfig: String) throws -> Data {
            let outcome = try ProcessRunner.run(
                "ffmpeg",
                [
                    "-nostdin", "-v", "error", "-i", video, "-vf", "subtitles=\(subtitles)", "-ss", "1.7",
                    "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
                ], environment: ["FONTCONFIG_FILE": fontconfig])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return outcome.stdout
        }
        let attachmentsOnly = try frame(output, subtitles: output + ":si=0", fontconfig: none)
        let installed = try frame(input, subtitles: track, fontconfig: full)
        let originalNoFonts = try frame(input, subtitles: input + ":si=0", fontconfig: none)
        #expect(attachmentsOnly.count == 320 * 180 * 3)
        #expect(attachmentsOnly == installed)
        // Without the fix the CJK text does not render the same (the check can fail).
        #expect(originalNoFonts != installed)
    }

    @Test func dryRunWritesNothing() throws {
        let folder = try Self.folder()
        let input = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: URL(fileURLWithPath: folder), as: "tram.mkv")
        let (status, stdout, _) = run(["fix", input, "--remux", "--dry-run", "--db", folder + "/db.sqlite"])
        #expect(status == .success)
        #expect(stdout.contains("  note: would remux with 3 track(s) replaced, attaching subfix-NotoSansCJKSC_0.otf"))
        #expect(try Self.names(folder) == ["tram.mkv"])  // not even a library: a dry run never creates one
    }

    @Test func noTextTracksIsSkippedAndNotWritten() throws {
        let folder = try Self.folder()
        let input = folder + "/plain.mkv"
        try FFmpegCLI.run(["-i", MediaCLIFixtures.mkv, "-map", "0:v", "-map", "0:a", "-c", "copy", input])
        let (status, stdout, stderr) = run(["fix", input, "--remux", "--out", folder + "/out", "--db", folder + "/db"])
        #expect(status == .success)
        #expect(stderr == "")
        #expect(
            stdout
                == "skipped   \(input): no text subtitle tracks to fix: not remuxed, nothing written\n"
                + "1 file: 0 changed, 0 unchanged, 0 failed, 1 skipped\n")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }

    @Test func damagedFileFailsAndWritesNothing() throws {
        let folder = try Self.folder()
        let input = try MediaCLIFixtures.copy(
            MediaCLIFixtures.mkv, to: URL(fileURLWithPath: folder), as: "cut.mkv", fraction: 0.8)
        let original = try Self.bytes(input)
        for mode in [["--out", folder + "/out"], ["--in-place"]] {
            let (status, stdout, stderr) = run(["fix", input, "--remux"] + mode + ["--db", folder + "/db"])
            #expect(status == .someFailed)
            #expect(stdout.hasPrefix("failed    \(input)\n"))
            #expect(
                stderr
                    == "subfix: error: \(input): cannot be remuxed: the file is damaged or truncated"
                    + " (File ended prematurely); nothing written\n")
        }
        #expect(try Self.names(folder) == ["cut.mkv", "db"])
        #expect(try Self.bytes(input) == original)
    }

    @Test func otherContainersAreRefused() throws {
        let folder = try Self.folder()
        let (status, _, stderr) = run([
            "fix", MediaCLIFixtures.mp4, "--remux", "--out", folder + "/out", "--db", folder + "/db",
        ])
        #expect(status == .someFailed)
        #expect(
            stderr
                == "subfix: error: \(MediaCLIFixtures.mp4): remux writes Matroska only and this is"
                + " mov,mp4,m4a,3gp,3g2,mj2; convert it to .mkv first, or fix its text tracks as sidecars (without"
                + " --remux)\n")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }

    /// An output that cannot be written: one line naming the file, exit 1, nothing left, the input untouched.
    @Test func unwritableOutputLeavesNothing() throws {
        let folder = try Self.folder()
        let input = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: URL(fileURLWithPath: folder), as: "tram.mkv")
        // The output path is a folder: the file is written, flushed, and cannot be renamed over it.
        try FileManager.default.createDirectory(atPath: folder + "/out/tram.mkv", withIntermediateDirectories: true)
        let (status, _, stderr) = run(["fix", input, "--remux", "--out", folder + "/out", "--db", folder + "/db"])
        #expect(status == .someFailed)
        #expect(
            stderr
                == "subfix: error: \(input): '\(folder)/out/tram.mkv': cannot rename into place: Is a directory\n")
        #expect(try Self.names(folder + "/out") == ["tram.mkv"])
        #expect(try Self.names(folder + "/out/tram.mkv") == [])
        // A file in the way of the output folder.
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/blocker"))
        let blocked = run(["fix", input, "--remux", "--out", folder + "/blocker/out", "--db", folder + "/db"])
        #expect(blocked.0 == .someFailed)
        #expect(blocked.2.hasPrefix("subfix: error: \(input): cannot create output folder '\(folder)/blocker/out': "))
        #expect(blocked.2.split(separator: "\n").count == 1)
        #expect(try Self.bytes(input) == Self.bytes(MediaCLIFixtures.mkv))
    }

    /// The file already carries a different font under the name subfix would use: the subset gets a number.
    @Test func attachmentNameCollisionGetsANumber() throws {
        let folder = try Self.folder()
        let renamed = folder + "/subfix-NotoSansCJKSC_0.otf"
        try FileManager.default.copyItem(
            atPath: MediaCLIFixtures.samples.appendingPathComponent("media-src/NotoSansCJKsc-Sample.otf").path,
            toPath: renamed)
        let input = folder + "/taken.mkv"
        try FFmpegCLI.run([
            "-i", MediaCLIFixtures.mkv, "-attach", renamed, "-map", "0", "-c", "copy",
            "-metadata:s:t:1", "mimetype=font/otf", input,
        ])
        let (status, stdout, _) = run(["fix", input, "--remux", "--out", folder + "/out", "--db", folder + "/db"])
        #expect(status == .success)
        #expect(
            stdout.contains(
                "font(s) attached (subfix-NotoSansCJKSC_0-1.otf, subfix-NotoSansCJKSC-Bold_0.otf,"
                    + " subfix-NotoSansCJKJP_0.otf)"))
        let probe = try ProcessRunner.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "t", "-show_entries", "stream_tags=filename", "-of", "csv=p=0",
                folder + "/out/taken.mkv",
            ])
        #expect(
            probe.text
                == "NotoSansCJKsc-Sample.otf\nsubfix-NotoSansCJKSC_0.otf\nsubfix-NotoSansCJKSC_0-1.otf\n"
                + "subfix-NotoSansCJKSC-Bold_0.otf\nsubfix-NotoSansCJKJP_0.otf\n")
        let check = run(["check", folder + "/out/taken.mkv", "--no-system-fonts", "--db", folder + "/db"])
        #expect(check.0 == .success)
    }

    /// A full disk (an 80 KB tmpfs, where the test may mount one: as root): one line, exit 1, the original intact,
    /// no temporary file left.
    @Test(.enabled(if: Tmpfs.canMount, "mounting a tmpfs needs root and a kernel that allows it"))
    func fullDiskLeavesTheOriginalAndNothingElse() throws {
        let folder = try Self.folder()
        let disk = folder + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mounted = try ProcessRunner.run("mount", ["-t", "tmpfs", "-o", "size=80k", "tmpfs", disk])
        try #require(mounted.status == 0, "\(mounted.stderr)")
        defer { _ = try? ProcessRunner.run("umount", [disk]) }
        let input = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: URL(fileURLWithPath: disk), as: "tram.mkv")
        let (status, stdout, stderr) = run(["fix", input, "--remux", "--in-place", "--db", folder + "/db"])
        #expect(status == .someFailed)
        #expect(stdout.hasPrefix("failed    \(input)\n"))
        #expect(stderr.hasPrefix("subfix: error: \(input): "))
        #expect(stderr.hasSuffix("cannot write: No space left on device\n"))
        #expect(stderr.split(separator: "\n").count == 1)
        #expect(try Self.names(disk) == ["tram.mkv"])
        #expect(try Self.bytes(input) == Self.bytes(MediaCLIFixtures.mkv))
    }

    @Test func inPlaceKeepsABackupAndNeverReplacesOne() throws {
        let folder = try Self.folder()
        let input = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: URL(fileURLWithPath: folder), as: "tram.mkv")
        let (status, _, _) = run(["fix", input, "--remux", "--in-place", "--db", folder + "/db"])
        #expect(status == .success)
        #expect(try Self.bytes(input + ".orig") == Self.bytes(MediaCLIFixtures.mkv))
        #expect(try MediaFileStreams.count(input) == 9)
        // A second file whose backup exists: refused before anything is written.
        let other = try MediaCLIFixtures.copy(MediaCLIFixtures.mkv, to: URL(fileURLWithPath: folder), as: "b.mkv")
        try Data("old".utf8).write(to: URL(fileURLWithPath: other + ".bak"))
        let refused = run(["fix", other, "--remux", "--in-place", "--backup-suffix", ".bak", "--db", folder + "/db"])
        #expect(refused.0 == .someFailed)
        #expect(refused.2.contains("backup '\(other).bak' already exists; not overwriting it"))
        #expect(try Self.bytes(other) == Self.bytes(MediaCLIFixtures.mkv))
        #expect(try Self.bytes(other + ".bak") == Data("old".utf8))
    }

    /// `--in-place` killed with SIGKILL at points spread over a whole run (the built binary as a child process):
    /// afterwards the path holds the original or the complete new file, never neither.
    @Test func inPlaceSurvivesKill9AnywhereInTheRun() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("subfix").path
        try #require(FileManager.default.isExecutableFile(atPath: binary))
        let folder = try Self.folder()
        let path = folder + "/tram.mkv"
        let original = try Self.bytes(MediaCLIFixtures.mkv)
        func launch() throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["fix", path, "--remux", "--in-place", "--db", folder + "/db.sqlite"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        // How long one whole run takes here.
        try original.write(to: URL(fileURLWithPath: path))
        let started = Date()
        let whole = try launch()
        whole.waitUntilExit()
        #expect(whole.terminationStatus == 0)
        let duration = Date().timeIntervalSince(started)
        var generator = SystemRandomNumberGenerator()
        var sawOriginal = false
        var sawNew = false
        for attempt in 0..<16 {
            try? FileManager.default.removeItem(atPath: path + ".orig")
            try original.write(to: URL(fileURLWithPath: path))
            let process = try launch()
            // Points spread over the run (and a little past it), each jittered.
            let point = duration * (Double(attempt) + Double.random(in: 0..<1, using: &generator)) / 14
            usleep(useconds_t(point * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try Self.bytes(path)
            if now == original {
                sawOriginal = true
            } else {
                // The new file, whole: it opens and has the attachments, and the original is the backup.
                #expect(try MediaFileStreams.count(path) == 9, "attempt \(attempt) at \(point) s")
                #expect(try Self.bytes(path + ".orig") == original)
                sawNew = true
            }
        }
        #expect(sawOriginal)
        _ = sawNew  // Depends on the timing of the machine; the invariant above is what matters.
    }
}

/// Stream counts through ffprobe (the oracle), for files the tests did not write themselves.
enum MediaFileStreams {
    static func count(_ path: String) throws -> Int {
        let outcome = try ProcessRunner.run(
            "ffprobe", ["-v", "error", "-show_entries", "stream=index", "-of", "csv=p=0", path])
        guard outcome.status == 0 else { return -1 }
        return outcome.text.split(separator: "\n").count
    }
}
