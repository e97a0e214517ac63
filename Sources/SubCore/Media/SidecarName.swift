/// How the sidecar subtitle files of a media file are named: subfix's own scheme, or the one a media server reads
/// its language and flags from. `SidecarName` builds each name and `SidecarNamer` keeps a file's names apart.
///
///     subfix     Movie.0.chi.ass           Movie.1.jpn.ass          Movie.2.chi.srt
///     jellyfin   Movie.zh-Hans.zh.forced.ass   Movie.ja.default.ass   Movie.zh.sdh.srt
///     plex       Movie.zh-Hans.zh.forced.ass   Movie.ja.ass           Movie.zh.sdh.srt
///
/// The rules followed, from each server's documentation and (for Jellyfin) its parser:
/// - **Jellyfin** (docs: "External Subtitles and Audio Tracks"; `Emby.Naming.ExternalFiles.ExternalPathParser`): the
///   file name starts with the video's name; the parts after it are read from the right: `default` marks the default
///   track, `forced` (or `foreign`) a forced one, `sdh`, `cc` or `hi` hearing-impaired, the last part its language list
///   knows (ISO 639-1, ISO 639-2/B or /T, or the English name) is the language, and every other part becomes the
///   stream's title. `zh-Hans` and `zh-Hant` are not in that list (it has `zh`), so the script is written as a part
///   of the title before the language: Jellyfin shows `zh-Hans` as the title and files the track as Chinese. Default
///   and forced are matched as substrings, so no title part may contain `default`, `forced` or `foreign`.
///   **Emby** reads the same names (Jellyfin's parser is Emby's `Emby.Naming`, and Emby's `SubtitleInfo` carries the
///   same language, default and forced).
/// - **Plex** ("Adding Local Subtitles to Your Media"): `Movie.<language>.<ext>` with an ISO 639-1 code (or 639-2/B),
///   optionally followed by `forced` and `sdh`; the language and flags stay the last parts. Plex documents no default
///   flag (its players choose by the account's language settings), so none is written.
/// - **Kodi** reads any part between the video's name and the extension as the language (`Movie.English.srt`,
///   `Movie.en.forced.srt`), so either server scheme works for it.
///
/// Language: the track's `language` tag (ISO 639-2, as Matroska stores it) becomes ISO 639-1 where there is one
/// (`jpn` → `ja`, `chi`/`zho` → `zh`, `ger`/`deu` → `de`); other tags are kept. Chinese script comes from the tag
/// (`zh-Hant`, `chs`) or, for a plain `chi`, from the track title (简体, 繁體, CHT).
public enum SidecarNaming: String, Sendable, Equatable, CaseIterable {
    /// `<base>.<subtitleIndex>.<language tag>.<ext>`: unique by construction, the tag as the file has it.
    case subfix
    /// Jellyfin's and Emby's external-file naming, with `default`, `forced` and `sdh`.
    case jellyfin
    /// Plex's local-subtitle naming, with `forced` and `sdh`.
    case plex
}

/// The stream flags a sidecar's name can carry (libavformat's `AV_DISPOSITION_DEFAULT`, `_FORCED`,
/// `_HEARING_IMPAIRED`).
public struct SidecarFlags: Sendable, Hashable {
    /// The player picks this track when the user chose none.
    public var isDefault = false
    /// Shown even with subtitles off: signs, foreign-language lines.
    public var isForced = false
    /// SDH / closed captions: with sound descriptions and speaker names.
    public var isHearingImpaired = false

    /// The flags as given.
    public init(isDefault: Bool = false, isForced: Bool = false, isHearingImpaired: Bool = false) {
        self.isDefault = isDefault
        self.isForced = isForced
        self.isHearingImpaired = isHearingImpaired
    }

    /// A stream's flags.
    public init(_ stream: MediaStream) {
        self.init(isDefault: stream.isDefault, isForced: stream.isForced, isHearingImpaired: stream.isHearingImpaired)
    }
}

/// A sidecar subtitle's file name as typed parts: built for a track (`SidecarNamer`) and read back from a file name
/// (`init?(fileName:)`), so the one place that writes the scheme is the one place that reads it.
///
///     SidecarName(fileName: "Movie.zh-Hans.zh.forced.ass")?.language     // "zh-Hans"
///     SidecarName(fileName: "movie.0.chi.ass")?.language                 // "chi"
public struct SidecarName: Sendable, Equatable, CustomStringConvertible {
    /// The media file's name without its extension.
    public var base: String
    /// The scheme the name follows (`subfix` for a parsed name that carries no server flag).
    public var naming: SidecarNaming
    /// The `subfix` scheme's subtitle index (`-map 0:s:N`).
    public var subtitleIndex: Int?
    /// Parts between the base and the language: a title that keeps two tracks apart, and the Chinese script
    /// (`zh-Hans`) for the server schemes.
    public var labels: [String]
    /// The language part as written (`zh`, `ja`, `chi`, `pt-BR`); nil when the track has none.
    public var language: String?
    /// For the server schemes, the Chinese script written as a label (`zh-Hans`, `zh-Hant`).
    public var script: String?
    /// Default, forced, hearing-impaired.
    public var flags: SidecarFlags
    /// `ass` or `srt`, without the dot.
    public var fileExtension: String

    /// A name from its parts.
    public init(
        base: String, naming: SidecarNaming, subtitleIndex: Int? = nil, labels: [String] = [], language: String?,
        script: String? = nil, flags: SidecarFlags = SidecarFlags(), fileExtension: String
    ) {
        self.base = base
        self.naming = naming
        self.subtitleIndex = subtitleIndex
        self.labels = labels
        self.language = language
        self.script = script
        self.flags = flags
        self.fileExtension = fileExtension
    }

    /// The file name the parts make.
    public var fileName: String {
        var parts = [base]
        switch naming {
        case .subfix:
            if let subtitleIndex { parts.append(String(subtitleIndex)) }
            if let language { parts.append(language) }
        case .jellyfin, .plex:
            parts += labels
            if let script { parts.append(script) }
            if let language { parts.append(language) }
            if naming == .jellyfin && flags.isDefault { parts.append("default") }
            if flags.isForced { parts.append("forced") }
            if flags.isHearingImpaired { parts.append("sdh") }
        }
        parts.append(fileExtension)
        return parts.joined(separator: ".")
    }

    public var description: String { fileName }

    /// The language the name states, the most specific form: the script when one is written (`zh-Hans`), else the
    /// language part.
    public var statedLanguage: String? { script ?? language }
}

extension SidecarName {
    /// Words the server schemes read as flags (Jellyfin: `default`, `forced`, `foreign`, `sdh`, `cc`, `hi`; Plex:
    /// `forced`, `sdh`).
    static let flagWords: Set<String> = ["default", "forced", "foreign", "sdh", "cc", "hi"]

    /// Reads a sidecar's name (a path or a bare name): the language is the last part shaped like a language tag
    /// (2-3 letters, then `-` subtags) once trailing flags are taken off; for a plain `zh`, a `zh-Hans` or `zh-Hant`
    /// part just before it is the script. `hi` is hearing-impaired only when a language part comes before it (as
    /// Jellyfin reads it), otherwise Hindi. Nil for a name with no extension.
    public init?(fileName path: String) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        var parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let fileExtension = parts.popLast(), !fileExtension.isEmpty else { return nil }
        let base = parts.removeFirst()
        var flags = SidecarFlags()
        var sawFlag = false
        while let last = parts.last?.lowercased(), SidecarName.flagWords.contains(last) {
            if last == "hi" && !parts.dropLast().contains(where: SidecarName.isLanguageShaped) { break }
            switch last {
            case "default": flags.isDefault = true
            case "forced", "foreign": flags.isForced = true
            default: flags.isHearingImpaired = true
            }
            sawFlag = true
            parts.removeLast()
        }
        var language: String?
        if let last = parts.last, SidecarName.isLanguageShaped(last) {
            language = last
            parts.removeLast()
        }
        var script: String?
        if language?.lowercased() == "zh", let previous = parts.last,
            ["zh-hans", "zh-hant"].contains(previous.lowercased())
        {
            script = previous
            parts.removeLast()
        }
        var subtitleIndex: Int?
        if !sawFlag, script == nil, parts.count == 1, let number = Int(parts[0]), number >= 0 {
            subtitleIndex = number
            parts.removeAll()
        }
        self.init(
            base: base, naming: sawFlag || script != nil ? .jellyfin : .subfix, subtitleIndex: subtitleIndex,
            labels: parts, language: language, script: script, flags: flags, fileExtension: fileExtension)
    }

    /// Whether `part` is shaped like a language tag: 2-3 ASCII letters, then `-` subtags of 1-8 letters or digits.
    static func isLanguageShaped(_ part: String) -> Bool {
        let pieces = part.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = pieces.first, (2...3).contains(first.count),
            first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return pieces.dropFirst().allSatisfy {
            (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
