internal import CFFmpeg
internal import CFontconfig
internal import CLibass
internal import CTextLoader

/// A C library SubCore is linked against, with the version it reports at run time.
package struct LinkedLibrary: Sendable, Equatable {
    /// The library's usual name, such as `libavformat`.
    package var name: String
    /// The version the linked library reports, such as `59.27.100`.
    package var version: String

    /// A library and its version.
    package init(name: String, version: String) {
        self.name = name
        self.version = version
    }
}

/// The versions of the C libraries SubCore actually links (FFmpeg's on first use), read from
/// the libraries themselves.
package enum LinkedLibraries {
    /// libavformat, libavcodec, libavutil, libswscale, libass, FreeType and fontconfig, in that order.
    package static var all: [LinkedLibrary] {
        [
            LinkedLibrary(name: "libavformat", version: loadedFFmpeg { dotted(avformat_version(), bits: 8) }),
            LinkedLibrary(name: "libavcodec", version: loadedFFmpeg { dotted(avcodec_version(), bits: 8) }),
            LinkedLibrary(name: "libavutil", version: loadedFFmpeg { dotted(avutil_version(), bits: 8) }),
            LinkedLibrary(name: "libswscale", version: loadedFFmpeg { dotted(swscale_version(), bits: 8) }),
            LinkedLibrary(name: "libass", version: libassVersion()),
            LinkedLibrary(name: "FreeType", version: freetypeVersion()),
            LinkedLibrary(name: "fontconfig", version: fontconfigVersion()),
        ]
    }

    /// `version()` of an FFmpeg library, loaded on first use; the loader's reason when they cannot be loaded.
    static func loadedFFmpeg(_ version: () -> String) -> String {
        do {
            try FFmpegLibraries.load(file: "")
            return version()
        } catch {
            return "not loadable (\(error.description))"
        }
    }

    /// FFmpeg packs versions as `major << 16 | minor << 8 | micro`.
    static func dotted(_ packed: UInt32, bits: UInt32) -> String {
        let mask: UInt32 = (1 << bits) - 1
        return "\(packed >> 16).\((packed >> bits) & mask).\(packed & mask)"
    }

    /// libass writes its version in hex digits read as decimal: 0x01701000 is 0.17.1.
    static func libassVersion() -> String {
        if let problem = TextLibrary.libass.loadProblem() { return "not loadable (\(problem))" }
        let hex = String(UInt32(truncatingIfNeeded: ass_library_version()), radix: 16)
        let digits = Array(String(repeating: "0", count: max(0, 8 - hex.count)) + hex)
        func number(_ range: Range<Int>) -> Int { Int(String(digits[range])) ?? 0 }
        return "\(number(0..<1)).\(number(1..<3)).\(number(3..<5))"
    }

    static func freetypeVersion() -> String {
        if let problem = TextLibrary.freetype.loadProblem() { return "not loadable (\(problem))" }
        var library: FT_Library?
        guard ctext_FT_Init_FreeType(&library) == 0, let library else { return "unknown" }
        defer { ctext_FT_Done_FreeType(library) }
        var major: FT_Int = 0
        var minor: FT_Int = 0
        var patch: FT_Int = 0
        ctext_FT_Library_Version(library, &major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }

    /// fontconfig packs its version as `major * 10000 + minor * 100 + revision`.
    static func fontconfigVersion() -> String {
        if let problem = TextLibrary.fontconfig.loadProblem() { return "not loadable (\(problem))" }
        let packed = FcGetVersion()
        return "\(packed / 10000).\((packed / 100) % 100).\(packed % 100)"
    }
}
