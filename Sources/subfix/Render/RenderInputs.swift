import SubCore

/// Opens what `render` and `check` are given: a subtitle file, or a media file's subtitle track (read by the
/// media extractor, with its font attachments).
enum RenderInputs {
    /// The track option rows (`--track N`, `--subtitle-index N`, `--stream N`), shared with `extract`.
    static let trackOptions = TrackOptions.rows(repeatable: false)

    /// The script of `path` and whether it came from a media file. The track options only apply to media; the
    /// default is track 1, the first subtitle track. Media errors (a bad track, a bitmap track, a file that is
    /// not media) come back as `CommandFailure` naming the file, with `TrackIndex`'s own words.
    static func load(_ path: String, arguments: ParsedArguments) throws -> (input: SubtitleInput, isMedia: Bool) {
        let selector = try TrackOptions.selector(arguments)
        do {
            let input = try SubtitleInput(contentsOf: path)
            if let selector {
                let (option, value) = TrackOptions.option(of: selector)
                throw UsageError.invalidValue(
                    option: option, value: String(value), expected: "a media input (\(path) is a subtitle file)")
            }
            return (input, false)
        } catch RenderError.mediaInput {
            do {
                return (try MediaSubtitles.input(path: path, track: selector ?? .player(1)), true)
            } catch let error as MediaError {
                throw CommandFailure(error)
            }
        }
    }
}
