/// The two corrections made to Tesseract's text, each where the reading can only be one thing:
/// - in English, a capital I in a sans-serif subtitle face is drawn as a plain bar, which Tesseract reads as `l` or
///   `|`; a word that is only that bar (`l was`), or the bar before an apostrophe (`l'm`), can only be `I`;
/// - in Chinese and Japanese, the models give ASCII `, ? ! : ;` for the full-width marks subtitles use; next to a
///   Han, kana or full-width character they are the full-width ones (`，？！：；`).
/// Every other reading stays Tesseract's.
enum OCRTextCleanup {
    /// `text` with both corrections applied where `language` calls for them.
    static func clean(_ text: String, language: OCRLanguage) -> String {
        let cjk = language.parts.contains { $0.hasPrefix("chi") || $0.hasPrefix("jpn") }
        let cleaned = cjk ? fullWidthPunctuation(text) : text
        return language.parts.contains("eng") ? englishI(cleaned) : cleaned
    }

    /// ASCII marks next to a CJK character made full-width.
    static func fullWidthPunctuation(_ text: String) -> String {
        let marks: [Character: Character] = [",": "，", "?": "？", "!": "！", ":": "：", ";": "；"]
        let characters = Array(text)
        func isWide(_ index: Int) -> Bool {
            guard characters.indices.contains(index), let scalar = characters[index].unicodeScalars.first else {
                return false
            }
            return scalar.value >= 0x2E80
        }
        var output = ""
        for (index, character) in characters.enumerated() {
            if let wide = marks[character], isWide(index - 1) || isWide(index + 1) {
                output.append(wide)
            } else {
                output.append(character)
            }
        }
        return output
    }

    /// Standalone `l`/`|` words made `I`.
    static func englishI(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
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
