// swift-tools-version:6.0
import PackageDescription

/// subfix: CJK subtitle fixing, rendering and dialogue search for Linux.
///
/// Products: `SubDB` (a GRDB-style SQLite toolkit), `SubCore` (formats, rewriting,
/// media, fonts, rendering) and the `subfix` command-line tool.
let package = Package(
    name: "subfix",
    products: [
        .library(name: "SubDB", targets: ["SubDB"]),
        .library(name: "SubCore", targets: ["SubCore"]),
        .executable(name: "subfix", targets: ["subfix"]),
    ],
    targets: [
        // MARK: C system libraries (Debian packages in `providers`, installed by `make deps`)
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // FFmpeg's headers only (multiarch include path): CFFmpegLoader binds the libraries at run time, so no
        // pkg-config link flags.
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: nil,
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev"])]),
        // libass, fontconfig, HarfBuzz and uchardet: headers only (their paths below /usr/include), bound on first
        // use by CTextLoader, so no pkg-config link flags. FreeType's headers come with CTextLoader (its include
        // folder links to /usr/include/freetype2), bound there too.
        .systemLibrary(
            name: "CLibass", path: "Sources/CLibass", pkgConfig: nil,
            providers: [.apt(["libass-dev"])]),
        .systemLibrary(
            name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: nil,
            providers: [.apt(["libfontconfig1-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: nil,
            providers: [.apt(["libharfbuzz-dev"])]),
        // libpq's header only: CLibPQLoader binds the library at run time, so no pkg-config link flags.
        .systemLibrary(
            name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: nil,
            providers: [.apt(["libpq-dev"])]),
        .systemLibrary(
            name: "CUchardet", path: "Sources/CUchardet", pkgConfig: nil,
            providers: [.apt(["libuchardet-dev"])]),

        // FFmpeg's libraries, bound on first use instead of at process start (see its header).
        .target(name: "CFFmpegLoader", path: "Sources/CFFmpegLoader", linkerSettings: [.linkedLibrary("dl")]),
        // libass, fontconfig, HarfBuzz, hb-subset, uchardet and FreeType, each bound on first use (see its header).
        .target(name: "CTextLoader", path: "Sources/CTextLoader", linkerSettings: [.linkedLibrary("dl")]),
        // Tesseract's C API (libtesseract-dev), bound on first use: only `--ocr` runs load it (see its header).
        .target(name: "CTesseractLoader", path: "Sources/CTesseractLoader", linkerSettings: [.linkedLibrary("dl")]),
        // libpq, bound on first use: only commands given a postgresql:// URL pay for loading it (see its header).
        .target(name: "CLibPQLoader", path: "Sources/CLibPQLoader", linkerSettings: [.linkedLibrary("dl")]),

        // Linux calls Swift's Glibc module leaves out (sync_file_range).
        .target(name: "CSystem", path: "Sources/CSystem"),

        // MARK: Swift modules
        .target(
            name: "SubDB", dependencies: ["CSQLite"], exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // subfix's own library: its schema, job log, font catalog, dialogue index and search, on SubDB.
        .target(
            name: "SubfixLibrary", dependencies: ["SubDB", "SubCore", "CSQLite"], exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // The library on PostgreSQL through libpq: migrations, dialogue search and the shared work queue.
        .target(
            name: "SubfixPostgres", dependencies: ["CLibPQ", "CLibPQLoader", "SubfixLibrary"], exclude: ["README.md"],
            swiftSettings: swiftSettings),
        .target(
            name: "SubCore",
            dependencies: [
                "CFFmpeg", "CFFmpegLoader", "CSystem", "CLibass", "CFontconfig", "CHarfBuzz",
                "CUchardet", "CTextLoader", "CTesseractLoader",
            ],
            exclude: [
                "Embed/README.md", "Files/README.md", "Fix/README.md", "Fonts/README.md", "Media/README.md",
                "OCR/README.md", "Render/README.md", "Rewrite/README.md", "Text/README.md",
            ],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "subfix", dependencies: ["SubDB", "SubfixLibrary", "SubfixPostgres", "SubCore"],
            exclude: [
                "CLI/README.md", "Commands/README.md", "Fix/README.md", "Index/README.md", "Jobs/README.md",
                "Options/README.md", "Render/README.md", "Report/README.md",
            ],
            swiftSettings: swiftSettings),

        // MARK: Fuzzing (`make fuzz`): libFuzzer when built with `-sanitize=fuzzer -DSUBFIX_LIBFUZZER`, else a
        // deterministic mutation loop (the CI smoke run).
        .systemLibrary(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
        .executableTarget(
            name: "subfix-fuzz", dependencies: ["SubCore", "SubDB", "SubfixLibrary", "CLibFuzzer"],
            swiftSettings: swiftSettings),

        // MARK: Benchmarks (`make bench`)
        .executableTarget(
            name: "subdb-bench", dependencies: ["SubDB", "CSQLite"], path: "Benchmarks/SubDBBench",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "subset-bench", dependencies: ["SubCore"], path: "Benchmarks/SubsetBench",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "search-bench", dependencies: ["SubDB", "SubfixLibrary"], path: "Benchmarks/SearchBench",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "encoding-bench", dependencies: ["SubCore"], path: "Benchmarks/EncodingBench",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "ocr-bench", dependencies: ["SubCore"], path: "Benchmarks/OCRBench", swiftSettings: swiftSettings),

        // MARK: Tests
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "SubDBTests", dependencies: ["SubDB", "CSQLite", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SubfixLibraryTests", dependencies: ["SubfixLibrary", "SubDB", "TestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SubfixPostgresTests", dependencies: ["SubfixPostgres", "SubfixLibrary", "TestSupport"],
            swiftSettings: swiftSettings),
        // GRDB's README examples, compiled as a GRDB user writes them against `import SubDB`.
        .testTarget(name: "GRDBStyleTests", dependencies: ["SubDB"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SubCoreTests", dependencies: ["SubCore", "TestSupport"], exclude: ["Fixtures"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "subfixTests",
            dependencies: ["subfix", "SubCore", "SubDB", "SubfixLibrary", "SubfixPostgres", "TestSupport"],
            swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)

/// Swift 6 language mode is set package-wide; strict concurrency comes with it.
var swiftSettings: [SwiftSetting] { [] }
