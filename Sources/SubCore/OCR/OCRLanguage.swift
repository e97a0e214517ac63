import Foundation

/// The Tesseract language (`chi_sim`, `jpn`, `eng+jpn`) a bitmap track is recognized in: from `--ocr-lang` when
/// given, else from the track's language tag and title (`chi` with the title 繁體中文 is `chi_tra`), else English.
public struct OCRLanguage: Sendable, Hashable, CustomStringConvertible {
    /// Tesseract's code, `+`-joined for several (`TessBaseAPIInit2`'s `language`).
    public let code: String

    /// A language from Tesseract's code (`chi_sim`) or a tag subfix knows (`zh-Hant`, `ja`, `jpn`, `ko`, `en`).
    /// nil when it is neither.
    public init?(_ text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map {
            OCRLanguage.tesseractCode(String($0))
        }
        guard !parts.isEmpty, !parts.contains(nil) else { return nil }
        code = parts.compactMap { $0 }.joined(separator: "+")
    }

    private init(code: String) {
        self.code = code
    }

    public var description: String { code }

    /// The language a track is read in: its tag and title (both models of a bilingual title such as 简日双语),
    /// else English.
    public static func forTrack(_ stream: MediaStream) -> OCRLanguage {
        if let tags = stream.languageTags {
            var codes: [String] = []
            if tags.languages.contains(.japanese) { codes.append("jpn") }
            if tags.languages.contains(.simplifiedChinese) { codes.append("chi_sim") }
            if tags.languages.contains(.traditionalChinese) { codes.append("chi_tra") }
            if tags.chinese && !codes.contains(where: { $0.hasPrefix("chi") }) { codes.append("chi_sim") }
            if tags.languages.contains(.korean) { codes.append("kor") }
            if !codes.isEmpty { return OCRLanguage(code: codes.joined(separator: "+")) }
        }
        if let tag = stream.language, let code = tesseractCode(tag) { return OCRLanguage(code: code) }
        return OCRLanguage(code: "eng")
    }

    /// The same language for vertical text: `jpn_vert` for Japanese (Tesseract's vertical model), else itself.
    var vertical: OCRLanguage {
        OCRLanguage(
            code: code.split(separator: "+").map { $0 == "jpn" ? "jpn_vert" : String($0) }.joined(separator: "+"))
    }

    /// Whether vertical layout is worth looking for (Japanese, Chinese).
    var mayBeVertical: Bool { code.split(separator: "+").contains { $0.hasPrefix("jpn") || $0.hasPrefix("chi") } }

    /// The codes of the parts (`["chi_sim", "eng"]`).
    var parts: [String] { code.split(separator: "+").map(String.init) }

    /// The Debian package that installs Tesseract's data for `part` (`chi_sim` → `tesseract-ocr-chi-sim`).
    static func debianPackage(for part: String) -> String {
        "tesseract-ocr-" + part.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    /// Tesseract's code for a tag: the tag itself when it is a code Tesseract uses (three lowercase letters,
    /// optionally `_` and a script), else the ISO 639 or BCP 47 tags of the languages subfix cares about.
    static func tesseractCode(_ tag: String) -> String? {
        let lower = tag.lowercased()
        let known: [String: String] = [
            "zh": "chi_sim", "zh-hans": "chi_sim", "zh-cn": "chi_sim", "zh-sg": "chi_sim", "chs": "chi_sim",
            "chi": "chi_sim", "zho": "chi_sim", "zh-hant": "chi_tra", "zh-tw": "chi_tra", "zh-hk": "chi_tra",
            "cht": "chi_tra", "ja": "jpn", "jp": "jpn", "ko": "kor", "en": "eng", "fr": "fra", "de": "deu",
            "es": "spa", "it": "ita", "pt": "por", "ru": "rus", "fre": "fra", "ger": "deu",
        ]
        if let code = known[lower] { return code }
        let pieces = lower.split(separator: "_", omittingEmptySubsequences: false)
        guard let first = pieces.first, first.count == 3, first.allSatisfy({ $0.isASCII && $0.isLetter }),
            pieces.count <= 2, pieces.dropFirst().allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) })
        else { return nil }
        return lower
    }
}
