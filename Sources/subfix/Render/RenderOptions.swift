import Foundation
import SubCore

/// `subfix render`'s options, parsed once for every input: which frames, how large, on what, and where they go.
struct RenderOptions {
    /// The times of `--at`, in order.
    var at: [Int]
    /// The step of `--every`.
    var every: Int?
    var width: Int
    var height: Int
    var background: RenderBackground
    /// `--out FILE.png`: the one frame's file.
    var out: String?
    /// `--out-dir DIR`: each frame to DIR/<input>-<time>.png.
    var outDir: String?
    /// `--sheet FILE.png`: a contact sheet of the frames too.
    var sheet: String?
    var json: Bool
    var quiet: Bool
    /// `--max-frames`: the most frames one input may give.
    var maxFrames: Int
    var fonts: FontSetup
    /// `SUBFIX_RENDER_TIMINGS=1`: per-frame timings on standard error.
    var showTimings: Bool
    /// `SUBFIX_LIBASS_LOG=1`: libass's own messages on standard error.
    var libassLog: Bool

    /// The options of `arguments`; usage errors for bad values and missing choices.
    init(_ arguments: ParsedArguments, environment: Environment) throws {
        (at, every) = try RenderOptions.requestedTimes(arguments)
        let size =
            try arguments.value(.size).map { text throws(UsageError) in
                do { return try Canvas.parseSize(text) } catch {
                    throw UsageError.invalidValue(
                        option: OptionKey.size.name, value: text, expected: "WxH from 1x1 to 8192x8192")
                }
            } ?? (width: 1280, height: 720)
        (width, height) = (size.width, size.height)
        background =
            RenderBackground(
                rawValue: try arguments.choice(.background, RenderBackground.allCases.map(\.rawValue)) ?? "transparent"
            ) ?? .transparent
        try arguments.exclusive([.out, .outDir])
        guard arguments.has(.out) || arguments.has(.outDir) || arguments.has(.sheet) else {
            throw UsageError.missingOneOf(command: "render", keys: [.out, .outDir, .sheet])
        }
        out = arguments.value(.out)
        outDir = arguments.value(.outDir)
        sheet = arguments.value(.sheet)
        json = arguments.has(.json)
        quiet = arguments.has(.quiet)
        maxFrames = try arguments.integer(.maxFrames, in: 1...Int(Int32.max)) ?? RenderOptions.defaultMaxFrames
        fonts = FontSetupOptions.setup(arguments)
        showTimings = environment["SUBFIX_RENDER_TIMINGS"] == "1"
        libassLog = environment["SUBFIX_LIBASS_LOG"] == "1"
    }

    /// The most frames one input may give unless `--max-frames` says otherwise: 10,000 PNGs of 1280x720 are
    /// already some 250 MB; `--every 0.001` over a 10-minute file would be 600,000.
    static let defaultMaxFrames = 10_000

    /// The times to render for a script whose last subtitle ends at `endTime`: `--at`'s, then `--every`'s.
    /// Fails, before anything is rendered, when they are more than `--max-frames`, or more than one for `--out`.
    func times(endTime: Int, input: String) throws -> [Int] {
        let stepped = every.map { step in endTime <= 0 ? 0 : (endTime - 1) / step + 1 } ?? 0
        let count = at.count + stepped
        if count > maxFrames {
            throw CommandFailure(
                file: input,
                cause: "would render \(count) frames, more than the limit of \(maxFrames)"
                    + " (use a longer --every, or raise the limit with --max-frames \(count))")
        }
        var times = at
        if let step = every { times += Array(stride(from: 0, to: endTime, by: step)) }
        if let out, times.count > 1 {
            throw UsageError.invalidValue(
                option: OptionKey.out.name, value: out, expected: "one frame; use --out-dir for \(times.count)")
        }
        return times
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

    /// Where the frame at `time` of `input` goes: `--out`, or `--out-dir`/<input stem>-HH-MM-SS.mmm.png, or
    /// nowhere (a contact sheet only).
    func outputPath(input: String, time: Int) -> String? {
        if let out { return out }
        guard let outDir else { return nil }
        let stem = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        let stamp = RenderTime.format(time).replacingOccurrences(of: ":", with: "-")
        return (outDir as NSString).appendingPathComponent("\(stem)-\(stamp).png")
    }
}
