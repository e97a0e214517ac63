import Foundation

/// The font attachments a remux adds: which characters each fixed track draws with which font, and the font
/// subsets (`FontEmbedder.subsets`) as Matroska attachments, minus those the file already carries.
///
///     var drawn: [FontUse: Set<Unicode.Scalar>] = [:]
///     RemuxFonts.merge(RemuxFonts.characters(in: fixedText, format: .ass, file: "a.mkv", families: []), into: &drawn)
///     let subsets = try embedder.subsets(for: drawn)
///     let (added, kept) = RemuxFonts.attachments(for: subsets.map(\.font), existing: try media.fontAttachments())
enum RemuxFonts {
    /// What a subset is when attached: `application/x-truetype-font` for TrueType outlines, else `font/otf`.
    static func mimeType(forFileName name: String) -> String {
        name.lowercased().hasSuffix(".ttf") ? "application/x-truetype-font" : "font/otf"
    }

    /// The characters `document` (a fixed track, UTF-8) draws with each font. For ASS/SSA, per style and `\fn`
    /// run (`ASSDocument.charactersByFont()`); SRT and WebVTT name fonts only in `<font face>`, so every
    /// character of the track counts for each of `families` whose name the track mentions (which gives the same
    /// answer for a track already fixed as for the track fixed now).
    static func characters(
        in document: [UInt8], format: SubtitleFormat, file: String, families: [String]
    ) -> [FontUse: Set<Unicode.Scalar>] {
        switch format {
        case .ass, .ssa:
            return (try? ASSDocument(utf8: document, file: file))?.charactersByFont() ?? [:]
        case .srt, .vtt:
            // ASCII case folding on bytes, then a plain byte search: fast on a track of thousands of cues.
            func folded(_ bytes: [UInt8]) -> [UInt8] {
                var result = bytes
                for index in result.indices where result[index] &- 0x41 < 26 { result[index] |= 0x20 }
                return result
            }
            let haystack = folded(document)
            let named = families.filter { family in
                let needle = folded(Array(family.utf8))
                return contains(haystack, needle)
            }
            guard !named.isEmpty else { return [:] }
            var characters = Set(String(decoding: document, as: UTF8.self).unicodeScalars)
            characters.subtract(["\n", "\r"])
            return Dictionary(named.map { (FontUse($0), characters) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Whether `needle` occurs in `haystack`.
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var start = 0
                let last = hay.count - pin.count
                while start <= last {
                    if hay[start] == first {
                        var matched = 1
                        while matched < pin.count && hay[start + matched] == pin[matched] { matched += 1 }
                        if matched == pin.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }

    /// Adds `characters` (by font) to `total`.
    static func merge(
        _ characters: [FontUse: Set<Unicode.Scalar>], into total: inout [FontUse: Set<Unicode.Scalar>]
    ) {
        for (font, set) in characters { total[font, default: []].formUnion(set) }
    }

    /// The subsets among `reports` for fonts `drawn` (one track's characters by font) draws with, compared as
    /// libass compares names.
    static func reports(
        _ reports: [EmbeddedFontReport], drawnIn drawn: [FontUse: Set<Unicode.Scalar>]
    ) -> [EmbeddedFontReport] {
        reports.filter { report in
            drawn.contains {
                !$0.value.isEmpty && FontCatalog.sameName($0.key.family, report.family)
                    && (report.weight >= 600) == $0.key.isBold
            }
        }
    }

    /// `fonts` as attachments: one whose bytes the file already carries is left out (returned in
    /// `alreadyAttached` with the existing name); a name the file already uses gets a numbered suffix
    /// (`subfix-NotoSansCJKSC_0-1.otf`). Names are made safe (`SafeFileName`).
    static func attachments(
        for fonts: [EmbeddedFont], existing: [(attachment: MediaAttachment, data: Data)]
    ) -> (added: [RemuxAttachment], alreadyAttached: [(font: String, existing: String)]) {
        var taken = Set(existing.compactMap { $0.attachment.fileName?.lowercased() })
        var added: [RemuxAttachment] = []
        var already: [(font: String, existing: String)] = []
        for font in fonts {
            if let same = existing.first(where: { $0.data == font.data }) {
                already.append((font.name, same.attachment.fileName ?? "stream \(same.attachment.index)"))
                continue
            }
            let base = SafeFileName.make(font.name, fallback: "subfix-font.otf")
            var name = base
            var number = 0
            while taken.contains(name.lowercased()) {
                number += 1
                name = SafeFileName.numbered(base, number)
            }
            taken.insert(name.lowercased())
            added.append(RemuxAttachment(fileName: name, mimeType: mimeType(forFileName: name), data: font.data))
        }
        return (added, already)
    }
}
