import Foundation
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
        let problem = FFmpegLibraries.problem(opening: "libavformat.so.0-not-installed")
        #expect(problem == "libavformat.so.0-not-installed: cannot open shared object file: No such file or directory")
        #expect(FFmpegLibraries.problem(opening: "libavcodec.so.59") == nil)
    }

    @Test func unavailableLibrariesAreAnErrorNamingTheFile() {
        let error = MediaError.librariesUnavailable(
            file: "movie.mkv", message: "libavformat.so.59: cannot open shared object file: No such file or directory")
        #expect(error.file == "movie.mkv")
        #expect(
            error.description
                == "FFmpeg's libraries could not be loaded: libavformat.so.59: cannot open shared object file: No "
                + "such file or directory")
    }
}
