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
        let inputs = FixInputs.collect(arguments.positionals)
        if inputs.count != 1 || arguments.positionals.count != 1 {
            for option in [OptionKey.out, .sheet] where arguments.has(option) {
                throw UsageError.invalidValue(
                    option: option.name, value: arguments.value(option) ?? "",
                    expected: "one input; use --out-dir for \(inputs.count) inputs")
            }
        }
        var files: [JobFileRecord] = []
        var frames = 0
        var failures: [any Error] = []
        for found in inputs {
            do {
                if let problem = found.problem { throw CommandFailure(file: found.path, cause: problem) }
                let rendered = try render(arguments, input: found.path, io: io)
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

    /// Renders the frames the options ask for; returns a job row per PNG written and the number of frames
    /// rendered. On a failure the PNGs written for `input` are removed.
    private static func render(
        _ arguments: ParsedArguments, input: String, io: CommandIO
    ) throws -> (files: [JobFileRecord], frames: Int) {
        var frames = 0
        let requested = try requestedTimes(arguments)
        let size =
            try arguments.value(.size).map { text throws(UsageError) in
                do { return try Canvas.parseSize(text) } catch {
                    throw UsageError.invalidValue(
                        option: OptionKey.size.name, value: text, expected: "WxH from 1x1 to 8192x8192")
                }
            } ?? (width: 1280, height: 720)
        let background =
            RenderBackground(
                rawValue: try arguments.choice(.background, RenderBackground.allCases.map(\.rawValue)) ?? "transparent"
            )
            ?? .transparent
        try arguments.exclusive([.out, .outDir])
        guard arguments.has(.out) || arguments.has(.outDir) || arguments.has(.sheet) else {
            throw UsageError.missingOneOf(command: "render", keys: [.out, .outDir, .sheet])
        }

        let (subtitle, isMedia): (SubtitleInput, Bool)
        do {
            (subtitle, isMedia) = try RenderInputs.load(input, arguments: arguments)
        } catch let error as RenderError {
            throw CommandFailure(error)
        }
        var video: VideoBackground?
        if background == .video {
            guard isMedia else { throw CommandFailure(RenderError.noVideo(file: input)) }
            do { video = try VideoBackground(path: input) } catch {
                throw CommandFailure(error)
            }
        }

        let setup = FontSetupOptions.setup(arguments)
        let renderer = try SubtitleRenderer(input: subtitle, setup: setup, width: size.width, height: size.height)
        var times = requested.at
        let stepped = requested.every.map { step in renderer.endTime <= 0 ? 0 : (renderer.endTime - 1) / step + 1 } ?? 0
        try checkFrameCount(times.count + stepped, arguments: arguments, input: input)
        if let step = requested.every { times += Array(stride(from: 0, to: renderer.endTime, by: step)) }
        if arguments.has(.out), times.count > 1 {
            throw UsageError.invalidValue(
                option: OptionKey.out.name, value: arguments.value(.out) ?? "",
                expected: "one frame; use --out-dir for \(times.count)")
        }
        FontSetupOptions.report(renderer.fontWarnings, io: io)
        // Two libavcodec frame threads: PNGs are encoded while libass renders the next frames.
        let encoder = try PNGEncoder(
            width: size.width, height: size.height, opaque: background != .transparent, threads: 2)
        let showTimings = io.environment["SUBFIX_RENDER_TIMINGS"] == "1"
        var total = RenderTimings()
        var changedFrames = 0
        var sheetFrames: [(time: Int, canvas: Canvas)] = []
        var sheetTotal = 0
        let sheetCapacity = ContactSheet.capacity(width: size.width, height: size.height)
        var outputs = RenderOutputQueue()
        var encodedAny = false
        var canvas = try Canvas(width: size.width, height: size.height, background: background)
        do {
            if let folder = arguments.value(.outDir) { try RenderFileWriter.makeFolder(folder) }
            for time in times {
                if time >= renderer.endTime {
                    io.warning(
                        "\(RenderTime.format(time)) is after the last subtitle ends (\(RenderTime.format(renderer.endTime))): the frame is empty",
                        file: input)
                }
                var timings: RenderTimings
                if let video {
                    let start = DispatchTime.now().uptimeNanoseconds
                    try video.draw(at: time, into: &canvas)
                    let drawn = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    timings = renderer.render(at: time, into: &canvas)
                    timings.compositing += drawn
                    timings.changed = true
                } else {
                    timings = renderer.render(at: time, into: &canvas, background: background, onlyIfChanged: true)
                }
                let path = outputPath(arguments, input: input, time: time)
                if let path {
                    // An unchanged frame reuses the previous PNG bytes: same pixels, same file.
                    let fresh = timings.changed || !encodedAny
                    try outputs.add(path: path, fresh: fresh)
                    if fresh {
                        let encodeStart = DispatchTime.now().uptimeNanoseconds
                        let pngs = try encoder.send(canvas)
                        timings.encoding = Double(DispatchTime.now().uptimeNanoseconds - encodeStart) / 1e9
                        encodedAny = true
                        try outputs.deliver(pngs)
                    }
                }
                if io.environment["SUBFIX_LIBASS_LOG"] == "1" {
                    for message in renderer.drainMessages() {
                        io.printError("libass[\(message.level)]: \(message.text)")
                    }
                }
                total.libass += timings.libass
                if timings.changed { changedFrames += 1 }
                total.compositing += timings.compositing
                total.encoding += timings.encoding
                if arguments.has(.sheet) {
                    if sheetFrames.count < sheetCapacity {
                        sheetFrames.append((time, try ContactSheet.thumbnail(canvas)))
                    }
                    sheetTotal += 1
                }
                frames += 1
                let shown = renderer.events.filter { $0.start <= time && time < $0.end }.count
                if arguments.has(.quiet) {
                    // --quiet: no line per frame.
                } else if arguments.has(.json) {
                    io.printJSON(
                        .typed(
                            "frame",
                            [
                                ("file", .string(input)), ("time", .string(RenderTime.format(time))),
                                ("ms", .int(time)),
                                ("width", .int(size.width)), ("height", .int(size.height)), ("events", .int(shown)),
                                ("output", .optional(path)),
                            ]))
                } else if let path {
                    io.printLine("\(path)  \(RenderTime.format(time))  \(shown) event\(shown == 1 ? "" : "s")")
                }
            }
            if encodedAny {
                let finishStart = DispatchTime.now().uptimeNanoseconds
                let pngs = try encoder.finish()
                total.encoding += Double(DispatchTime.now().uptimeNanoseconds - finishStart) / 1e9
                try outputs.deliver(pngs)
            }
            if let sheetPath = arguments.value(.sheet) {
                let (sheet, placed) = try ContactSheet.make(frames: sheetFrames, background: background)
                if placed < sheetTotal {
                    io.warning(
                        "the contact sheet holds the first \(placed) of \(sheetTotal) frames (8192-pixel limit)",
                        file: sheetPath)
                }
                let sheetEncoder = try PNGEncoder(width: sheet.width, height: sheet.height, opaque: sheet.isOpaque)
                try RenderFileWriter.write(try sheetEncoder.encode(sheet), to: sheetPath)
                if arguments.has(.quiet) {
                    // --quiet: no line for the sheet.
                } else if arguments.has(.json) {
                    io.printJSON(
                        .typed(
                            "sheet",
                            [
                                ("file", .string(input)), ("output", .string(sheetPath)), ("frames", .int(placed)),
                            ]))
                } else {
                    io.printLine("\(sheetPath)  contact sheet of \(placed) frame\(placed == 1 ? "" : "s")")
                }
            }
        } catch {
            for path in outputs.written { try? FileManager.default.removeItem(atPath: path) }
            throw error
        }
        var files = outputs.written.map { JobFileRecord.file(input, output: $0, status: .written) }
        if let sheetPath = arguments.value(.sheet) { files.append(.file(input, output: sheetPath, status: .sheet)) }
        if showTimings {
            let count = Double(max(times.count, 1))
            io.printError(
                String(
                    format:
                        "timings: frames %d changed %d libass %.3f ms compositing %.3f ms encoding %.3f ms (per frame)",
                    times.count, changedFrames, total.libass * 1000 / count, total.compositing * 1000 / count,
                    total.encoding * 1000 / count))
        }
        return (files, frames)
    }

    /// The most frames one input may give unless `--max-frames` says otherwise: 10,000 PNGs of 1280x720 are
    /// already some 250 MB; `--every 0.001` over a 10-minute file would be 600,000.
    static let defaultMaxFrames = 10_000

    /// Fails, before anything is rendered, when `count` frames are more than `--max-frames` (default 10,000).
    static func checkFrameCount(_ count: Int, arguments: ParsedArguments, input: String) throws {
        let limit = try arguments.integer(.maxFrames, in: 1...Int(Int32.max)) ?? defaultMaxFrames
        guard count > limit else { return }
        throw CommandFailure(
            file: input,
            cause: "would render \(count) frames, more than the limit of \(limit)"
                + " (use a longer --every, or raise the limit with --max-frames \(count))")
    }

    /// The times of `--at` (in order) and the step of `--every`.
    static func requestedTimes(_ arguments: ParsedArguments) throws -> (at: [Int], every: Int?) {
        var times: [Int] = []
        var every: Int?
        for text in arguments.all(.at) {
            do { times.append(try RenderTime.parse(text)) } catch {
                throw UsageError.invalidValue(
                    option: OptionKey.at.name, value: text, expected: "HH:MM:SS.mmm, MM:SS or seconds")
            }
        }
        if let text = arguments.value(.every) {
            do { every = try RenderTime.parseDuration(text) } catch {
                throw UsageError.invalidValue(
                    option: OptionKey.every.name, value: text, expected: "a positive duration such as 0.5 or 00:02")
            }
        }
        guard !times.isEmpty || every != nil else {
            throw UsageError.missingOneOf(command: "render", keys: [.at, .every])
        }
        return (times, every)
    }

    /// Where the frame at `time` goes: `--out`, or `--out-dir`/<input stem>-HH-MM-SS.mmm.png, or nowhere.
    static func outputPath(_ arguments: ParsedArguments, input: String, time: Int) -> String? {
        if let out = arguments.value(.out) { return out }
        guard let folder = arguments.value(.outDir) else { return nil }
        let stem = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        let stamp = RenderTime.format(time).replacingOccurrences(of: ":", with: "-")
        return (folder as NSString).appendingPathComponent("\(stem)-\(stamp).png")
    }
}
