internal import CTesseractLoader
import Foundation

/// One Tesseract engine for one language, used from one thread at a time. The corresponding C calls are
/// `TessBaseAPICreate` and `TessBaseAPIInit2`; `TessBaseAPIDelete` runs in `deinit`. Tesseract is loaded on first
/// use, so commands that never recognize anything never map it.
final class TesseractEngine {
    private let handle: OpaquePointer
    /// The language it was initialized with.
    let language: OCRLanguage

    /// An LSTM engine for `language`; throws `.missingLanguage` (naming the Debian package) when a part of it has
    /// no `.traineddata` file, before Tesseract is asked (it would print to standard error).
    init(language: OCRLanguage, file: String, track: Int) throws(OCRError) {
        try TesseractEngine.load(file: file)
        let folder = TesseractEngine.dataFolder
        for part in language.parts where !FileManager.default.fileExists(atPath: folder + "/" + part + ".traineddata") {
            throw .missingLanguage(
                file: file, track: track, language: part, package: OCRLanguage.debianPackage(for: part))
        }
        guard let created = TessBaseAPICreate() else {
            throw .engineInit(file: file, track: track, language: language.code)
        }
        // Tesseract's own messages (warnings about resolution, empty pages) would go to standard error.
        _ = TessBaseAPISetVariable(created, "debug_file", "/dev/null")
        guard TessBaseAPIInit2(created, folder, language.code, OEM_LSTM_ONLY) == 0 else {
            TessBaseAPIDelete(created)
            throw .engineInit(file: file, track: track, language: language.code)
        }
        _ = TessBaseAPISetVariable(created, "debug_file", "/dev/null")
        // Subtitles never hold a vertical bar, and Tesseract reads a capital I in a sans face as one ("| was").
        _ = TessBaseAPISetVariable(created, "tessedit_char_blacklist", "|")
        handle = created
        self.language = language
    }

    deinit { TessBaseAPIDelete(handle) }

    /// Recognizes dark text on a light `image` laid out as `layout` says; returns the text (trimmed, lines joined
    /// by `\n`) and Tesseract's mean confidence, 0 to 100.
    func recognize(_ image: GreyImage, layout: TextLayout) -> (text: String, confidence: Int) {
        TessBaseAPISetPageSegMode(handle, layout == .vertical ? PSM_SINGLE_BLOCK_VERT_TEXT : PSM_SINGLE_BLOCK)
        image.pixels.withUnsafeBufferPointer { pixels in
            TessBaseAPISetImage(
                handle, pixels.baseAddress, Int32(image.width), Int32(image.height), 1, Int32(image.width))
        }
        // Subtitle bitmaps carry no resolution; 300 dpi keeps Tesseract from guessing (and warning).
        TessBaseAPISetSourceResolution(handle, 300)
        defer { TessBaseAPIClear(handle) }
        guard let raw = TessBaseAPIGetUTF8Text(handle) else { return ("", 0) }
        defer { TessDeleteText(raw) }
        let confidence = Int(TessBaseAPIMeanTextConf(handle))
        let lines = String(cString: raw).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return (lines.filter { !$0.isEmpty }.joined(separator: "\n"), max(0, min(100, confidence)))
    }

    /// Where the language data is: `$TESSDATA_PREFIX` when set (as Tesseract reads it), else Debian's folder.
    static var dataFolder: String {
        if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            return prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        }
        return "/usr/share/tesseract-ocr/5/tessdata"
    }

    /// Loads libtesseract (once per process) or throws `.libraryUnavailable` with the loader's reason.
    static func load(file: String) throws(OCRError) {
        if let failure = loadFailure { throw .libraryUnavailable(file: file, message: failure) }
    }

    private static let loadFailure: String? = {
        var buffer = [CChar](repeating: 0, count: 512)
        let status = buffer.withUnsafeMutableBufferPointer { ctess_load($0.baseAddress, $0.count) }
        return status == 0
            ? nil : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Tesseract's version (`5.3.0`), or why it cannot be loaded.
    static var version: String {
        if let loadFailure { return "not loadable (\(loadFailure))" }
        return TessVersion().map { String(cString: $0) } ?? "unknown"
    }
}
