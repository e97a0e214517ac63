import Foundation
import TestSupport
import Testing

@testable import SubCore

/// FFmpeg's libraries are loaded on first use (Sources/CFFmpegLoader), not when a process starts.
@Suite struct FFmpegLibrariesTests {
    @Test func loadingGivesTheVersionsTheHeadersNamed() throws {
        try FFmpegLibraries.load(file: "test")
        #expect(FFmpegLibraries.isLoaded)
        let versions = Dictionary(uniqueKeysWithValues: LinkedLibraries.all.map { ($0.name, $0.version) })
        // Debian 12's FFmpeg 5.1: libavformat 59, libavcodec 59, the majors loader.c builds the sonames from.
        #expect(versions["libavformat"]?.hasPrefix("59.") == true)
        #expect(versions["libavcodec"]?.hasPrefix("59.") == true)
    }

    @Test func aLibraryThatCannotBeOpenedIsReportedWithTheLoadersMessage() {
        #expect(
            FFmpegLibraries.sonames == ["libavutil.so.57", "libswscale.so.6", "libavcodec.so.59", "libavformat.so.59"])
        #expect(FFmpegLibraries.problem(opening: FFmpegLibraries.sonames) == nil)
        // The same code path as loading, with the last library missing: the loader's message, nothing kept open.
        let missing = FFmpegLibraries.sonames.dropLast() + ["libavformat.so.0-not-installed"]
        #expect(
            FFmpegLibraries.problem(opening: Array(missing))
                == "libavformat.so.0-not-installed: cannot open shared object file: No such file or directory")
        #expect(
            FFmpegLibraries.problem(opening: ["/nonexistent/libavutil.so.57"])
                == "/nonexistent/libavutil.so.57: cannot open shared object file: No such file or directory")
    }

    @Test func aFileThatIsNotALibraryIsReportedWithTheLoadersMessage() throws {
        let folder = try TestFiles.temporaryDirectory("ffmpeg-libraries")
        let fake = folder.appendingPathComponent("libavutil.so.57").path
        try Data(String(repeating: "not a shared library\n", count: 10).utf8).write(to: URL(fileURLWithPath: fake))
        #expect(FFmpegLibraries.problem(opening: [fake]) == "\(fake): invalid ELF header")
        let short = folder.appendingPathComponent("libswscale.so.6").path
        try Data("\u{7F}ELF".utf8).write(to: URL(fileURLWithPath: short))
        #expect(FFmpegLibraries.problem(opening: [short]) == "\(short): file too short")
    }

    @Test func unavailableLibrariesAreAnErrorNamingTheFile() {
        let error = MediaError.librariesUnavailable(
            file: "movie.mkv", message: "libavformat.so.59: cannot open shared object file: No such file or directory")
        #expect(error.file == "movie.mkv")
        #expect(
            error.description
                == "movie.mkv: FFmpeg's libraries could not be loaded: libavformat.so.59: cannot open shared object"
                + " file: No such file or directory")
    }
}
