import Foundation
import SubCore
import SubfixLibrary

/// The frames of one input being rendered, encoded and written, in time order: a PNG per frame (an unchanged
/// frame reuses the previous bytes), the contact sheet's thumbnails, the per-frame line or JSON object, and the
/// timings. On a failure, `discard()` removes what was written.
struct FrameRun {
    let options: RenderOptions
    let input: String
    let renderer: SubtitleRenderer
    let video: VideoBackground?
    let io: CommandIO
    /// Two libavcodec frame threads: PNGs are encoded while libass renders the next frames.
    private let encoder: PNGEncoder
    private var outputs = RenderOutputQueue()
    private var canvas: Canvas
    private var encodedAny = false
    private var total = RenderTimings()
    private var frames = 0
    private var changedFrames = 0
    private var sheetFrames: [(time: Int, canvas: Canvas)] = []
    private var sheetTotal = 0
    private let sheetCapacity: Int

    init(options: RenderOptions, input: String, renderer: SubtitleRenderer, video: VideoBackground?, io: CommandIO)
        throws
    {
        self.options = options
        self.input = input
        self.renderer = renderer
        self.video = video
        self.io = io
        encoder = try PNGEncoder(
            width: options.width, height: options.height, opaque: options.background != .transparent, threads: 2)
        canvas = try Canvas(width: options.width, height: options.height, background: options.background)
        sheetCapacity = ContactSheet.capacity(width: options.width, height: options.height)
    }

    /// Renders, encodes and reports the frame at `time`.
    mutating func frame(at time: Int) throws {
        if time >= renderer.endTime {
            io.warning(
                "\(RenderTime.format(time)) is after the last subtitle ends (\(RenderTime.format(renderer.endTime))):"
                    + " the frame is empty", file: input)
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
            timings = renderer.render(at: time, into: &canvas, background: options.background, onlyIfChanged: true)
        }
        let path = options.outputPath(input: input, time: time)
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
        if options.libassLog {
            for message in renderer.drainMessages() { io.printError("libass[\(message.level)]: \(message.text)") }
        }
        total.libass += timings.libass
        total.compositing += timings.compositing
        total.encoding += timings.encoding
        if timings.changed { changedFrames += 1 }
        if options.sheet != nil {
            if sheetFrames.count < sheetCapacity { sheetFrames.append((time, try ContactSheet.thumbnail(canvas))) }
            sheetTotal += 1
        }
        frames += 1
        report(time: time, path: path)
    }

    /// The frame's line (or JSON object); nothing with `--quiet`.
    private func report(time: Int, path: String?) {
        guard !options.quiet else { return }
        let shown = renderer.events.filter { $0.start <= time && time < $0.end }.count
        if options.json {
            io.printJSON(
                .typed(
                    "frame",
                    [
                        ("file", .string(input)), ("time", .string(RenderTime.format(time))), ("ms", .int(time)),
                        ("width", .int(options.width)), ("height", .int(options.height)), ("events", .int(shown)),
                        ("output", .optional(path)),
                    ]))
        } else if let path {
            io.printLine("\(path)  \(RenderTime.format(time))  \(shown) event\(shown == 1 ? "" : "s")")
        }
    }

    /// Writes the last PNGs and the contact sheet; returns a job row per file written and the frames rendered.
    mutating func finish() throws -> (files: [JobFileRecord], frames: Int) {
        if encodedAny {
            let finishStart = DispatchTime.now().uptimeNanoseconds
            let pngs = try encoder.finish()
            total.encoding += Double(DispatchTime.now().uptimeNanoseconds - finishStart) / 1e9
            try outputs.deliver(pngs)
        }
        if let sheetPath = options.sheet { try writeSheet(to: sheetPath) }
        var files = outputs.written.map { JobFileRecord.file(input, output: $0, status: .written) }
        if let sheetPath = options.sheet { files.append(.file(input, output: sheetPath, status: .sheet)) }
        if options.showTimings {
            let count = Double(max(frames, 1))
            io.printError(
                String(
                    format:
                        "timings: frames %d changed %d libass %.3f ms compositing %.3f ms encoding %.3f ms (per frame)",
                    frames, changedFrames, total.libass * 1000 / count, total.compositing * 1000 / count,
                    total.encoding * 1000 / count))
        }
        return (files, frames)
    }

    private func writeSheet(to sheetPath: String) throws {
        let (sheet, placed) = try ContactSheet.make(frames: sheetFrames, background: options.background)
        if placed < sheetTotal {
            io.warning(
                "the contact sheet holds the first \(placed) of \(sheetTotal) frames (8192-pixel limit)",
                file: sheetPath)
        }
        let sheetEncoder = try PNGEncoder(width: sheet.width, height: sheet.height, opaque: sheet.isOpaque)
        try RenderFileWriter.write(try sheetEncoder.encode(sheet), to: sheetPath)
        if options.quiet { return }
        if options.json {
            io.printJSON(
                .typed("sheet", [("file", .string(input)), ("output", .string(sheetPath)), ("frames", .int(placed))]))
        } else {
            io.printLine("\(sheetPath)  contact sheet of \(placed) frame\(placed == 1 ? "" : "s")")
        }
    }

    /// Removes the PNGs written so far (a failed input leaves none).
    func discard() {
        for path in outputs.written { try? FileManager.default.removeItem(atPath: path) }
    }
}
