internal import CFFmpeg
import Foundation

/// Lays rendered frames out on one canvas, a grid of thumbnails each labelled with its time (drawn with the
/// bundled font through FreeType).
public enum ContactSheet {
    /// Thumbnails are at most this wide.
    static let thumbnailWidth = 480
    static let labelHeight = 28
    static let gap = 8

    /// A sheet of `frames` (all the same size) on `background` (dark grey between frames unless transparent),
    /// and how many frames it holds: a sheet stops at 8192 pixels, so a very long run keeps only its first frames.
    public static func make(frames: [(time: Int, canvas: Canvas)], background: RenderBackground) throws(RenderError)
        -> (sheet: Canvas, placed: Int)
    {
        guard let first = frames.first?.canvas else { return (try Canvas(width: 1, height: 1), 0) }
        let scale = min(1.0, Double(thumbnailWidth) / Double(first.width))
        let thumbWidth = max(1, Int(Double(first.width) * scale))
        let thumbHeight = max(1, Int(Double(first.height) * scale))
        var columns = Int(Double(frames.count).squareRoot().rounded(.up))
        while columns > 1, gap + columns * (thumbWidth + gap) > Canvas.maximumSide { columns -= 1 }
        let rows = (frames.count + columns - 1) / columns
        let cellHeight = thumbHeight + labelHeight + gap
        let width = gap + columns * (thumbWidth + gap)
        let height = min(Canvas.maximumSide, gap + rows * cellHeight)
        var sheet = try Canvas(
            width: width, height: height, background: background == .transparent ? .transparent : .black)
        if background != .transparent {
            // Dark grey between frames, so black frames stand apart from the sheet.
            for index in stride(from: 0, to: sheet.pixels.count, by: 4) {
                sheet.pixels[index] = 0x30
                sheet.pixels[index + 1] = 0x30
                sheet.pixels[index + 2] = 0x30
            }
        }
        let label = try? LabelPainter()
        var placed = 0
        for (number, frame) in frames.enumerated() {
            let x = gap + (number % columns) * (thumbWidth + gap)
            let y = gap + (number / columns) * cellHeight
            guard y + cellHeight <= height else { break }
            placed += 1
            let thumbnail = try scaled(frame.canvas, width: thumbWidth, height: thumbHeight)
            sheet.paste(thumbnail, x: x, y: y)
            label?.draw(
                RenderTime.format(frame.time), on: &sheet, x: x + 4, baseline: y + thumbHeight + labelHeight - 8)
        }
        return (sheet, placed)
    }

    /// The thumbnail of a frame as the sheet shows it (at most 480 pixels wide); keep these rather than full
    /// frames when collecting many.
    public static func thumbnail(_ canvas: Canvas) throws(RenderError) -> Canvas {
        let scale = min(1.0, Double(thumbnailWidth) / Double(canvas.width))
        return try scaled(
            canvas, width: max(1, Int(Double(canvas.width) * scale)), height: max(1, Int(Double(canvas.height) * scale))
        )
    }

    /// How many frames of `width`x`height` fit on one sheet.
    public static func capacity(width: Int, height: Int) -> Int {
        let scale = min(1.0, Double(thumbnailWidth) / Double(width))
        let thumbWidth = max(1, Int(Double(width) * scale))
        let thumbHeight = max(1, Int(Double(height) * scale))
        let columns = max(1, (Canvas.maximumSide - gap) / (thumbWidth + gap))
        let rows = max(1, (Canvas.maximumSide - gap) / (thumbHeight + labelHeight + gap))
        return columns * rows
    }

    /// `canvas` resized with libswscale (premultiplied RGBA scales correctly as plain RGBA).
    static func scaled(_ canvas: Canvas, width: Int, height: Int) throws(RenderError) -> Canvas {
        if canvas.width == width && canvas.height == height { return canvas }
        let opaque = canvas.isOpaque
        let scaler = try RenderError.media {
            try Scaler(
                sourceWidth: Int32(canvas.width), sourceHeight: Int32(canvas.height), sourceFormat: AV_PIX_FMT_RGBA,
                width: Int32(width), height: Int32(height), format: AV_PIX_FMT_RGBA, file: "")
        }
        var out = try Canvas(width: width, height: height)
        canvas.pixels.withUnsafeBufferPointer { source in
            out.pixels.withUnsafeMutableBufferPointer { target in
                var sourcePlanes: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
                var sourceStrides: [Int32] = [Int32(canvas.width * 4), 0, 0, 0]
                var targetPlanes: [UnsafeMutablePointer<UInt8>?] = [target.baseAddress, nil, nil, nil]
                var targetStrides: [Int32] = [Int32(width * 4), 0, 0, 0]
                _ = sws_scale(
                    scaler.context, &sourcePlanes, &sourceStrides, 0, Int32(canvas.height), &targetPlanes,
                    &targetStrides
                )
            }
        }
        if opaque { out.markOpaque() }
        return out
    }
}

extension Canvas {
    /// Records that every pixel is opaque (after copying opaque pixels in).
    mutating func markOpaque() { isOpaque = true }

    /// Copies `other` onto this canvas with its top-left corner at (x, y), clipped.
    mutating func paste(_ other: Canvas, x: Int, y: Int) {
        let rows = min(other.height, height - y)
        let columns = min(other.width, width - x)
        guard rows > 0, columns > 0, x >= 0, y >= 0 else { return }
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { target in
            other.pixels.withUnsafeBufferPointer { source in
                guard let targetBase = target.baseAddress, let sourceBase = source.baseAddress else { return }
                for row in 0..<rows {
                    (targetBase + ((y + row) * width + x) * 4)
                        .update(from: sourceBase + row * other.width * 4, count: columns * 4)
                }
            }
        }
    }
}

/// Draws short white labels with the bundled font through FreeType.
final class LabelPainter {
    private let face: FreeTypeFace
    static let pixelSize = 18

    init() throws(RenderError) {
        guard let url = BundledFont.fileURL() else {
            throw .unreadable(file: BundledFont.fileName, cause: "bundled font not found")
        }
        do {
            face = try FreeTypeLibrary().face(path: url.path, index: 0)
        } catch {
            throw .unreadable(file: url.path, cause: error.description)
        }
    }

    /// Draws `text` in white with its baseline at `baseline`, starting at `x`.
    func draw(_ text: String, on canvas: inout Canvas, x: Int, baseline: Int) {
        var pen = x
        for scalar in text.unicodeScalars {
            let advance = try? face.withRenderedGlyph(scalar, pixelSize: LabelPainter.pixelSize) {
                bitmap, width, rows, pitch, left, top, advance in
                if let bitmap {
                    canvas.blendCoverage(
                        bitmap, width: width, rows: rows, pitch: pitch, x: pen + left, y: baseline - top)
                }
                return advance
            }
            pen += advance ?? LabelPainter.pixelSize / 2
        }
    }
}

extension Canvas {
    /// Blends a white 8-bit coverage bitmap at (x, y), clipped.
    mutating func blendCoverage(_ bitmap: UnsafePointer<UInt8>, width: Int, rows: Int, pitch: Int, x: Int, y: Int) {
        for row in 0..<rows where y + row >= 0 && y + row < height {
            for column in 0..<width where x + column >= 0 && x + column < self.width {
                let alpha = Int(bitmap[row * pitch + column])
                if alpha == 0 { continue }
                let offset = ((y + row) * self.width + x + column) * 4
                let inverse = 255 - alpha
                for channel in 0..<4 {
                    pixels[offset + channel] = UInt8(
                        Canvas.divide255(255 * alpha + Int(pixels[offset + channel]) * inverse))
                }
            }
        }
    }
}
