internal import CFontconfig

/// fontconfig's configuration with its font list loaded. The corresponding C calls are
/// `FcInitLoadConfigAndFonts` and `FcConfigDestroy`.
final class FontconfigConfig {
    private let handle: OpaquePointer

    init() throws(FontError) {
        if let problem = TextLibrary.fontconfig.loadProblem() {
            throw .libraryUnavailable(soname: TextLibrary.fontconfig.soname, message: problem)
        }
        guard let config = FcInitLoadConfigAndFonts() else { throw .fontconfig(function: "FcInitLoadConfigAndFonts") }
        handle = config
    }

    deinit { FcConfigDestroy(handle) }

    /// Every scalable font file fontconfig knows, with its face index. The corresponding C call is `FcFontList`.
    /// With `family`, only the fonts that have that family name (any of their names, as fontconfig matches).
    func fontFiles(family: String? = nil) throws(FontError) -> [(path: String, index: Int)] {
        let pattern = try FontconfigPattern()
        if let family {
            let added = family.withCString { name in
                name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
                    FcPatternAddString(pattern.handle, "family", $0)
                }
            }
            if added == 0 { throw .fontconfig(function: "FcPatternAddString") }
        }
        let objects = try FontconfigObjectSet(properties: ["file", "index"])
        let list = try FontconfigFontSet(config: handle, pattern: pattern, objects: objects)
        let set = list.handle
        var files: [(path: String, index: Int)] = []
        for item in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[item] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            var index: Int32 = 0
            guard FcPatternGetString(font, "file", 0, &file) == FcResultMatch, let file else { continue }
            _ = FcPatternGetInteger(font, "index", 0, &index)
            // Variable fonts list named instances as index | (instance << 16); the face itself is the low bits.
            files.append((String(cString: file), Int(index & 0xFFFF)))
        }
        return files
    }
}

/// An empty pattern (matches every font). The corresponding C calls are `FcPatternCreate` and `FcPatternDestroy`.
private final class FontconfigPattern {
    let handle: OpaquePointer

    init() throws(FontError) {
        guard let pattern = FcPatternCreate() else { throw .fontconfig(function: "FcPatternCreate") }
        handle = pattern
    }

    deinit { FcPatternDestroy(handle) }
}

/// The properties `FcFontList` returns. The corresponding C calls are `FcObjectSetCreate`, `FcObjectSetAdd`
/// and `FcObjectSetDestroy`.
private final class FontconfigObjectSet {
    let handle: UnsafeMutablePointer<FcObjectSet>

    init(properties: [String]) throws(FontError) {
        guard let set = FcObjectSetCreate() else { throw .fontconfig(function: "FcObjectSetCreate") }
        handle = set
        for property in properties where FcObjectSetAdd(set, property) == 0 {
            throw .fontconfig(function: "FcObjectSetAdd")
        }
    }

    deinit { FcObjectSetDestroy(handle) }
}

/// The fonts `FcFontList` found. The corresponding C calls are `FcFontList` and `FcFontSetDestroy`.
private final class FontconfigFontSet {
    let handle: UnsafeMutablePointer<FcFontSet>

    init(config: OpaquePointer, pattern: FontconfigPattern, objects: FontconfigObjectSet) throws(FontError) {
        guard let set = FcFontList(config, pattern.handle, objects.handle) else {
            throw .fontconfig(function: "FcFontList")
        }
        handle = set
    }

    deinit { FcFontSetDestroy(handle) }
}
