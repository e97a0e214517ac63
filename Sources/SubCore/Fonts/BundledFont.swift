import Foundation

/// The CJK font that ships in `Fonts/`, which subfix registers by default and rewrites font names to.
///
///     let target = BundledFont.familyName      // "Noto Sans CJK SC"
///     let folder = BundledFont.directory()     // .../Fonts, or nil when it cannot be found
public enum BundledFont {
    /// The family name of the bundled font: the default target of `subfix fix`.
    public static let familyName = "Noto Sans CJK SC"

    /// The file name of the bundled font inside `Fonts/`.
    public static let fileName = "NotoSansCJKsc-Subset.otf"

    /// The folder holding the bundled font, searched in this order: `$SUBFIX_FONTS_DIR`;
    /// `../share/subfix/fonts` next to the executable (an installed copy); a `Fonts/` folder in the
    /// executable's folder or one of its parents (a build inside a checkout); the checkout this
    /// file was compiled from.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        var candidates: [URL] = []
        if let override = environment["SUBFIX_FONTS_DIR"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override))
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        candidates.append(folder.appendingPathComponent("../share/subfix/fonts").standardizedFileURL)
        for _ in 0..<6 {
            candidates.append(folder.appendingPathComponent("Fonts"))
            folder = folder.deletingLastPathComponent()
        }
        let checkout = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(checkout.appendingPathComponent("Fonts"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(fileName).path) }
    }

    /// The path of the bundled font file, or nil when its folder cannot be found.
    public static func fileURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        directory(environment: environment)?.appendingPathComponent(fileName)
    }
}
