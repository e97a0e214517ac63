import Foundation

/// The CJK font that ships in `Fonts/`, which subfix registers by default and rewrites font names to.
///
///     let target = BundledFont.familyName      // "Noto Sans CJK SC"
///     let folder = BundledFont.directory()     // .../share/subfix/fonts or .../Fonts, nil when not found
public enum BundledFont {
    /// The family name of the bundled font: the default target of `subfix fix`.
    public static let familyName = "Noto Sans CJK SC"

    /// The file name of the bundled font inside `Fonts/`.
    public static let fileName = "NotoSansCJKsc-Subset.otf"

    /// The environment variable naming a folder that holds the bundled font, searched first.
    public static let environmentVariable = "SUBFIX_FONTS_DIR"

    /// The install layout's folder for the font, relative to the folder of the executable (`bin/`).
    static let installedRelativePath = "../share/subfix/fonts"

    /// The folder holding the bundled font for this process, or nil when it cannot be found; see `candidates`
    /// for the order.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        directory(environment: environment, executable: runningExecutable())
    }

    /// The folder holding the bundled font for `executable`, or nil when it cannot be found.
    public static func directory(environment: [String: String], executable: URL?) -> URL? {
        candidates(environment: environment, executable: executable).first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent(fileName).path)
        }
    }

    /// The path of the bundled font file, or nil when its folder cannot be found.
    public static func fileURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        directory(environment: environment)?.appendingPathComponent(fileName)
    }

    /// The folders searched, in order: `$SUBFIX_FONTS_DIR`; `../share/subfix/fonts` from the executable's
    /// folder, symbolic links resolved (an installed copy: `/usr/local/bin/subfix` reads
    /// `/usr/local/share/subfix/fonts`); and, for an executable built inside a checkout (under its `.build`
    /// folder), the checkout's `Fonts/`. Nothing else: a copied binary finds no font rather than the folder it
    /// happened to be compiled in, so `fix` can say that the names it writes will not resolve.
    public static func candidates(environment: [String: String], executable: URL?) -> [URL] {
        var folders: [URL] = []
        if let override = environment[environmentVariable], !override.isEmpty {
            folders.append(URL(fileURLWithPath: override))
        }
        guard let executable else { return folders }
        let binFolder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        folders.append(binFolder.appendingPathComponent(installedRelativePath).standardizedFileURL)
        let components = binFolder.pathComponents
        if let build = components.lastIndex(of: ".build"), build > 0 {
            let checkout = NSString.path(withComponents: Array(components[..<build]))
            folders.append(URL(fileURLWithPath: checkout).appendingPathComponent("Fonts"))
        }
        return folders
    }

    /// The file of the running executable: `/proc/self/exe` (the real file, however it was started: through
    /// `PATH`, a symbolic link or a relative path), else `argv[0]` made absolute.
    public static func runningExecutable() -> URL? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        guard let first = CommandLine.arguments.first, first.contains("/") else { return nil }
        return URL(fileURLWithPath: first)
    }
}
