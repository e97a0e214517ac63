import Foundation
import Testing

/// `subfix` maps FFmpeg's libraries only when a command touches media, libpq only when it is given a
/// postgresql:// URL, and libass, fontconfig, HarfBuzz, uchardet and FreeType only when it renders, looks up fonts, subsets
/// or detects an encoding: other commands start without them. Checked on the built executable through glibc's loader
/// trace (`LD_DEBUG=files`).
@Suite struct LazyLibraryTests {
    /// The `subfix` executable built next to the test bundle.
    static var executable: URL { SubfixBinary.executable }

    /// The libraries the dynamic loader opened while `subfix ARGS` ran, and its exit status.
    static func loadedLibraries(_ arguments: [String]) throws -> (libraries: Set<String>, status: Int32) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LD_DEBUG"] = "files"
        environment["XDG_DATA_HOME"] = nil
        environment["HOME"] = ""
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let trace = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Lines such as "   1234:     file=libavformat.so.59 [0];  dynamically loaded by ...".
        let names = trace.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " && $0 != "[" })
        }
        return (Set(names), process.terminationStatus)
    }

    @Test func fixingTextNeverLoadsFFmpeg() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        let texts = try FileManager.default.contentsOfDirectory(atPath: "Samples")
            .filter { ["ass", "ssa", "srt", "vtt"].contains(($0 as NSString).pathExtension) }.sorted()
        try #require(texts.count >= 5)
        let (libraries, status) = try Self.loadedLibraries(["fix", "--dry-run"] + texts.map { "Samples/" + $0 })
        #expect(status == 0)
        #expect(libraries.contains("libfontconfig.so.1"))  // the trace works: fonts are looked up
        let ffmpeg = ["libavformat", "libavcodec", "libavutil", "libswscale"]
        #expect(!libraries.contains { name in ffmpeg.contains { name.hasPrefix($0) } })
    }

    @Test func probingMediaLoadsFFmpegOnFirstUse() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        let (libraries, status) = try Self.loadedLibraries(["probe", "Samples/tram.mkv"])
        #expect(status == 0)
        #expect(libraries.contains("libavformat.so.59"))
        #expect(libraries.contains("libavcodec.so.59"))
        #expect(libraries.contains("libavutil.so.57"))
        #expect(libraries.contains("libswscale.so.6"))
    }

    @Test func searchingASQLiteLibraryNeverLoadsLibPQ() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("subfix-lazy-\(UUID()).sqlite")
        let (libraries, status) = try Self.loadedLibraries(["search", "你好", "--db", missing.path])
        #expect(status == 2)  // no library there: the error, not the loader, ends the run
        #expect(libraries.contains("libsqlite3.so.0"))
        #expect(!libraries.contains { $0.hasPrefix("libpq") || $0.hasPrefix("libgnutls") || $0.hasPrefix("libkrb5") })
    }

    @Test func aPostgresURLLoadsLibPQOnFirstUse() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        // Port 1 refuses the connection at once: libpq is loaded, tried, and its message reported.
        let (libraries, status) = try Self.loadedLibraries([
            "search", "你好", "--db", "postgresql://subfix@127.0.0.1:1/none?connect_timeout=2",
        ])
        #expect(status == 2)
        #expect(libraries.contains("libpq.so.5"))
    }

    /// The libraries CTextLoader opens on first use, and what they pull in.
    static let textLibraries = [
        "libass.so", "libfontconfig.so", "libharfbuzz.so", "libharfbuzz-subset.so", "libuchardet.so", "libglib-2.0",
        "libgraphite2", "libfribidi", "libfreetype.so", "libpng16", "libbrotli",
    ]

    @Test func searchingNeverLoadsTheTextLibraries() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("subfix-lazy-\(UUID()).sqlite")
        let (libraries, status) = try Self.loadedLibraries(["search", "你好", "--db", missing.path])
        #expect(status == 2)
        let loaded = libraries.filter { name in Self.textLibraries.contains { name.hasPrefix($0) } }
        #expect(loaded.isEmpty, "\(loaded)")
    }

    @Test func fixingALegacyEncodingLoadsFontconfigAndUchardetOnFirstUse() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        let (libraries, status) = try Self.loadedLibraries(["fix", "--dry-run", "Samples/gbk.srt"])
        #expect(status == 0)
        for soname in ["libfontconfig.so.1", "libuchardet.so.0"] {
            #expect(libraries.contains(soname), "\(soname) in \(libraries.sorted())")
        }
    }

    /// A library that cannot be loaded (here an empty file found first through LD_LIBRARY_PATH) is one error line
    /// naming it and the loader's reason, exit status 1, and no output file: never a crash.
    @Test(arguments: [
        ("libass.so.9", ["render", "Samples/render-demo.ass", "--at", "1", "--out", "OUT/frame.png"]),
        ("libfontconfig.so.1", ["fix", "Samples/yahei-styles.ass", "--out", "OUT"]),
        ("libfreetype.so.6", ["fix", "Samples/yahei-styles.ass", "--out", "OUT"]),
        ("libfreetype.so.6", ["fonts", "--no-system-fonts"]),
        ("libharfbuzz-subset.so.0", ["fix", "Samples/yahei-styles.ass", "--embed", "--out", "OUT"]),
    ])
    func anUnloadableLibraryIsOneErrorLine(soname: String, arguments: [String]) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        let folder = try SubfixBinary.folder("broken-lib")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let libraries = folder + "/lib"
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        try SubfixBinary.write("", to: libraries + "/" + soname)
        let out = folder + "/out"
        let run = try SubfixBinary.run(
            arguments.map { $0.replacingOccurrences(of: "OUT", with: out) },
            in: FileManager.default.currentDirectoryPath, environment: ["LD_LIBRARY_PATH": libraries])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("cannot load \(soname): \(libraries)/\(soname): file too short"), "\(run.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: out))?.isEmpty ?? true)
    }
}
