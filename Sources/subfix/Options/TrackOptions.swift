import SubCore

/// The track options `extract`, `render` and `check` share: `--track N` (the player index: 1 is the first
/// subtitle track, 0 is "Disable"), `--subtitle-index N` (ffmpeg's `0:s:N`) and `--stream N` (ffmpeg's `0:N`),
/// as the same rows and checked the same way into `TrackIndex.Selector`s (see `TrackIndex` for the conventions).
enum TrackOptions {
    /// The options, in table order.
    static let keys: [OptionKey] = [.track, .subtitleIndex, .stream]

    /// The option rows; `repeatable` where several tracks can be asked for at once (`extract`).
    static func rows(repeatable: Bool) -> [OptionSpec] {
        [
            .value(
                .track, "N", repeatable: repeatable,
                "Player track number: 1 is the first subtitle track (0 is \"Disable\")."),
            .value(.subtitleIndex, "N", repeatable: repeatable, "0-based subtitle index, as in ffmpeg -map 0:s:N."),
            .value(.stream, "N", repeatable: repeatable, "Absolute stream index, as in ffmpeg -map 0:N."),
        ]
    }

    /// Every selector given, in option-table order. Numbers must be whole and not negative; what they name is
    /// checked against the file by `TrackIndex` (whose errors, such as track 0 meaning "Disable", are the user's).
    static func selectors(_ arguments: ParsedArguments) throws(UsageError) -> [TrackIndex.Selector] {
        var selectors: [TrackIndex.Selector] = []
        for (option, make) in [
            (OptionKey.track, TrackIndex.Selector.player), (.subtitleIndex, TrackIndex.Selector.subtitle),
            (.stream, TrackIndex.Selector.stream),
        ] as [(OptionKey, (Int) -> TrackIndex.Selector)] {
            for text in arguments.all(option) {
                guard let number = Int(text), number >= 0 else {
                    throw .invalidValue(option: option.name, value: text, expected: "a whole number from 0")
                }
                selectors.append(make(number))
            }
        }
        return selectors
    }

    /// The one selector `render` and `check` take (at most one of the options), or nil when none is given.
    static func selector(_ arguments: ParsedArguments) throws(UsageError) -> TrackIndex.Selector? {
        try arguments.exclusive(keys)
        return try selectors(arguments).first
    }

    /// The option that gave `selector`, for messages.
    static func option(of selector: TrackIndex.Selector) -> (name: String, value: Int) {
        switch selector {
        case .player(let number): return ("track", number)
        case .subtitle(let number): return ("subtitle-index", number)
        case .stream(let number): return ("stream", number)
        }
    }
}
