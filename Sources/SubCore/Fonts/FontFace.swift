import Foundation

/// Where a face's bytes come from: a file on disk or font data held in memory (a media attachment).
public enum FontSource: Sendable, Hashable, Codable {
    /// A font file; `path` as given (absolute for fontconfig's fonts).
    case file(path: String)
    /// In-memory font data, named as its attachment is (`FZZY_GBK.TTF`).
    case memory(name: String)

    /// The path or the attachment name.
    public var name: String {
        switch self {
        case .file(let path): return path
        case .memory(let name): return name
        }
    }
}

/// Where a catalog face was found, which decides whether libass can see it in a given font mode.
public enum FontOrigin: String, Sendable, Hashable, Codable {
    /// subfix's own `Fonts/` folder.
    case bundled
    /// fontconfig's system fonts.
    case system
    /// A `--fonts-dir` folder.
    case directory
    /// A media file's font attachment.
    case attachment
}

/// One face of a font file, as FreeType reads it: names, style and character coverage.
///
///     face.families        // ["Noto Sans CJK SC", "思源黑体"] (every family name, localized ones too)
///     face.coverage.missing(in: "中文")
public struct FontFace: Sendable, Hashable, Codable {
    /// The file or attachment holding the face.
    public var source: FontSource
    /// Which face of the file (0 unless the file is a TTC/OTC collection).
    public var index: Int
    /// Where the face was found.
    public var origin: FontOrigin
    /// Every family name of the name table (IDs 1 and 16, all platforms and languages), first seen first.
    public var families: [String]
    /// Every full name (ID 4).
    public var fullNames: [String]
    /// The PostScript name (ID 6), when there is one.
    public var postScriptName: String?
    /// OS/2 weight class, 100 to 900 (400 regular, 700 bold).
    public var weight: Int
    /// Whether the face is italic or oblique.
    public var isItalic: Bool
    /// The characters the face maps to glyphs.
    public var coverage: FontCoverage
    /// The family names libass matches requests against: Windows-platform family names (ID 1, every
    /// language) for fonts it reads itself; fontconfig's family list for system fonts.
    public var matchFamilies: [String]
    /// Whether the outlines are PostScript (CFF): libass then matches the PostScript name, not the full name.
    public var hasPostScriptOutlines: Bool

    /// A face described field by field (the catalog builds these from FreeType).
    public init(
        source: FontSource, index: Int, origin: FontOrigin, families: [String], fullNames: [String],
        postScriptName: String?, weight: Int, isItalic: Bool, coverage: FontCoverage, matchFamilies: [String]? = nil,
        hasPostScriptOutlines: Bool = false
    ) {
        self.source = source
        self.index = index
        self.origin = origin
        self.families = families
        self.fullNames = fullNames
        self.postScriptName = postScriptName
        self.weight = weight
        self.isItalic = isItalic
        self.coverage = coverage
        self.matchFamilies = matchFamilies ?? families
        self.hasPostScriptOutlines = hasPostScriptOutlines
    }

    /// The first family name (the English one when the font lists it first, as most do).
    public var family: String { families.first ?? postScriptName ?? source.name }

    /// `Noto Sans CJK SC (NotoSansCJKsc-Regular.otf)` or with `#2` for a collection's third face.
    public var displayName: String {
        let file = source.name.split(separator: "/").last.map(String.init) ?? source.name
        return "\(family) (\(file)\(index > 0 ? "#\(index)" : ""))"
    }
}

extension FontFace {
    /// Reads names, style and coverage from an opened FreeType face.
    init(reading face: FreeTypeFace, source: FontSource, index: Int, origin: FontOrigin) {
        self.init(reading: face, source: source, index: index, origin: origin, isBold: face.isBold)
    }

    private init(reading face: FreeTypeFace, source: FontSource, index: Int, origin: FontOrigin, isBold: Bool) {
        var families: [String] = []
        var fullNames: [String] = []
        var postScript: String?
        var windowsFamilies: [String] = []
        func add(_ text: String, to list: inout [String]) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty, !list.contains(trimmed) { list.append(trimmed) }
        }
        let records = face.nameRecords()
        // Windows records first (what libass reads), then Mac and Unicode ones for anything they add.
        for record in records.sorted(by: { ($0.platform == 3 ? 0 : 1) < ($1.platform == 3 ? 0 : 1) }) {
            switch record.nameID {
            case FontNameRecord.family, FontNameRecord.typographicFamily:
                add(record.text, to: &families)
                if record.platform == 3 && record.nameID == FontNameRecord.family {
                    add(record.text, to: &windowsFamilies)
                }
            case FontNameRecord.fullName: add(record.text, to: &fullNames)
            case FontNameRecord.postScript where postScript == nil: postScript = record.text
            default: break
            }
        }
        if families.isEmpty, let name = face.familyName { families.append(name) }
        if windowsFamilies.isEmpty, let name = face.familyName { windowsFamilies.append(name) }
        self.init(
            source: source, index: index, origin: origin, families: families, fullNames: fullNames,
            postScriptName: postScript ?? face.postScriptName, weight: face.weight, isItalic: face.isItalic,
            coverage: FontCoverage(scalars: face.unicodeScalars()),
            matchFamilies: origin == .system ? families : windowsFamilies,
            hasPostScriptOutlines: face.hasPostScriptOutlines)
    }
}
