import SubCore

/// `--naming subfix|jellyfin|plex` of `extract` and `fix`: the `SidecarNaming` scheme of the sidecars written for a
/// media file's tracks.
enum NamingOption {
    static let row = OptionSpec.value(
        .naming, "subfix|jellyfin|plex",
        "How sidecars of a media file are named: subfix (default, <base>.<subtitleIndex>.<language>.<ext>), or as"
            + " Jellyfin/Emby or Plex read them (Movie.ja.default.ass, Movie.zh.forced.srt, Movie.en.sdh.srt).")

    /// The scheme given, `subfix` when none is.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> SidecarNaming {
        guard let choice = try arguments.choice(.naming, SidecarNaming.allCases.map(\.rawValue)) else {
            return .subfix
        }
        return SidecarNaming(rawValue: choice) ?? .subfix
    }
}
