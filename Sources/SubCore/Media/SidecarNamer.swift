import Foundation

/// Names the sidecars of one media file in one `SidecarNaming` scheme, so that no two of its text tracks get the
/// same name (one would overwrite the other). Names are decided over every text track of the file, not only the
/// ones extracted now, so a track keeps its name whichever tracks a run asks for.
///
///     let namer = SidecarNamer(naming: .jellyfin, base: "Movie", streams: media.subtitleStreams)
///     namer.name(for: track.stream, format: track.format).fileName     // "Movie.ja.default.ass"
///
/// Two tracks that would share a name in a server scheme each get a label before the language: their titles when
/// those are usable and tell them apart (`Movie.Signs.ja.ass`, `Movie.Dialogue.ja.ass`), otherwise their player
/// track numbers (`Movie.track2.ja.ass`, `Movie.track3.ja.ass`). Jellyfin shows a label as the track's title;
/// Plex reads only the language and flags at the end. The `subfix` scheme carries the subtitle index and never
/// collides. The extension is not part of the comparison, so `--format` does not change a track's name.
public struct SidecarNamer: Sendable {
    /// The scheme.
    public let naming: SidecarNaming
    /// The media file's name without its extension.
    public let base: String
    /// The distinguishing label of each track that needs one, by stream index.
    private let labels: [Int: String]

    /// A namer for the text subtitle tracks among `streams` (a media file's streams; others are ignored).
    public init(naming: SidecarNaming, base: String, streams: [MediaStream]) {
        self.naming = naming
        self.base = base
        guard naming != .subfix else {
            labels = [:]
            return
        }
        var groups: [String: [MediaStream]] = [:]
        var order: [String] = []
        for stream in streams where stream.kind == .subtitle && stream.isText {
            let key = SidecarNamer.name(naming, base: base, stream: stream, label: nil, fileExtension: "")
                .fileName.lowercased()
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(stream)
        }
        var labels: [Int: String] = [:]
        for key in order {
            guard let group = groups[key], group.count > 1 else { continue }
            let titles = group.map { $0.title.flatMap(SidecarNamer.label(fromTitle:)) }
            let distinct = Set(titles.compactMap { $0?.lowercased() })
            let useTitles = !titles.contains(nil) && distinct.count == group.count
            for (stream, title) in zip(group, titles) {
                labels[stream.index] = useTitles ? title : "track\(stream.playerIndex ?? stream.index)"
            }
        }
        self.labels = labels
    }

    /// The name of `stream`'s sidecar written in `format`.
    public func name(for stream: MediaStream, format: ExtractionFormat) -> SidecarName {
        SidecarNamer.name(
            naming, base: base, stream: stream, label: labels[stream.index], fileExtension: format.fileExtension)
    }

    private static func name(
        _ naming: SidecarNaming, base: String, stream: MediaStream, label: String?, fileExtension: String
    ) -> SidecarName {
        switch naming {
        case .subfix:
            let language = stream.language.map(safeTag).flatMap { $0.isEmpty ? nil : $0 }
            return SidecarName(
                base: base, naming: .subfix, subtitleIndex: stream.subtitleIndex ?? stream.index, language: language,
                flags: SidecarFlags(stream), fileExtension: fileExtension)
        case .jellyfin, .plex:
            let (language, script) = serverLanguage(stream)
            return SidecarName(
                base: base, naming: naming, labels: label.map { [$0] } ?? [], language: language, script: script,
                flags: SidecarFlags(stream), fileExtension: fileExtension)
        }
    }

    /// The language part a server reads, and the Chinese script when the tag or title names one: `chi` with the
    /// title 繁體中文 is (`zh`, `zh-Hant`), `jpn` is (`ja`, nil), `ger` is (`de`, nil), `pt-BR` stays as it is.
    static func serverLanguage(_ stream: MediaStream) -> (language: String?, script: String?) {
        let tag = stream.language.map(safeTag).flatMap { $0.isEmpty ? nil : $0 }
        let tagHint = tag.flatMap(CJKLanguage.hint(from:))
        let titleHint = stream.title.flatMap(CJKLanguage.hint(from:))
        // A title names the script only where the tag leaves it open (a plain `chi`, or no tag at all).
        let hint: LanguageHint?
        switch (tagHint, titleHint) {
        case (.chinese?, .language(.simplifiedChinese)?), (.chinese?, .language(.traditionalChinese)?):
            hint = titleHint
        case (nil, let title?) where tag == nil:
            hint = title
        default:
            hint = tagHint
        }
        switch hint {
        case .language(.simplifiedChinese)?: return ("zh", CJKLanguage.simplifiedChinese.rawValue)
        case .language(.traditionalChinese)?: return ("zh", CJKLanguage.traditionalChinese.rawValue)
        case .language(.japanese)?: return ("ja", nil)
        case .language(.korean)?: return ("ko", nil)
        case .chinese?: return ("zh", nil)
        case nil: break
        }
        guard let tag else { return (nil, nil) }
        if tag.contains("-") { return (tag, nil) }
        let lowered = tag.lowercased()
        return (ISO639.alpha2(lowered) ?? lowered, nil)
    }

    /// A language tag reduced to ASCII letters, digits and `-` (it comes from the file: never trust it in a path).
    static func safeTag(_ tag: String) -> String {
        String(
            tag.unicodeScalars.filter {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
            }
            .prefix(16).map(Character.init))
    }

    /// A track title usable as a name part, or nil: no dots, separators or control characters, at most 40 bytes,
    /// nothing a server would read as a flag (Jellyfin matches `default`, `forced` and `foreign` inside any part)
    /// or as a language (2-3 letters).
    static func label(fromTitle title: String) -> String? {
        let flat = title.map { "./\\".contains($0) ? " " : $0 }
        var label = SafeFileName.make(String(flat), fallback: "")
        label = label.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        while label.utf8.count > 40 { label.removeLast() }
        label = label.trimmingCharacters(in: .whitespaces)
        let lowered = label.lowercased()
        guard !label.isEmpty, !SidecarName.isLanguageShaped(label), !SidecarName.flagWords.contains(lowered),
            !["default", "forced", "foreign"].contains(where: { lowered.contains($0) })
        else { return nil }
        return label
    }
}
