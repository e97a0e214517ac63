import Foundation
import SubCore
import TestSupport
import Testing

@testable import subfix

/// `subfix fix` and `subfix index` on files whose encoding detection cannot decide, and `--encoding keep`.
@Suite struct FixEncodingTests: RunsSubfix {
    /// `text` as a one-cue SRT in `encoding`, written to `folder/name`; returns the path.
    private func legacySRT(_ text: String, _ encoding: TextEncoding, in folder: String, name: String) throws -> String {
        let srt = "1\r\n00:00:01,000 --> 00:00:02,000\r\n<font face=\"Arial\">\(text)</font>\r\n"
        let bytes = try TextDecoder.encode(Array(srt.utf8), as: encoding, byteOrderMark: false, file: name)
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Four GBK characters read as well in EUC-JP: the file fails with one line, and nothing is written.
    @Test func ambiguousFileIsRefused() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-encoding").path
        let input = try legacySRT("你好世界", .gbk, in: folder, name: "short.srt")
        let (status, stdout, stderr) = run(["fix", input, "--out", folder + "/out"])
        #expect(status == .someFailed)
        #expect(stderr == "subfix: error: \(input): ambiguous encoding (GB18030 or EUC-JP?): pass --encoding-hint\n")
        #expect(stdout == "failed    \(input)\n1 file: 0 changed, 0 unchanged, 1 failed\n")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/short.srt"))

        // A language breaks the tie; an exact encoding decides.
        for hint in ["zh-Hans", "gbk", "GB18030"] {
            let (hinted, _, error) = run(["fix", input, "--out", folder + "/" + hint, "--encoding-hint", hint])
            #expect(hinted == .success)
            #expect(error == "")
            let fixed = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + hint + "/short.srt"))
            #expect(String(decoding: fixed, as: UTF8.self).contains("<font face=\"Noto Sans CJK SC\">你好世界</font>"))
        }
        // An exact encoding the bytes are not valid in fails the file.
        let (wrong, _, error) = run(["fix", input, "--dry-run", "--encoding-hint", "utf-16le"])
        #expect(wrong == .someFailed)
        #expect(error.hasPrefix("subfix: error: \(input):1:1: "))
    }

    /// The index refuses the very files `fix` refuses: no mojibake enters the library.
    @Test func indexRefusesTheSameFiles() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-encoding").path
        let input = try legacySRT("你好世界", .gbk, in: folder, name: "short.srt")
        let db = folder + "/library.sqlite"
        let (status, _, stderr) = run(["index", input, "--db", db])
        #expect(status == .someFailed)
        #expect(stderr == "subfix: error: \(input): ambiguous encoding (GB18030 or EUC-JP?): pass --encoding-hint\n")
        let (_, found, _) = run(["search", "你好", "--db", db, "--json"])
        #expect(!found.contains("short.srt"))
        // The same hint as for `fix` lets it in, read right.
        let (hinted, _, error) = run(["index", input, "--db", db, "--encoding-hint", "zh-Hans"])
        #expect(hinted == .success)
        #expect(error == "")
        let (_, again, _) = run(["search", "你好", "--db", db, "--brackets"])
        #expect(again.contains("[你好]世界"))
        #expect(run(["index", input, "--db", db, "--encoding-hint", "klingon"]).0 == .usage)
    }

    /// JSON names the encoding read, the runner-up and the encoding written; `--encoding keep` writes the
    /// input's own bytes but for the font name.
    @Test func jsonFieldsAndKeptBytes() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-encoding").path
        let sentence = "晚上的车站只剩下我们两个人。雨停了，你还要等吗？这是简体中文的字幕文件。"
        let input = try legacySRT(sentence, .gbk, in: folder, name: "zh.srt")
        let (status, stdout, _) = run(["fix", input, "--out", folder + "/out", "--encoding", "keep", "--json"])
        #expect(status == .success)
        let first = String(stdout.split(separator: "\n").first ?? "")
        let runnerUp =
            try TextDecoder.decode(Array(Data(contentsOf: URL(fileURLWithPath: input))), file: input)
            .runnerUp?.name ?? "?"
        #expect(first.contains(#""encoding":"GB18030","runnerUp":"\#(runnerUp)","outputEncoding":"GB18030""#))
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        let kept = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/out/zh.srt")))
        let name = Array("Arial".utf8)
        guard let at = original.indices.first(where: { original[$0...].starts(with: name) }) else {
            Issue.record("no font name in the input")
            return
        }
        #expect(kept == Array(original[..<at]) + Array("Noto Sans CJK SC".utf8) + Array(original[(at + 5)...]))
    }

    /// A font name the file's own encoding cannot hold fails that file with one line under `--encoding keep`.
    @Test func unencodableFontNameFailsTheFile() throws {
        let folder = try TestFiles.temporaryDirectory("subfix-encoding").path
        let input = try legacySRT("À bientôt, très cher ami.", .windows(1252), in: folder, name: "fr.srt")
        let (status, _, stderr) = run([
            "fix", input, "--out", folder + "/out", "--encoding", "keep", "--encoding-hint", "cp1252",
            "--font", "微软雅黑", "--policy", "all",
        ])
        #expect(status == .someFailed)
        #expect(
            stderr.hasSuffix(
                "subfix: error: \(input): '微软雅黑' cannot be written in windows-1252, the file's encoding"
                    + " (use --encoding utf8 or another --font)\n"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/fr.srt"))
    }
}
