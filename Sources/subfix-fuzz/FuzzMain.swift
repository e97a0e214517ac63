import Foundation

#if SUBFIX_LIBFUZZER
    import CLibFuzzer
#endif

/// `subfix-fuzz`: fuzzes the subtitle parsers, the rewriter, the encoding detector and the dialogue tokenizer
/// (`FuzzTarget`). Built by `make fuzz` with `-sanitize=fuzzer -DSUBFIX_LIBFUZZER`, it hands its arguments to
/// libFuzzer (`-max_total_time=N CORPUS...`); otherwise it runs the deterministic `MutationLoop`:
///
///     subfix-fuzz --seconds 5 [--seed N] [--crash FILE] CORPUS_FOLDER...
///
/// Before each input the loop writes nothing; when an input traps, a signal handler writes it to `--crash`
/// (default `fuzz-crash.bin`) so it can be replayed with `subfix-fuzz --replay FILE`.
@main
struct FuzzMain {
    static func main() {
        #if SUBFIX_LIBFUZZER
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
        #else
            exit(runLoop(Array(CommandLine.arguments.dropFirst())))
        #endif
    }

    /// Runs the mutation loop as the arguments say; returns the exit status (2 on a usage error).
    static func runLoop(_ arguments: [String]) -> Int32 {
        var seconds = 5.0
        var seed: UInt64 = 16
        var crashPath = "fuzz-crash.bin"
        var folders: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let value = index + 1 < arguments.count ? arguments[index + 1] : nil
            switch argument {
            case "--seconds":
                guard let value, let number = Double(value), number > 0 else { return usage() }
                seconds = number
                index += 1
            case "--seed":
                guard let value, let number = UInt64(value) else { return usage() }
                seed = number
                index += 1
            case "--crash":
                guard let value else { return usage() }
                crashPath = value
                index += 1
            case "--replay":
                guard let value, let data = FileManager.default.contents(atPath: value) else { return usage() }
                FuzzTarget.run([UInt8](data))
                print("subfix-fuzz: \(value) runs cleanly")
                return 0
            default:
                folders.append(argument)
            }
            index += 1
        }
        let seeds = corpus(folders)
        CrashRecorder.install(path: crashPath)
        var loop = MutationLoop(generator: .init(state: seed), seeds: seeds)
        let start = Date()
        var runs = 0
        for seedInput in seeds {
            CrashRecorder.run(seedInput)
            runs += 1
        }
        while Date().timeIntervalSince(start) < seconds {
            CrashRecorder.run(loop.nextInput())
            runs += 1
        }
        print("subfix-fuzz: \(runs) inputs from \(seeds.count) seeds in \(Int(seconds)) s, no crash (seed \(seed))")
        return 0
    }

    static func usage() -> Int32 {
        FileHandle.standardError.write(
            Data("usage: subfix-fuzz [--seconds N] [--seed N] [--crash FILE] [--replay FILE] CORPUS_FOLDER...\n".utf8))
        return 2
    }

    /// The files in `folders` (not recursive) and a few built-in seeds, so that an empty corpus still works.
    static func corpus(_ folders: [String]) -> [[UInt8]] {
        var seeds: [[UInt8]] = [
            Array("1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好</font>\n".utf8),
            Array("WEBVTT\n\nSTYLE\n::cue { font-family: SimHei, sans-serif }\n\n00:01.000 --> 00:02.000\nhi\n".utf8),
            Array(
                ("[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize\n"
                    + "Style: Default,微软雅黑,20\n\n[Events]\nFormat: Layer, Start, End, Style, Text\n"
                    + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,{\\fnSimHei\\t(\\fnArial)}字{\\p1}m 0 0 l 1 1\n").utf8),
        ]
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() {
                let path = folder + "/" + name
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                    let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20
                else { continue }
                seeds.append([UInt8](data))
            }
        }
        return seeds
    }
}

#if SUBFIX_LIBFUZZER
    /// libFuzzer's per-input entry point (its own `main`, linked in by `-sanitize=fuzzer`, calls it directly).
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        FuzzTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
#endif
