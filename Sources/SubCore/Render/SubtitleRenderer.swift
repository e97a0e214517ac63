internal import CLibass
import Dispatch
import Foundation

/// How long the parts of one frame took, in seconds.
public struct RenderTimings: Sendable {
    /// Inside `ass_render_frame`.
    public var libass: Double = 0
    /// Filling the background and blending libass's images.
    public var compositing: Double = 0
    /// PNG encoding (filled in by the caller that encodes).
    public var encoding: Double = 0
    /// Whether libass reported a different image from the previous call (`ass_render_frame`'s
    /// `detect_change`); an unchanged frame may reuse the previous frame's pixels and PNG.
    public var changed = true

    /// No time spent yet.
    public init() {}
}

/// How libass shapes text.
public enum RenderShaping: String, Sendable {
    /// HarfBuzz: OpenType features (kerning, contextual forms, vertical forms), as players render.
    case complex
    /// FriBidi only, no OpenType features. ffmpeg 5.1's `subtitles` filter renders this way (its `shaping`
    /// field is left at 0 = `ASS_SHAPING_SIMPLE`; only the `ass` filter declares the option).
    case simple
}

/// Renders a subtitle script to canvases through libass, with fonts as a `FontSetup` says.
///
///     let renderer = try SubtitleRenderer(input: SubtitleInput(contentsOf: "a.ass"), setup: FontSetup(),
///                                         width: 1280, height: 720)
///     var canvas = try Canvas(width: 1280, height: 720)
///     renderer.render(at: 5_000, into: &canvas, background: .black)
///
/// Not thread-safe: one renderer per thread.
public final class SubtitleRenderer {
    private let library: AssLibrary
    private let renderer: AssRenderer
    private let track: AssTrack
    /// The input's name, for messages.
    public let name: String
    /// The width of the frames, in pixels.
    public let width: Int
    /// The height of the frames, in pixels.
    public let height: Int
    /// Whether a frame was rendered yet (the first one always counts as changed).
    private var hasRendered = false
    /// Where the last `onlyIfChanged` frame drew, and on what background: the next one only clears that.
    private var lastDrawn: (area: PixelRect, background: RenderBackground)?
    /// Fonts that were skipped while setting up: files that could not be read, and files libass could not
    /// open as fonts.
    public private(set) var fontWarnings: [FontWarning] = []
    /// The script's `[Fonts]`, decoded (libass is handed them as memory fonts), and the entries that could not
    /// be decoded, as `SubtitleInput.embeddedFonts()` gives them.
    public let embedded: (fonts: [FontAttachment], warnings: [FontWarning])

    /// Parses `input` and sets libass up: `setup.systemFonts` → fontconfig plus the bundled font; otherwise
    /// `ASS_FONTPROVIDER_NONE` with only the `--fonts-dir` files and the attachments (`ass_add_font`).
    public init(
        input: SubtitleInput, setup: FontSetup, width: Int, height: Int, shaping: RenderShaping = .complex
    ) throws(RenderError) {
        guard (1...Canvas.maximumSide).contains(width), (1...Canvas.maximumSide).contains(height) else {
            throw .badSize("\(width)x\(height)")
        }
        let library = try AssLibrary()
        self.library = library
        var warnings: [FontWarning] = []
        // libass opens every face a font lists: each file goes in with its collection bounded, and past the
        // setup's budget no more files go in (FontCollection).
        var budget = FaceBudget()
        func add(name: String, data: Data) {
            let collection = FontCollection(data: data)
            if let warning = collection.warning { warnings.append(FontWarning(file: name, cause: warning)) }
            guard budget.take(collection.indexes.count, file: name, warnings: &warnings) else { return }
            library.addFont(name: name, data: collection.bounded(data))
        }
        // The script's [Fonts] go in the same way, decoded here rather than by libass (whose extraction would
        // hand it every listed face).
        let embedded = input.embeddedFonts()
        for attachment in setup.attachments + input.attachments + embedded.fonts {
            add(name: attachment.name, data: attachment.data)
        }
        for (path, _) in setup.fontFiles(warnings: &warnings) {
            do {
                add(name: path, data: Data(try InputFile.read(path).bytes))
            } catch {
                warnings.append(FontWarning(file: path, cause: RenderError.fileCause(error)))
            }
        }
        track = try AssTrack(library: library, text: Data(input.assText.utf8), name: input.name)
        renderer = try AssRenderer(library: library)
        renderer.setSize(width: width, height: height)
        renderer.setFonts(provider: setup.systemFonts ? .fontconfig : .none, defaultFontPath: setup.defaultFont)
        renderer.setShaping(shaping)
        // libass reads the added fonts in ass_set_fonts; a file it cannot open is skipped with a warning.
        let prefix = "Error opening memory font '"
        for message in library.log.take(where: { $0.text.hasPrefix(prefix) }) {
            let file = String(message.text.dropFirst(prefix.count).dropLast(message.text.hasSuffix("'") ? 1 : 0))
            warnings.append(FontWarning(file: file, cause: "libass cannot open it as a font (skipped)"))
        }
        fontWarnings = warnings
        self.embedded = embedded
        name = input.name
        self.width = width
        self.height = height
    }

    /// The script's styles.
    public var styles: [AssStyle] { track.styles }
    /// The script's events, in file order.
    public var events: [AssEvent] { track.events }
    /// The index of the style used for events with an unknown style name.
    public var defaultStyle: Int { track.defaultStyle }
    /// The end of the last event, in milliseconds.
    public var endTime: Int { track.endTime }

    /// Draws the subtitles shown at `time` (milliseconds) over `canvas` and returns how long libass and the
    /// compositing took. With `background`, the canvas is filled first (counted as compositing); with
    /// `onlyIfChanged`, a frame libass reports identical to the previous call leaves `canvas` untouched
    /// (the caller keeps the previous frame), and a changed one only clears what the previous call drew, so
    /// the caller must hand the same canvas back each time.
    @discardableResult
    public func render(
        at time: Int, into canvas: inout Canvas, background: RenderBackground? = nil, onlyIfChanged: Bool = false
    ) -> RenderTimings {
        precondition(canvas.width == width && canvas.height == height, "canvas size differs from the renderer's")
        var timings = RenderTimings()
        let start = DispatchTime.now().uptimeNanoseconds
        var changed: Int32 = 0
        let images = ass_render_frame(renderer.handle, track.handle, Int64(time), &changed)
        let rendered = DispatchTime.now().uptimeNanoseconds
        timings.changed = changed != 0 || !hasRendered
        hasRendered = true
        timings.libass = Double(rendered - start) / 1e9
        if onlyIfChanged && !timings.changed { return timings }
        if let background {
            if onlyIfChanged, let last = lastDrawn, last.background == background,
                canvas.isOpaque == (background != .transparent)
            {
                canvas.fill(background, in: last.area)
            } else {
                canvas.fill(background)
            }
        }
        var drawn = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
        var image = images
        while let current = image {
            drawn = drawn.union(canvas.area(of: current))
            canvas.blend(UnsafePointer(current))
            image = current.pointee.next
        }
        lastDrawn = onlyIfChanged ? background.map { (drawn, $0) } : nil
        timings.compositing = Double(DispatchTime.now().uptimeNanoseconds - rendered) / 1e9
        return timings
    }

    /// libass's messages since the last call (font selection, missing glyphs, parse warnings).
    public func drainMessages() -> [AssMessage] { library.drainMessages() }
}
