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
        for attachment in setup.attachments {
            faces += FontCatalog.read(attachment: attachment, library: library, warnings: &warnings)
        }
        var seen = Set<String>()
        for (path, origin) in setup.fontFiles(warnings: &warnings) where seen.insert(path).inserted {
            faces += FontCatalog.read(path: path, origin: origin, library: library, warnings: &warnings)
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
            defaultFace = FontCatalog.read(path: path, origin: .directory, library: library, warnings: &warnings).first
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
        for attachment in attachments {
            added += FontCatalog.read(attachment: attachment, library: library, warnings: &warnings)
        }
        var setup = self.setup
        setup.attachments += attachments
        return FontCatalog(
            setup: setup, faces: added + faces, warnings: self.warnings + warnings, defaultFace: defaultFace)
    }

    /// Every face of the font file at `path` (all faces of a collection).
    static func read(path: String, origin: FontOrigin, library: FreeTypeLibrary, warnings: inout [FontWarning])
        -> [FontFace]
    {
        readFaces(name: path, warnings: &warnings) { index throws(FontError) in
            (try library.face(path: path, index: index), .file(path: path))
        }
        .map {
            var face = $0; face.origin = origin; return face
        }
    }

    /// Every face of an in-memory font.
    static func read(attachment: FontAttachment, library: FreeTypeLibrary, warnings: inout [FontWarning])
        -> [FontFace]
    {
        readFaces(name: attachment.name, warnings: &warnings) { index throws(FontError) in
            (
                try library.face(data: attachment.data, name: attachment.name, index: index),
                .memory(name: attachment.name)
            )
        }
        .map {
            var face = $0; face.origin = .attachment; return face
        }
    }

    private static func readFaces(
        name: String, warnings: inout [FontWarning],
        open: (Int) throws(FontError) -> (FreeTypeFace, FontSource)
    ) -> [FontFace] {
        var faces: [FontFace] = []
        var count = 1
        var index = 0
        while index < count {
            do {
                let (face, source) = try open(index)
                count = max(1, face.faceCount)
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
            index += 1
        }
        return faces
    }
}
