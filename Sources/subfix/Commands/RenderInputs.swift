import SubCore

/// Opens what `render` and `check` are given: a subtitle file, or a media file's subtitle track (read with
/// subfix's minimal libavformat reader until the extractor lands) with its font attachments.
enum RenderInputs {
    /// The `--track` option row.
    static let trackOption = OptionSpec.value(
        "track", "N", "Subtitle stream of a media input, from 0 as in ffmpeg's 0:s:N (default 0).")

    /// The script of `path` and whether it came from a media file. `--track` only applies to media.
    static func load(_ path: String, arguments: ParsedArguments) throws -> (input: SubtitleInput, isMedia: Bool) {
        let track = try arguments.integer("track", in: 0...999)
        do {
            let input = try SubtitleInput(contentsOf: path)
            if let track {
                throw UsageError.invalidValue(
                    option: "track", value: String(track), expected: "a media input (\(path) is a subtitle file)")
            }
            return (input, false)
        } catch RenderError.mediaInput {
            return (try MediaSubtitles.input(path: path, track: track ?? 0), true)
        }
    }
}
