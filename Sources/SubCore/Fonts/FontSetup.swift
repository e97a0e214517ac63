import Foundation

/// Font data held in memory, such as a media file's font attachment.
public struct FontAttachment: Sendable, Hashable {
    /// The attachment's file name (`FZZY_GBK.TTF`), used in messages.
    public var name: String
    public var data: Data

    /// An attachment named `name` holding `data`.
    public init(name: String, data: Data) {
        self.name = name
        self.data = data
    }
}

/// Which fonts libass (and the catalog that mirrors it) may use.
///
///     FontSetup()                                                  // fontconfig's fonts + the bundled Fonts/
///     FontSetup(systemFonts: false, directories: ["Fonts"])        // a sandboxed player: only these
public struct FontSetup: Sendable, Hashable {
    /// fontconfig's system fonts plus subfix's bundled `Fonts/` (false for `--no-system-fonts`).
    public var systemFonts: Bool
    /// `--fonts-dir` folders, searched recursively for .ttf, .otf, .ttc and .otc files.
    public var directories: [String]
    /// In-memory fonts (a media file's attachments).
    public var attachments: [FontAttachment]
    /// The bundled font folder used when `systemFonts` is on (`BundledFont.directory()` by default).
    public var bundledDirectory: URL?
    /// A font file libass falls back to when nothing else matches a name or has a glyph (`ass_set_fonts`'s
    /// default font), as a player ships one; nil for none.
    public var defaultFont: String?

    /// A setup; the bundled folder is looked up the usual way.
    public init(
        systemFonts: Bool = true, directories: [String] = [], attachments: [FontAttachment] = [],
        bundledDirectory: URL? = BundledFont.directory(), defaultFont: String? = nil
    ) {
        self.systemFonts = systemFonts
        self.directories = directories
        self.attachments = attachments
        self.bundledDirectory = bundledDirectory
        self.defaultFont = defaultFont
    }

    /// The font files of `directories` (and of the bundled folder when system fonts are on), sorted by path
    /// within each folder, with where each came from. Unreadable folders are reported in `warnings`.
    func fontFiles(warnings: inout [FontWarning]) -> [(path: String, origin: FontOrigin)] {
        var files: [(String, FontOrigin)] = []
        if systemFonts, let bundled = bundledDirectory {
            files += FontSetup.scan(bundled.path, warnings: &warnings).map { ($0, .bundled) }
        }
        for directory in directories {
            files += FontSetup.scan(directory, warnings: &warnings).map { ($0, .directory) }
        }
        return files
    }

    /// File extensions taken as fonts (lowercased).
    static let fontExtensions: Set<String> = ["ttf", "otf", "ttc", "otc"]

    /// The font files under `directory`, recursively, sorted.
    static func scan(_ directory: String, warnings: inout [FontWarning]) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            warnings.append(FontWarning(file: directory, cause: "not a folder"))
            return []
        }
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
            warnings.append(FontWarning(file: directory, cause: "cannot list the folder"))
            return []
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let ext = (relative as NSString).pathExtension.lowercased()
            guard fontExtensions.contains(ext) else { continue }
            let path = (directory as NSString).appendingPathComponent(relative)
            if let refusal = refusal(path) {
                warnings.append(FontWarning(file: path, cause: refusal))
                continue
            }
            files.append(path)
        }
        return files.sorted()
    }

    /// Why a font file is not opened at all: a FIFO named `x.ttf` would block FreeType's open forever, a device
    /// would never end (`InputFile`'s checks). Nil for a regular file.
    static func refusal(_ path: String) -> String? {
        do {
            try InputFile.check(path)
            return nil
        } catch {
            if case .notRegular = error.problem { return error.cause }
            return nil
        }
    }
}

/// A font that was skipped, and why (a broken or truncated file is a warning, never a crash).
public struct FontWarning: Sendable, Hashable, CustomStringConvertible {
    /// The file, folder or attachment name.
    public var file: String
    /// What went wrong.
    public var cause: String

    /// A warning about `file`.
    public init(file: String, cause: String) {
        self.file = file
        self.cause = cause
    }

    /// `file: cause`.
    public var description: String { "\(file): \(cause)" }
}
