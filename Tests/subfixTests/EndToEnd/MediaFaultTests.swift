import Foundation
import Testing

/// Damaged media and the files written from media, through the built binary.
@Suite struct MediaFaultTests {
    /// A copy of Samples/tram.mkv cut at byte 27,865, where the probe itself meets the end of the file.
    static func cutMKV(in folder: String) throws -> String {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: SubfixBinary.samples + "/tram.mkv"))
        let path = folder + "/cut.mkv"
        try bytes.prefix(27_865).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The MKV cut where ffprobe says "File ended prematurely" gave exit 0 and a 0-byte `.eng.srt` (item 4).
    /// `extract` now warns with where reading stopped, exits 1 and writes no empty file; `fix` fails it whole.
    @Test func truncatedMKVIsDetected() throws {
        let folder = try SubfixBinary.folder("cut")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.cutMKV(in: folder)
        let extracted = try SubfixBinary.run(["extract", "cut.mkv", "--all", "--out", "ex"], in: folder)
        #expect(extracted.status == 1)
        #expect(
            extracted.errorLines.contains(
                "subfix: warning: cut.mkv: reading stopped at 0:00:00.000 of 0:00:05.000 (File ended prematurely);"
                    + " the tracks hold what was readable"))
        #expect(
            extracted.errorLines.contains(
                "subfix: warning: cut.mkv: track 2: nothing of it was readable; no file written"))
        let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/ex")
        for name in written {
            let size = try FileManager.default.attributesOfItem(atPath: folder + "/ex/" + name)[.size] as? Int
            #expect(size ?? 0 > 0, "\(name) is empty")
        }
        #expect(!written.contains { $0.hasSuffix(".srt") })

        let fixed = try SubfixBinary.run(["fix", "cut.mkv", "--out", "fixed"], in: folder)
        #expect(fixed.status == 1)
        #expect(
            fixed.errorLines == [
                "subfix: error: cut.mkv: reading stopped at 0:00:00.000 of 0:00:05.000 (File ended prematurely)"
            ])
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder + "/fixed")) ?? []).isEmpty)
    }

    /// A media file whose name is not UTF-8 is probed and extracted, and the tracks' names keep its bytes
    /// (issue 16, item 8).
    @Test func mediaNamesThatAreNotUTF8() throws {
        let folder = try SubfixBinary.folder("mediabytes")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try SubfixBinary.shell(
            "name=$(printf 'm\\377'); cp \"" + SubfixBinary.samples + "/tram.mkv\" \"$name.mkv\"; "
                + "\"$SUBFIX\" extract \"$name.mkv\" --track 2 && ls \"$name.1.eng.srt\" >/dev/null && echo found",
            in: folder)
        #expect(run.stderr == "")
        #expect(run.stdout == "./m\\xff.1.eng.srt: track 2 = 0:s:1 = stream 3 (subrip, eng)\nfound\n")
    }

    /// Files written by `extract` were 0600 whatever the umask (item 11): they now get the umask's mode, as
    /// files from ffmpeg do.
    @Test func extractedFilesGetTheUmasksMode() throws {
        let folder = try SubfixBinary.folder("mode")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try SubfixBinary.shell(
            "umask 022; \"$SUBFIX\" extract \"$1\" --all --out ex --attachments fonts"
                .replacingOccurrences(of: "$1", with: SubfixBinary.samples + "/tram.mkv")
                + "; umask 027; \"$SUBFIX\" extract " + SubfixBinary.samples + "/tram.mkv --track 1 --out ex027",
            in: folder)
        #expect(run.status == 0)
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: folder + "/" + path)[.posixPermissions] as? Int) ?? 0
        }
        #expect(try mode("ex/tram.1.eng.srt") == 0o644)
        #expect(try mode("ex/tram.0.chi.ass") == 0o644)
        #expect(try mode("fonts/NotoSansCJKsc-Sample.otf") == 0o644)
        #expect(try mode("ex027/tram.0.chi.ass") == 0o640)
    }
}
