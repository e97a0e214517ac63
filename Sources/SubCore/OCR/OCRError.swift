/// Why a bitmap subtitle track could not be recognized. Each case names the file and the track (its player index,
/// as `extract --track` counts), and `cause` says what the user can do about it.
///
///     subfix: error: movie.mkv: track 3: the Tesseract language data 'kor' is not installed (install the
///     Debian package tesseract-ocr-kor)
public enum OCRError: Equatable, FileError {
    /// libtesseract could not be loaded (it is loaded on first use); carries the dynamic loader's message.
    case libraryUnavailable(file: String, message: String)
    /// A language Tesseract has no data for: `package` is the Debian package that installs it.
    case missingLanguage(file: String, track: Int, language: String, package: String)
    /// `TessBaseAPIInit2` refused the language for another reason (unreadable or damaged data).
    case engineInit(file: String, track: Int, language: String)
    /// An `--ocr-lang` value that is neither a Tesseract code (`chi_sim`) nor a language tag subfix knows (`ja`).
    case unknownLanguage(file: String, track: Int, language: String)
    /// The track holds no subtitle events at all.
    case noEvents(file: String, track: Int)
    /// Not one event of the track could be prepared for recognition: every palette lacks contrast.
    case noContrast(file: String, track: Int)
    /// A track that is not a bitmap subtitle track was handed to the recognizer.
    case notBitmap(file: String, track: Int, codec: String)

    public var file: String? {
        switch self {
        case .libraryUnavailable(let file, _), .missingLanguage(let file, _, _, _), .engineInit(let file, _, _),
            .unknownLanguage(let file, _, _), .noEvents(let file, _), .noContrast(let file, _),
            .notBitmap(let file, _, _):
            return file
        }
    }

    public var cause: String {
        switch self {
        case .libraryUnavailable(_, let message):
            return "Tesseract could not be loaded (install the Debian package libtesseract5): \(message)"
        case .missingLanguage(_, let track, let language, let package):
            return "track \(track): the Tesseract language data '\(language)' is not installed (install the Debian "
                + "package \(package))"
        case .engineInit(_, let track, let language):
            return "track \(track): Tesseract could not load its '\(language)' language data (TessBaseAPIInit2 failed)"
        case .unknownLanguage(_, let track, let language):
            return "track \(track): '\(language)' is not a language OCR knows; give a Tesseract code such as eng, "
                + "chi_sim, chi_tra, jpn or kor"
        case .noEvents(_, let track):
            return "track \(track): the track has no subtitle events; nothing to recognize, no file written"
        case .noContrast(_, let track):
            return "track \(track): no event's palette has any contrast (text and background are the same colour); "
                + "nothing to recognize, no file written"
        case .notBitmap(_, let track, let codec):
            return "track \(track) is \(codec), not a bitmap subtitle track; extract it without --ocr"
        }
    }
}
