import Foundation

/// Every font face libass could use in a given `FontSetup`, read with FreeType, plus what was skipped.
///
///     let catalog = try FontCatalog(setup: FontSetup(systemFonts: false, directories: ["Fonts"]))
///     catalog.resolve(FontRequest(family: "@Noto Sans CJK SC")).face?.displayName
public struct FontCatalog: Sendable {
    /// The setup the catalog was read for.
    public var setup: FontSetup
    /// Every face, in the order libass sees them: attachments and folders (its memory fonts) first, then
    /// fontconfig's fonts.
    public var faces: [FontFace]
    /// Fonts that could not be read.
    public var warnings: [FontWarning]
    /// Face 0 of `setup.defaultFont`, libass's last resort (it is opened by path, never matched by name).
    var defaultFace: FontFace?

    /// A catalog made of the given faces (for callers that stored one).
    public init(setup: FontSetup, faces: [FontFace], warnings: [FontWarning] = [], defaultFace: FontFace? = nil) {
        self.setup = setup
        self.faces = faces
        self.warnings = warnings
        self.defaultFace = defaultFace
    }

    /// Reads every font of `setup`. Broken fonts become `warnings`; only a failing FreeType or fontconfig
    /// itself throws. With `systemFamilies`, only fontconfig's faces of those families are read (a quick
    /// catalog for choosing among known faces); the bundled font, folders and attachments are read whole.
    public init(setup: FontSetup, systemFamilies: [String]? = nil) throws(FontError) {
        let library = try FreeTypeLibrary()
        var warnings: [FontWarning] = []
        var faces: [FontFace] = []
        var budget = FaceBudget()
        for attachment in setup.attachments {
            faces += FontCatalog.read(attachment: attachment, library: library, budget: &budget, warnings: &warnings)
        }
        var seen = Set<String>()
        for (path, origin) in setup.fontFiles(warnings: &warnings) where seen.insert(path).inserted {
            faces += FontCatalog.read(
                path: path, origin: origin, library: library, budget: &budget, warnings: &warnings)
        }
        if setup.systemFonts {
            let config = try FontconfigConfig()
            var indexesByPath: [String: [Int]] = [:]
            var order: [String] = []
            var listed: [(path: String, index: Int)] = []
            if let systemFamilies {
                for family in systemFamilies { listed += try config.fontFiles(family: family) }
            } else {
                listed = try config.fontFiles()
            }
            for (path, index) in listed {
                if indexesByPath[path] == nil { order.append(path) }
                if !(indexesByPath[path]?.contains(index) ?? false) { indexesByPath[path, default: []].append(index) }
            }
            for path in order.sorted() where !seen.contains(path) {
                for index in (indexesByPath[path] ?? []).sorted() {
                    do {
                        let face = try library.face(path: path, index: index)
                        guard face.isScalable else { continue }
                        faces.append(FontFace(reading: face, source: .file(path: path), index: index, origin: .system))
                    } catch {
                        warnings.append(FontWarning(file: path, cause: error.cause))
                    }
                }
            }
        }
        var defaultFace: FontFace?
        if let path = setup.defaultFont {
            var one = FaceBudget()
            defaultFace =
                FontCatalog.read(path: path, origin: .directory, library: library, budget: &one, warnings: &warnings)
                .first
        }
        self.init(setup: setup, faces: faces, warnings: warnings, defaultFace: defaultFace)
    }

    /// The catalog with `attachments` (a media file's fonts) added in front, where libass sees its memory
    /// fonts; broken attachments become warnings.
    public func adding(attachments: [FontAttachment]) throws(FontError) -> FontCatalog {
        guard !attachments.isEmpty else { return self }
        let library = try FreeTypeLibrary()
        var warnings: [FontWarning] = []
        var added: [FontFace] = []
        var budget = FaceBudget()
        for attachment in attachments {
            added += FontCatalog.read(attachment: attachment, library: library, budget: &budget, warnings: &warnings)
        }
        var setup = self.setup
        setup.attachments += attachments
        return FontCatalog(
            setup: setup, faces: added + faces, warnings: self.warnings + warnings, defaultFace: defaultFace)
    }

    /// Every distinct face of the font file at `path` (of a collection, at most `FontCollection.faceLimit`).
    static func read(
        path: String, origin: FontOrigin, library: FreeTypeLibrary, budget: inout FaceBudget,
        warnings: inout [FontWarning]
    ) -> [FontFace] {
        let collection = FontCollection(path: path)
        // A collection with faces left out is opened from its bounded bytes: FreeType may refuse the whole
        // header (more entries than the file could hold) where the faces themselves are fine.
        let bounded =
            collection.warning == nil
            ? nil
            : (try? InputFile.read(path).bytes).map {
                collection.bounded(Data($0))
            }
        return readFaces(name: path, collection: collection, budget: &budget, warnings: &warnings) {
            index throws(FontError) in
            if let bounded {
                return (
                    try library.face(data: bounded, name: path, index: index),
                    .file(path: path)
                )
            }
            return (try library.face(path: path, index: index), .file(path: path))
        }
        .map {
            var face = $0; face.origin = origin; return face
        }
    }

    /// Every distinct face of an in-memory font.
    static func read(
        attachment: FontAttachment, library: FreeTypeLibrary, budget: inout FaceBudget, warnings: inout [FontWarning]
    ) -> [FontFace] {
        let collection = FontCollection(data: attachment.data)
        let data = collection.bounded(attachment.data)
        return readFaces(name: attachment.name, collection: collection, budget: &budget, warnings: &warnings) {
            index throws(FontError) in
            (
                try library.face(data: data, name: attachment.name, index: index),
                .memory(name: attachment.name)
            )
        }
        .map {
            var face = $0; face.origin = .attachment; return face
        }
    }

    private static func readFaces(
        name: String, collection: FontCollection, budget: inout FaceBudget, warnings: inout [FontWarning],
        open: (Int) throws(FontError) -> (FreeTypeFace, FontSource)
    ) -> [FontFace] {
        if let warning = collection.warning { warnings.append(FontWarning(file: name, cause: warning)) }
        var faces: [FontFace] = []
        for index in collection.indexes {
            guard budget.take(file: name, warnings: &warnings) else { break }
            do {
                let (face, source) = try open(index)
                if !face.isScalable {
                    warnings.append(FontWarning(file: name, cause: "face \(index) has no outlines (bitmap font)"))
                } else {
                    let value = FontFace(reading: face, source: source, index: index, origin: .directory)
                    if value.coverage.count == 0 {
                        warnings.append(FontWarning(file: name, cause: "face \(index) has no Unicode character map"))
                    }
                    faces.append(value)
                }
            } catch {
                warnings.append(FontWarning(file: name, cause: error.cause))
            }
        }
        return faces
    }
}

/// How many more faces one setup's attachments and folders may still add (`FontCollection.setupFaceLimit`);
/// the first face past it is warned about once, and no more are read.
struct FaceBudget {
    private(set) var remaining = FontCollection.setupFaceLimit
    private var warned = false

    /// Takes `count` faces from the budget; false (with one warning for the whole setup) when fewer are left.
    mutating func take(_ count: Int = 1, file: String, warnings: inout [FontWarning]) -> Bool {
        guard remaining >= count else {
            if !warned {
                warned = true
                let cause =
                    "more than \(FontCollection.setupFaceLimit) font faces in one setup: this and later faces not read"
                warnings.append(FontWarning(file: file, cause: cause))
            }
            return false
        }
        remaining -= count
        return true
    }
}
