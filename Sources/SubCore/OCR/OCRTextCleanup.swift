/// The one correction made to Tesseract's text: in English, a capital I in a sans-serif subtitle face is drawn as a
/// plain bar, which Tesseract reads as `l` or `|`. A word that is only that bar (`l was`), or the bar before an
/// apostrophe (`l'm`), can only be `I`. Nothing else is touched: every other reading stays Tesseract's.
enum OCRTextCleanup {
    /// `text` with standalone `l`/`|` words made `I` when `language` includes English.
    static func clean(_ text: String, language: OCRLanguage) -> String {
        guard language.parts.contains("eng") else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
                guard let first = word.first, first == "l" || first == "|" else { return String(word) }
                let rest = word.dropFirst()
                if rest.isEmpty || rest.first == "'" || rest.first == "’" || rest.allSatisfy({ ",.!?".contains($0) }) {
                    return "I" + rest
                }
                return String(word)
            }.joined(separator: " ")
        }.joined(separator: "\n")
    }
}
