import Foundation

/// A font `FontEmbedder` put into a script: which face, cut to how many characters, and its size.
public struct EmbeddedFontReport: Sendable, Hashable {
    /// The family the script's references name, and the subset answers to.
    public var family: String
    /// The name on the `fontname:` line.
    public var fileName: String
    /// The face it was cut from (`Noto Sans CJK JP (NotoSansCJK-Regular.ttc)`).
    public var source: String
    /// How many distinct characters it was asked to keep.
    public var characters: Int
    /// Its size in bytes, before encoding.
    public var bytes: Int
    /// The weight of the face it was cut from (700 for the Bold face).
    public var weight: Int = 400
    /// What the reader should know (no bold face here, so bold is synthetic), or nil.
    public var note: String?
}

/// Why a script's fonts could not be embedded: which face or family, and what went wrong (in the font file,
/// when the failure is in one).
public struct EmbedError: Hashable, FileError {
    /// The font file that could not be cut, when the failure is in one.
    public var file: String?
    /// The font face or family concerned.
    public var font: String
    /// What went wrong with it.
    public var reason: String

    /// An error about `font` (read from `file`, when there is one).
    public init(file: String? = nil, font: String, reason: String) {
        self.file = file
        self.font = font
        self.reason = reason
    }

    public var cause: String { "cannot embed \(font): \(reason)" }
}

/// Embeds, in an ASS/SSA script's `[Fonts]` section, a subset of each face the script's references name among
/// `families`, holding exactly the characters drawn with it (HarfBuzz's subsetter), so the script renders on a
/// player with no CJK fonts of its own. Faces come from `catalog`; fonts the script already carries stay, and
/// the ones subfix embedded before are replaced, so embedding twice gives the same bytes.
///
///     let embedder = FontEmbedder(catalog: catalog, families: ["Noto Sans CJK JP"])
///     let (edits, fonts) = try embedder.embed(in: try ASSDocument(utf8: fixed, file: "a.ass"))
public struct FontEmbedder: Sendable {
    /// Where the faces come from.
    public let catalog: FontCatalog
    /// The families that may be embedded (those subfix rewrites references to).
    public let families: [String]

    /// An embedder for `families`, cutting faces from `catalog`.
    public init(catalog: FontCatalog, families: [String]) {
        self.catalog = catalog
        self.families = families
    }

    /// The edits that embed the subsets into `document`, and what was embedded. `also` adds families for this
    /// document (those its references were just rewritten to).
    public func embed(in document: ASSDocument, also: [String] = []) throws(EmbedError) -> (
        edits: [TextEdit], fonts: [EmbeddedFontReport]
    ) {
        let subsets = try subsets(for: document.charactersByFont(), also: also)
        return (document.embedding(subsets.map(\.font)), subsets.map(\.report))
    }

    /// A subset of each face among `families` (and `also`) that `drawn` (characters by font and weight, as
    /// `ASSDocument.charactersByFont()` gives them) uses, holding exactly those characters, named
    /// `subfix-<Family>_0.otf` (or `.ttf`). Bold text gets the family's bold face as a subset of its own,
    /// `subfix-<Family>-Bold_0.otf`, so that a player draws the real bold; where the family has no bold face here,
    /// its characters join the regular subset (drawn with synthetic bold) and the report says so.
    /// `subfix fix --remux` attaches these to a Matroska file instead of embedding them in `[Fonts]`.
    public func subsets(
        for drawn: [FontUse: Set<Unicode.Scalar>], also: [String] = []
    ) throws(EmbedError) -> [(font: EmbeddedFont, report: EmbeddedFontReport)] {
        let chooser = FaceChooser(catalog: catalog)
        var subsets: [(font: EmbeddedFont, report: EmbeddedFontReport)] = []
        var wanted: [String] = []
        for family in families + also where !wanted.contains(where: { FontCatalog.sameName($0, family) }) {
            wanted.append(family)
        }
        for family in wanted {
            var regular = Set<Unicode.Scalar>()
            var bold = Set<Unicode.Scalar>()
            for (use, characters) in drawn where FontCatalog.sameName(use.family, family) {
                if use.isBold { bold.formUnion(characters) } else { regular.formUnion(characters) }
            }
            var boldSubset: (font: EmbeddedFont, report: EmbeddedFontReport)?
            var note: String?
            if !bold.isEmpty {
                let needed = Self.needed(bold)
                if let (face, _) = chooser.bestFace(family, covering: needed, weight: 700), face.weight >= 600 {
                    boldSubset = try subset(of: face, family: family, keeping: bold, needed: needed, bold: true)
                } else {
                    note = "no bold face of \(family) here: its bold text is drawn with synthetic bold"
                    regular.formUnion(bold)
                }
            }
            if !regular.isEmpty {
                let needed = Self.needed(regular)
                guard let (face, _) = chooser.bestFace(family, covering: needed) else {
                    throw EmbedError(
                        font: family,
                        reason: "no face of that name is available here (install Debian's fonts-noto-cjk, or give"
                            + " --fonts-dir)")
                }
                var entry = try subset(of: face, family: family, keeping: regular, needed: needed, bold: false)
                entry.report.note = note
                subsets.append(entry)
            }
            if let boldSubset { subsets.append(boldSubset) }
        }
        return subsets
    }

    /// The characters of `characters` that need a glyph, ascending.
    private static func needed(_ characters: Set<Unicode.Scalar>) -> [Unicode.Scalar] {
        characters.filter(FontCoverage.needsGlyph).sorted { $0.value < $1.value }
    }

    /// A subset of `face` keeping `characters` (and the spaces), named for `family` and its weight.
    private func subset(
        of face: FontFace, family: String, keeping characters: Set<Unicode.Scalar>, needed: [Unicode.Scalar],
        bold: Bool
    ) throws(EmbedError) -> (font: EmbeddedFont, report: EmbeddedFontReport) {
        var keep = characters
        keep.formUnion([" ", "\u{A0}"])
        let data: Data
        do {
            let bytes = face.source.memoryData(in: catalog)
            data = try FontSubsetter.subset(face.source, index: face.index, data: bytes, characters: keep)
        } catch {
            throw EmbedError(file: error.file, font: face.displayName, reason: error.cause)
        }
        let fileName =
            EmbeddedFont.subfixPrefix + family.filter { !$0.isWhitespace && $0 != "/" && $0 != "\\" }
            + (bold ? "-Bold" : "") + (face.hasPostScriptOutlines ? "_0.otf" : "_0.ttf")
        let covered = needed.count { face.coverage.contains($0) }
        return (
            EmbeddedFont(name: fileName, data: data),
            EmbeddedFontReport(
                family: family, fileName: fileName, source: face.displayName, characters: covered, bytes: data.count,
                weight: face.weight)
        )
    }
}

extension FontSource {
    /// The bytes of a memory font, from the catalog's attachments; nil for files (HarfBuzz maps those itself).
    func memoryData(in catalog: FontCatalog) -> Data? {
        guard case .memory(let name) = self else { return nil }
        return catalog.setup.attachments.first { $0.name == name }?.data
    }
}

/// A font as a script draws with it: the name and whether the text is bold (a weight of 600 or more), which
/// picks the Regular or the Bold face of the family.
public struct FontUse: Sendable, Hashable, Comparable {
    /// The font name (trimmed, without a vertical `@`).
    public var family: String
    public var isBold: Bool

    /// `family` drawn bold or not.
    public init(_ family: String, bold: Bool = false) {
        self.family = family
        self.isBold = bold
    }

    public static func < (a: FontUse, b: FontUse) -> Bool {
        (a.family, a.isBold ? 1 : 0) < (b.family, b.isBold ? 1 : 0)
    }
}

extension ASSDocument {
    /// For each font name the script draws with (trimmed, without a vertical `@`) and weight, the characters
    /// drawn with it, split by font the way libass applies `\fn`, `\b`, `\r` and drawings (`EventTextRuns`).
    public func charactersByFont() -> [FontUse: Set<Unicode.Scalar>] {
        let styles = self.styles.map {
            AssStyle(name: $0.name, fontName: $0.fontName, isBold: $0.isBold, isItalic: false)
        }
        let byName = Dictionary(styles.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let fallback = byName["Default"] ?? AssStyle(name: "Default", fontName: "", isBold: false, isItalic: false)
        var result: [FontUse: Set<Unicode.Scalar>] = [:]
        utf8.withUnsafeBufferPointer { buffer in
            forEachEvent(buffer) { _, isComment, fields, text in
                guard !isComment else { return }
                let styleName =
                    fields.styleIndexField.flatMap { $0 < fields.count ? fields[$0] : nil }
                    .map { buffer.string(buffer.trimmingBlanks($0)) } ?? ""
                let style = byName[styleName] ?? fallback
                for run in EventTextRuns.split(buffer.string(text), style: style, styles: styles) {
                    let use = FontUse(run.font.family, bold: run.font.weight >= 600)
                    result[use, default: []].formUnion(run.text.unicodeScalars)
                }
            }
        }
        return result
    }
}
