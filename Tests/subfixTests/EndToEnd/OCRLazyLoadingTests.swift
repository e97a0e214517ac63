import Foundation
import SubCore
import TestSupport
import Testing

/// Tesseract is mapped only by a run that recognizes something (`--ocr`): a media command without it, even on a
/// bitmap track, starts and ends without libtesseract. Checked through glibc's loader trace, as `LazyLibraryTests`.
@Suite struct OCRLazyLoadingTests {
    @Test func onlyOCRLoadsTesseract() throws {
        try #require(FileManager.default.isExecutableFile(atPath: LazyLibraryTests.executable.path))
        let directory = try TestFiles.temporaryDirectory("subfix-ocr-lazy")
        defer { try? FileManager.default.removeItem(at: directory) }
        let movie = try ExtractOCRTests.vobSub(in: directory)
        let (plain, plainStatus) = try LazyLibraryTests.loadedLibraries(["extract", movie, "--track", "1"])
        #expect(plainStatus == 1)
        #expect(plain.contains("libavformat.so.59"))
        #expect(!plain.contains { $0.hasPrefix("libtesseract") })
        let (ocr, ocrStatus) = try LazyLibraryTests.loadedLibraries(["extract", movie, "--track", "1", "--ocr"])
        #expect(ocrStatus == 0)
        #expect(ocr.contains("libtesseract.so.5"))
    }
}
