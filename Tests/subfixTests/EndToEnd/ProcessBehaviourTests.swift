import Foundation
import Testing

private let simHeiSRT = "1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好</font>\n"

/// How the binary behaves as a process: exit codes, one-line errors, a closed pipe, signals, and what a run killed
/// half-way leaves for the next one.
@Suite struct ProcessBehaviourTests {
    /// Exit 0 all good, 1 some input failed (the others still done), 2 usage error, each error on one line.
    @Test func exitStatusesAndErrorLines() throws {
        let folder = try SubfixBinary.folder("status")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SubfixBinary.write(simHeiSRT, to: folder + "/a.srt")
        let good = try SubfixBinary.run(["fix", "a.srt", "--dry-run"], in: folder)
        #expect(good.status == 0)
        #expect(good.stderr == "")
        let some = try SubfixBinary.run(["fix", "a.srt", "gone.srt", "--dry-run"], in: folder)
        #expect(some.status == 1)
        #expect(some.errorLines == ["subfix: error: gone.srt: cannot read: No such file or directory"])
        #expect(some.stdout.hasPrefix("changed   a.srt "))
        let usage = try SubfixBinary.run(["fix", "a.srt"], in: folder)
        #expect(usage.status == 2)
        #expect(usage.errorLines.count == 1)
        #expect(usage.errorLines.first?.hasPrefix("subfix: error: ") == true)
    }

    /// `big.srt` in `folder`: 4,000 cues whose `<font face>` `fix --diff` changes, some 400 kB of diff, far more than
    /// a pipe holds.
    private func writeBigSRT(in folder: String) throws {
        var text = ""
        for index in 0..<4000 {
            text += "\(index + 1)\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好 \(index)</font>\n\n"
        }
        try SubfixBinary.write(text, to: folder + "/big.srt")
    }

    /// Piped into `head`, subfix sees a closed pipe: no crash, no message, exit 0 once its work is done.
    @Test func closedPipeIsNotACrash() throws {
        let folder = try SubfixBinary.folder("pipe")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The writes after `head` exits fail with EPIPE.
        try writeBigSRT(in: folder)
        let run = try SubfixBinary.shell(
            "\"$SUBFIX\" fix big.srt --dry-run --diff 2>err | head -n 1; echo \"${PIPESTATUS[0]}\"; cat err",
            in: folder)
        #expect(!run.hung)
        #expect(run.stdout == "changed   big.srt (styles 0, \\fn 0, font tags 4000; UTF-8)\n0\n")
    }

    /// Standard output that is a non-blocking pipe (a parent may share one) and stays full for a while: the run
    /// waits for room instead of dropping what it could not write.
    @Test func aFullNonBlockingPipeLosesNothing() throws {
        let folder = try SubfixBinary.folder("nonblocking")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try writeBigSRT(in: folder)
        let arguments = ["fix", "big.srt", "--dry-run", "--diff"]
        let expected = try SubfixBinary.run(arguments, in: folder)
        #expect(expected.stdout.utf8.count > 200_000)
        let process = Process()
        process.executableURL = SubfixBinary.executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let pipe = Pipe()
        let writeEnd = pipe.fileHandleForWriting.fileDescriptor
        #expect(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        try pipe.fileHandleForWriting.close()
        usleep(300_000)  // the pipe fills and stays full: writes fail with EAGAIN until it is read
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: output, as: UTF8.self) == expected.stdout)
    }

    /// SIGTERM in the middle of `fix --out`: the process dies by the signal, no output file is torn (each is
    /// absent or whole), and a rerun finishes the job and leaves no temporary file.
    @Test func terminatedRunLeavesNoTornFileAndTheRerunFinishes() throws {
        let folder = try SubfixBinary.folder("signal")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: false)
        var text = ""
        for index in 0..<8000 {
            text += "\(index + 1)\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好 \(index)</font>\n\n"
        }
        for file in 0..<40 { try SubfixBinary.write(text, to: folder + "/in/\(file).srt") }
        let fixed = text.replacingOccurrences(of: "SimHei", with: "Noto Sans CJK SC")
        // One named face (no face chosen per cue by its language) keeps the debug build's rerun short on a busy
        // machine; the files are still large enough for the signal to land while later ones are written.
        let face = ["--font", "Noto Sans CJK SC"]
        let running = try SubfixBinary.start(["fix", "in", "--out", "out", "--jobs", "1"] + face, in: folder)
        // Wait until the first file is reported, so that the signal arrives while later files are written.
        var polls = 0
        while !running.stdoutSoFar.contains("changed"), running.process.isRunning, polls < 3000 {
            usleep(10_000)
            polls += 1
        }
        kill(running.process.processIdentifier, SIGTERM)
        let run = running.finish()
        #expect(run.signal == SIGTERM || run.status == 0)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/out")) ?? []
        for name in written where !name.hasPrefix(".") {
            #expect(try String(contentsOfFile: folder + "/out/" + name, encoding: .utf8) == fixed)
        }
        let rerun = try SubfixBinary.run(["fix", "in", "--out", "out"] + face, in: folder)
        #expect(rerun.status == 0)
        let after = try FileManager.default.contentsOfDirectory(atPath: folder + "/out")
        #expect(after.count == 40)
        #expect(!after.contains { $0.hasPrefix(".") })
    }

    /// kill -9 at points spread over `fix --in-place` on 2,000 small files (batches flushed with one `syncfs`):
    /// every file is its original or its whole fixed version, and the rerun finishes the rest.
    @Test func kill9DuringABatchOfSmallFilesLeavesEachFileOldOrNew() throws {
        let folder = try SubfixBinary.folder("kill9-batch")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: false)
        let count = 2000
        func original(_ index: Int) -> String {
            "1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好 \(index)</font>\n\n"
        }
        let fixed = { (index: Int) in original(index).replacingOccurrences(of: "SimHei", with: "Noto Sans CJK SC") }
        let face = ["--font", "Noto Sans CJK SC"]
        var sawNew = 0
        for attempt in 0..<4 {
            for index in 0..<count { try SubfixBinary.write(original(index), to: folder + "/in/\(index).srt") }
            let running = try SubfixBinary.start(["fix", "in", "--in-place"] + face, in: folder)
            // Once some files are reported, at a point that moves from run to run.
            var polls = 0
            while running.stdoutSoFar.components(separatedBy: "changed").count <= 1 + attempt * 150,
                running.process.isRunning, polls < 3000
            {
                usleep(2_000)
                polls += 1
            }
            kill(running.process.processIdentifier, SIGKILL)
            _ = running.finish()
            for index in 0..<count {
                let now = try String(contentsOfFile: folder + "/in/\(index).srt", encoding: .utf8)
                #expect(now == original(index) || now == fixed(index), "attempt \(attempt), file \(index)")
                if now == fixed(index) { sawNew += 1 }
            }
            let rerun = try SubfixBinary.run(["fix", "in", "--in-place"] + face, in: folder)
            #expect(rerun.status == 0)
            for index in stride(from: 0, to: count, by: 97) {
                #expect(try String(contentsOfFile: folder + "/in/\(index).srt", encoding: .utf8) == fixed(index))
            }
        }
        #expect(sawNew > 0)
    }

    /// After kill -9 between the backup and the rewrite of `fix --in-place`, the rerun stopped at "backup already
    /// exists" and the temporary file stayed forever (item 5). A backup equal to the file lets the rerun go on, a
    /// temporary file no live subfix holds is removed, and a backup that differs is still never overwritten.
    @Test func rerunAfterAKillFinishesTheJob() throws {
        let folder = try SubfixBinary.folder("rerun")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SubfixBinary.write(simHeiSRT, to: folder + "/a.srt")
        try SubfixBinary.write(simHeiSRT, to: folder + "/a.srt.orig")
        try SubfixBinary.write("half a file", to: folder + "/.a.srt.subfix-Ab12Cd")
        try SubfixBinary.write("not subfix's", to: folder + "/.a.srt.keep")
        let run = try SubfixBinary.run(["fix", "a.srt", "--in-place"], in: folder)
        #expect(run.stderr == "")
        #expect(run.status == 0)
        #expect(try String(contentsOfFile: folder + "/a.srt", encoding: .utf8).contains("Noto Sans CJK SC"))
        #expect(try String(contentsOfFile: folder + "/a.srt.orig", encoding: .utf8) == simHeiSRT)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                ".a.srt.keep", "a.srt", "a.srt.orig",
            ])

        try SubfixBinary.write(simHeiSRT, to: folder + "/b.srt")
        try SubfixBinary.write("another version", to: folder + "/b.srt.orig")
        let refused = try SubfixBinary.run(["fix", "b.srt", "--in-place"], in: folder)
        #expect(refused.status == 1)
        #expect(
            refused.errorLines == [
                "subfix: error: b.srt: backup 'b.srt.orig' already exists; not overwriting it (move it away or choose"
                    + " another --backup-suffix)"
            ])
    }

    /// A temporary file that a live subfix holds (its `flock`) is not removed by another run.
    @Test func temporaryFilesInUseAreKept() throws {
        let folder = try SubfixBinary.folder("held")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SubfixBinary.write(simHeiSRT, to: folder + "/a.srt")
        try SubfixBinary.write("being written", to: folder + "/.a.srt.subfix-Zz99Yy")
        let descriptor = open(folder + "/.a.srt.subfix-Zz99Yy", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX) == 0)
        let run = try SubfixBinary.run(["fix", "a.srt", "--in-place"], in: folder)
        #expect(run.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/.a.srt.subfix-Zz99Yy"))
    }
}
