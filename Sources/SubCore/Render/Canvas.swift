internal import CLibass

/// What a frame is drawn on.
public enum RenderBackground: String, Sendable, CaseIterable {
    /// Fully transparent (alpha 0).
    case transparent
    /// Opaque black: what ffmpeg's `subtitles` filter draws on over `color=black`.
    case black
    /// A grey checkerboard of 16-pixel squares, to see transparency.
    case checker
    /// The input's own video frame at that time.
    case video
}

/// An RGBA image with premultiplied alpha, the target libass images are blended onto.
///
///     var canvas = try Canvas(width: 640, height: 360, background: .black)
///     canvas.pixel(x: 0, y: 0)   // (0, 0, 0, 255)
public struct Canvas: Sendable, Equatable {
    /// The largest width or height accepted.
    public static let maximumSide = 8192

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes, rows top to bottom, RGBA with premultiplied alpha.
    public internal(set) var pixels: [UInt8]
    /// Whether every pixel is opaque (an opaque background stays opaque under blending), so straight and
    /// premultiplied alpha are the same bytes.
    public internal(set) var isOpaque = false

    /// A canvas filled with `background` (`.video` starts black; the renderer draws the frame over it).
    public init(width: Int, height: Int, background: RenderBackground = .transparent) throws(RenderError) {
        guard (1...Canvas.maximumSide).contains(width), (1...Canvas.maximumSide).contains(height) else {
            throw .badSize("\(width)x\(height)")
        }
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        fill(background)
    }

    /// Parses `WxH` (`1920x1080`) within 1...8192 on each side.
    public static func parseSize(_ text: String) throws(RenderError) -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let width = Int(parts[0]), let height = Int(parts[1]),
            (1...maximumSide).contains(width), (1...maximumSide).contains(height)
        else { throw .badSize(text) }
        return (width, height)
    }

    /// Replaces every pixel with `background`.
    public mutating func fill(_ background: RenderBackground) {
        isOpaque = background != .transparent
        fill(background, in: PixelRect(x0: 0, y0: 0, x1: width, y1: height))
    }

    /// Replaces the pixels of `rect` (clipped to the canvas) with `background`, row by row.
    mutating func fill(_ background: RenderBackground, in rect: PixelRect) {
        let width = self.width
        let x0 = max(0, rect.x0)
        let x1 = min(width, rect.x1)
        let y0 = max(0, rect.y0)
        let y1 = min(height, rect.y1)
        guard x0 < x1, y0 < y1 else { return }
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let words = UnsafeMutableRawPointer(base).assumingMemoryBound(to: UInt32.self)
            for y in y0..<y1 {
                let row = words + y * width
                switch background {
                case .transparent:
                    (row + x0).update(repeating: 0, count: x1 - x0)
                case .black, .video:
                    (row + x0).update(repeating: UInt32(littleEndian: 0xFF00_0000), count: x1 - x0)
                case .checker:
                    for x in x0..<x1 {
                        let light = ((x / 16) + (y / 16)) % 2 == 0
                        row[x] = UInt32(littleEndian: light ? 0xFF99_9999 : 0xFF66_6666)
                    }
                }
            }
        }
    }

    /// The premultiplied RGBA value at (x, y).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let offset = (y * width + x) * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    /// Copies opaque RGBA rows (a decoded video frame of the same size) over the canvas.
    mutating func draw(rgba: UnsafeRawBufferPointer, stride: Int) {
        isOpaque = true
        let rowBytes = width * 4
        pixels.withUnsafeMutableBytes { target in
            guard let targetBase = target.baseAddress, let sourceBase = rgba.baseAddress else { return }
            for y in 0..<height {
                (targetBase + y * rowBytes).copyMemory(from: sourceBase + y * stride, byteCount: rowBytes)
            }
        }
    }

    /// The area one libass image covers, clipped to the canvas.
    func area(of image: UnsafePointer<ASS_Image>) -> PixelRect {
        let image = image.pointee
        return PixelRect(
            x0: max(0, Int(image.dst_x)), y0: max(0, Int(image.dst_y)), x1: min(width, Int(image.dst_x) + Int(image.w)),
            y1: min(height, Int(image.dst_y) + Int(image.h)))
    }

    /// Blends one libass image (one colour, an 8-bit coverage bitmap) over the canvas. libass colours are
    /// `0xRRGGBBTT` with TT the transparency (0 opaque); each pixel's alpha is coverage × (255 − TT) / 255.
    /// Integer math, fully transparent pixels skipped, row by row over raw buffers.
    mutating func blend(_ image: UnsafePointer<ASS_Image>) {
        let image = image.pointee
        let color = image.color
        let opacity = 255 - Int(color & 0xFF)
        guard opacity > 0, image.w > 0, image.h > 0, let bitmap = image.bitmap else { return }
        let red = Int(color >> 24)
        let green = Int((color >> 16) & 0xFF)
        let blue = Int((color >> 8) & 0xFF)
        // Clip to the canvas (libass keeps images inside the frame, but a defensive clip costs nothing).
        let x0 = max(0, Int(image.dst_x))
        let y0 = max(0, Int(image.dst_y))
        let x1 = min(width, Int(image.dst_x) + Int(image.w))
        let y1 = min(height, Int(image.dst_y) + Int(image.h))
        guard x0 < x1, y0 < y1 else { return }
        let stride = Int(image.stride)
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in y0..<y1 {
                let source = bitmap + (y - Int(image.dst_y)) * stride - Int(image.dst_x)
                let row = base + (y * width) * 4
                for x in x0..<x1 {
                    let coverage = Int(source[x])
                    if coverage == 0 { continue }
                    let alpha = Canvas.divide255(coverage * opacity)
                    if alpha == 0 { continue }
                    let pixel = row + x * 4
                    if alpha == 255 {
                        pixel[0] = UInt8(red)
                        pixel[1] = UInt8(green)
                        pixel[2] = UInt8(blue)
                        pixel[3] = 255
                        continue
                    }
                    let inverse = 255 - alpha
                    pixel[0] = UInt8(Canvas.divide255(red * alpha + Int(pixel[0]) * inverse))
                    pixel[1] = UInt8(Canvas.divide255(green * alpha + Int(pixel[1]) * inverse))
                    pixel[2] = UInt8(Canvas.divide255(blue * alpha + Int(pixel[2]) * inverse))
                    pixel[3] = UInt8(Canvas.divide255(255 * alpha + Int(pixel[3]) * inverse))
                }
            }
        }
    }

    /// x / 255 rounded, for 0...65025, without a division.
    @inline(__always) static func divide255(_ value: Int) -> Int {
        let biased = value + 128
        return (biased + (biased >> 8)) >> 8
    }

}

/// A rectangle of pixels, `x0..<x1` by `y0..<y1`.
struct PixelRect: Equatable {
    var x0: Int
    var y0: Int
    var x1: Int
    var y1: Int

    /// Whether the rectangle holds no pixel.
    var isEmpty: Bool { x0 >= x1 || y0 >= y1 }

    /// The smallest rectangle holding both.
    func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return PixelRect(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }
}
