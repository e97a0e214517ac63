import Foundation
import SubCore
import SubfixLibrary

/// `subfix render`: frames of a subtitle file or media track as libass draws them, written as PNG.
enum RenderCommand {
    static let spec = CommandSpec(
        name: "render",
        summary: "Render subtitle frames to PNG through libass.",
        positionals: [
            PositionalSpec(
                name: "INPUT", minimum: 1, maximum: nil,
                help: "Subtitle files (.ass .ssa .srt .vtt) or media files, or folders walked for them.")
        ],
        options: RenderInputs.trackOptions + [
            .value(.at, "TIME", repeatable: true, "Render the frame at TIME (HH:MM:SS.mmm, MM:SS or seconds)."),
            .value(.every, "DURATION", "Render a frame every DURATION from 0 until the last subtitle ends."),
            .value(.maxFrames, "N", "Refuse to render more than N frames per input (default 10000)."),
            .value(.size, "WxH", "Frame size (default 1280x720, at most 8192x8192)."),
            .value(.background, "KIND", "transparent (default), black, checker or video."),
        ] + FontSetupOptions.options + [
            .value(.out, "FILE.png", "Write the (single) frame to FILE.png."),
            .value(.outDir, "DIR", "Write each frame to DIR/<input>-<HH-MM-SS.mmm>.png."),
            .value(.sheet, "FILE.png", "Also lay all frames out on one contact sheet with their times."),
            .flag(.json, "One JSON object per frame on stdout."),
            .quiet("Print no line per frame or contact sheet: only errors and warnings."),
            LibraryLocation.option,
        ],
        discussion: """
            Fonts: fontconfig's fonts plus the bundled Noto Sans CJK SC by default; with --no-system-fonts only
            --fonts-dir folders and a media file's font attachments are used, as in a sandboxed player. SRT and
            WebVTT cues are drawn with a default style in the bundled font. A time after the last subtitle gives
            an empty frame and a warning. --background video draws a media input's own video frame.
            """,
        run: run)

    /// Renders each input (folders walked as `fix` walks them), then records the run in the job log: one file
    /// record per PNG written, or the input when it failed. Several inputs need `--out-dir` (and no `--out` or
    /// `--sheet`); a failed input is reported and the others still rendered.
    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let started = Date()
        // A command that only reads its inputs logs to a library that exists, and never makes one.
        let log = try LibraryLocation.jobLog(arguments, io: io)?.existingWritable
        let options = try RenderOptions(arguments, environment: io.environment)
        let inputs = FixInputs.collect(arguments.positionals)
        if inputs.count != 1 || arguments.positionals.count != 1 {
            for (option, value) in [(OptionKey.out, options.out), (.sheet, options.sheet)] {
                guard let value else { continue }
                throw UsageError.invalidValue(
                    option: option.name, value: value, expected: "one input; use --out-dir for \(inputs.count) inputs")
            }
        }
        var files: [JobFileRecord] = []
        var frames = 0
        var failures: [any Error] = []
        for found in inputs {
            do {
                if let problem = found.problem { throw CommandFailure(file: found.path, cause: problem) }
                let rendered = try render(found.path, options: options, arguments: arguments, io: io)
                files += rendered.files
                frames += rendered.frames
            } catch {
                if error is UsageError { throw error }
                files.append(.file(found.path, status: .failed, error: CommandFailure(error).description))
                failures.append(error)
                // With several inputs each failure is reported as it happens; a single one is thrown below.
                if inputs.count > 1 { io.error(error) }
            }
        }
        JobLog.record(
            "render", arguments: arguments, started: started, failed: !failures.isEmpty,
            counts: ["frames": frames, "files": files.count { $0.status != .failed }], files: files,
            to: log, io: io)
        if inputs.count == 1, let failure = failures.first { throw failure }
        return failures.isEmpty ? .success : .someFailed
    }

    /// Renders the frames `options` ask for of `input` (its track chosen by `arguments`' track options); returns
    /// a job row per PNG written and the number of frames rendered. On a failure the PNGs written for `input`
    /// are removed.
    private static func render(
        _ input: String, options: RenderOptions, arguments: ParsedArguments, io: CommandIO
    ) throws -> (files: [JobFileRecord], frames: Int) {
        let (subtitle, isMedia): (SubtitleInput, Bool)
        do {
            (subtitle, isMedia) = try RenderInputs.load(input, arguments: arguments)
        } catch let error as RenderError {
            throw CommandFailure(error)
        }
        var video: VideoBackground?
        if options.background == .video {
            guard isMedia else { throw CommandFailure(RenderError.noVideo(file: input)) }
            do { video = try VideoBackground(path: input) } catch { throw CommandFailure(error) }
        }
        let renderer = try SubtitleRenderer(
            input: subtitle, setup: options.fonts, width: options.width, height: options.height)
        let times = try options.times(endTime: renderer.endTime, input: input)
        FontSetupOptions.report(renderer.fontWarnings, io: io)
        var run = try FrameRun(options: options, input: input, renderer: renderer, video: video, io: io)
        do {
            if let folder = options.outDir { try RenderFileWriter.makeFolder(folder) }
            for time in times { try run.frame(at: time) }
            return try run.finish()
        } catch {
            run.discard()
            throw error
        }
    }
}
