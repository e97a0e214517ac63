internal import CFFmpeg
import Foundation

/// Turns a subtitle picture into what Tesseract reads best: the palette to grey with the outline told apart from
/// the fill, inverted to dark text on a light ground, cropped to the text with a margin, and scaled up (libswscale, bilinear)
/// until a line is about `targetLineHeight` pixels tall.
///
/// The fill is told from the outline by where each colour sits: the outline borders the transparent ground, the
/// fill lies inside it. So the outline's brightness is read from the pixels next to transparent ones, and the fill
/// is the visible brightness farthest from it (white text in a black outline, or black text in a white one).
/// Where fill and outline look alike (text with no outline), the picture's shape (its alpha) is the text.
package enum BitmapPreparation {
    /// What a picture gave.
    enum Outcome: Equatable {
        /// An image for Tesseract and how its text runs.
        case ready(GreyImage, TextLayout)
        /// Nothing visible: a transparent picture.
        case blank
        /// Visible, but all one colour: no text can be told from the ground.
        case noContrast
    }

    /// The line height (pixels) pictures are scaled up to: Tesseract's LSTM models read glyphs of 30 to 60 pixels
    /// best; DVD subtitles come at 20 to 30.
    static let targetLineHeight = 56
    /// The light margin kept around the text, in pixels of the scaled image.
    static let margin = 16
    /// The longest side a scaled image may have.
    static let maximumSide = 8192

    /// Prepares `bitmap`; `mayBeVertical` lets a tall, narrow picture be read as vertical text (Japanese, Chinese).
    static func prepare(_ bitmap: SubtitleBitmap, mayBeVertical: Bool) throws -> Outcome {
        guard bitmap.width > 0, bitmap.height > 0, bitmap.indexes.count >= bitmap.width * bitmap.height else {
            return .blank
        }
        guard let ink = inkMap(bitmap) else { return .noContrast }
        let width = bitmap.width
        let height = bitmap.height
        // The crop: every pixel that is at least half ink.
        var left = width
        var right = -1
        var top = height
        var bottom = -1
        var rowInk = [Int](repeating: 0, count: height)
        var columnInk = [Int](repeating: 0, count: width)
        for y in 0..<height {
            for x in 0..<width where ink[y * width + x] >= 128 {
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                bottom = max(bottom, y)
                rowInk[y] += 1
                columnInk[x] += 1
            }
        }
        guard right >= left, bottom >= top else { return .blank }
        let cropWidth = right - left + 1
        let cropHeight = bottom - top + 1
        let vertical = mayBeVertical && cropHeight * 5 > cropWidth * 8 && runs(columnInk[left...right]).count <= 3
        let lines = vertical ? runs(columnInk[left...right]) : runs(rowInk[top...bottom])
        let lineSize = lines.isEmpty ? (vertical ? cropWidth : cropHeight) : lines.sorted()[lines.count / 2]
        var scale = Double(targetLineHeight) / Double(max(1, lineSize))
        // Never past `maximumSide` (a hostile picture of thin specks would otherwise ask for gigabytes).
        scale = min(scale, Double(maximumSide) / Double(max(cropWidth, cropHeight)))
        scale = scale < 1.15 ? 1 : min(scale, 4)
        var cropped = [UInt8](repeating: 255, count: cropWidth * cropHeight)
        for y in 0..<cropHeight {
            for x in 0..<cropWidth { cropped[y * cropWidth + x] = 255 - ink[(y + top) * width + x + left] }
        }
        var image = GreyImage(width: cropWidth, height: cropHeight, pixels: cropped)
        if scale > 1 {
            image = try scaled(
                image, width: Int((Double(cropWidth) * scale).rounded()),
                height: Int((Double(cropHeight) * scale).rounded()))
        }
        return .ready(padded(image, by: margin), vertical ? .vertical : .horizontal)
    }

    /// `bitmap` prepared as `prepare` does, as a binary PGM file (what `make bench` hands the tesseract CLI, so
    /// both read the same pixels); nil when there is nothing to read.
    package static func portableGreyMap(_ bitmap: SubtitleBitmap, mayBeVertical: Bool) throws -> Data? {
        guard case .ready(let image, _) = try prepare(bitmap, mayBeVertical: mayBeVertical) else { return nil }
        return Data("P5\n\(image.width) \(image.height)\n255\n".utf8) + Data(image.pixels)
    }

    /// Per pixel, how much it is text (0 ground, 255 text); nil when the visible pixels are all one colour and
    /// cover the whole picture (a box with no text in it).
    static func inkMap(_ bitmap: SubtitleBitmap) -> [UInt8]? {
        let width = bitmap.width
        let height = bitmap.height
        let count = width * height
        guard count > 0, bitmap.indexes.count >= count else { return [] }
        // Per palette entry: alpha and luminance (BT.601).
        var alpha = [Int](repeating: 0, count: 256)
        var luma = [Int](repeating: 0, count: 256)
        for (index, colour) in bitmap.palette.prefix(256).enumerated() {
            alpha[index] = Int(colour >> 24)
            let red = Int((colour >> 16) & 0xFF)
            let green = Int((colour >> 8) & 0xFF)
            let blue = Int(colour & 0xFF)
            luma[index] = (299 * red + 587 * green + 114 * blue) / 1000
        }
        let indexes = bitmap.indexes
        func visible(_ x: Int, _ y: Int) -> Bool {
            x >= 0 && y >= 0 && x < width && y < height && alpha[Int(indexes[y * width + x])] >= 64
        }
        var edgeHistogram = [Int](repeating: 0, count: 256)
        var histogram = [Int](repeating: 0, count: 256)
        var visibleCount = 0
        var edgeCount = 0
        for y in 0..<height {
            for x in 0..<width where visible(x, y) {
                let value = luma[Int(indexes[y * width + x])]
                histogram[value] += 1
                visibleCount += 1
                if !visible(x - 1, y) || !visible(x + 1, y) || !visible(x, y - 1) || !visible(x, y + 1) {
                    edgeHistogram[value] += 1
                    edgeCount += 1
                }
            }
        }
        guard visibleCount > 0 else { return [UInt8](repeating: 0, count: count) }
        let outline = percentile(edgeHistogram, total: edgeCount, 0.5)
        let mean = histogram.enumerated().reduce(0) { $0 + $1.offset * $1.element } / visibleCount
        let fill =
            mean >= outline
            ? percentile(histogram, total: visibleCount, 0.95) : percentile(histogram, total: visibleCount, 0.05)
        var ink = [UInt8](repeating: 0, count: count)
        if abs(fill - outline) < 32 {
            // One colour: the shape is the text, unless it fills the whole picture.
            if visibleCount == count { return nil }
            for position in 0..<count { ink[position] = UInt8(alpha[Int(indexes[position])]) }
            return ink
        }
        // Per palette entry: its alpha times how close it is to the fill (1) rather than the outline (0).
        var entryInk = [UInt8](repeating: 0, count: 256)
        for entry in 0..<256 {
            let closeness = Double(luma[entry] - outline) / Double(fill - outline)
            entryInk[entry] = UInt8(Double(alpha[entry]) * min(1, max(0, closeness)))
        }
        for position in 0..<count { ink[position] = entryInk[Int(indexes[position])] }
        return ink
    }

    /// The value below which `fraction` of a histogram's `total` lies.
    private static func percentile(_ histogram: [Int], total: Int, _ fraction: Double) -> Int {
        let wanted = Int(Double(total) * fraction)
        var seen = 0
        for (value, count) in histogram.enumerated() {
            seen += count
            if seen > wanted { return value }
        }
        return 255
    }

    /// The lengths of the runs of non-zero counts (text lines in a row profile), gaps of one or two ignored and
    /// runs under three long (specks) left out.
    static func runs(_ profile: ArraySlice<Int>) -> [Int] {
        var lengths: [Int] = []
        var start: Int?
        var gap = 0
        for (offset, value) in profile.enumerated() {
            if value > 0 {
                if start == nil { start = offset }
                gap = 0
            } else if let begun = start {
                gap += 1
                if gap > 2 {
                    let length = offset - gap + 1 - begun
                    if length >= 3 { lengths.append(length) }
                    start = nil
                    gap = 0
                }
            }
        }
        if let begun = start {
            let length = profile.count - gap - begun
            if length >= 3 { lengths.append(length) }
        }
        return lengths
    }

    /// `image` resized by libswscale (bilinear), grey in and out.
    static func scaled(_ image: GreyImage, width: Int, height: Int) throws -> GreyImage {
        let scaler = try Scaler(
            sourceWidth: Int32(image.width), sourceHeight: Int32(image.height), sourceFormat: AV_PIX_FMT_GRAY8,
            width: Int32(width), height: Int32(height), format: AV_PIX_FMT_GRAY8, file: "")
        // libswscale's SIMD paths read and write whole 32-byte blocks: give both sides padded rows.
        let sourceStride = (image.width + 31) & ~31
        let stride = (width + 31) & ~31
        var source = [UInt8](repeating: 255, count: sourceStride * image.height + 64)
        for y in 0..<image.height {
            for x in 0..<image.width { source[y * sourceStride + x] = image.pixels[y * image.width + x] }
        }
        var target = [UInt8](repeating: 255, count: stride * height + 64)
        source.withUnsafeBufferPointer { sourcePixels in
            target.withUnsafeMutableBufferPointer { targetPixels in
                var sourcePlanes: [UnsafePointer<UInt8>?] = [sourcePixels.baseAddress, nil, nil, nil]
                var targetPlanes: [UnsafeMutablePointer<UInt8>?] = [targetPixels.baseAddress, nil, nil, nil]
                var sourceStrides: [Int32] = [Int32(sourceStride), 0, 0, 0]
                var targetStrides: [Int32] = [Int32(stride), 0, 0, 0]
                _ = sws_scale(
                    scaler.context, &sourcePlanes, &sourceStrides, 0, Int32(image.height), &targetPlanes,
                    &targetStrides)
            }
        }
        var pixels = [UInt8](repeating: 255, count: width * height)
        for y in 0..<height {
            for x in 0..<width { pixels[y * width + x] = target[y * stride + x] }
        }
        return GreyImage(width: width, height: height, pixels: pixels)
    }

    /// `image` inside a white border `by` pixels wide.
    static func padded(_ image: GreyImage, by border: Int) -> GreyImage {
        let width = image.width + 2 * border
        let height = image.height + 2 * border
        var pixels = [UInt8](repeating: 255, count: width * height)
        for y in 0..<image.height {
            let from = y * image.width
            let to = (y + border) * width + border
            pixels.replaceSubrange(to..<(to + image.width), with: image.pixels[from..<(from + image.width)])
        }
        return GreyImage(width: width, height: height, pixels: pixels)
    }
}
