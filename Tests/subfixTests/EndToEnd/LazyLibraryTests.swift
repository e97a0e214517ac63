import Foundation
import Testing

/// `subfix` maps FFmpeg's libraries only when a command touches media, and libpq only when it is given a
/// postgresql:// URL: other commands start without them. Checked on the built executable through glibc's loader
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
        #expect(libraries.contains("libass.so.9"))
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
}
