/// One picture of a bitmap subtitle event, copied out of libavcodec's `AVSubtitleRect`: palette indexes and the
/// palette (ARGB), at its place in the video frame.
public struct SubtitleBitmap: Sendable, Equatable {
    /// Where the picture sits in the frame, in pixels.
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// One palette index per pixel, row after row (`width` bytes a row).
    public var indexes: [UInt8]
    /// The palette as `0xAARRGGBB`.
    public var palette: [UInt32]

    /// A picture (normally decoded by `BitmapSubtitleDecoder`).
    public init(x: Int, y: Int, width: Int, height: Int, indexes: [UInt8], palette: [UInt32]) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.indexes = indexes
        self.palette = palette
    }
}

/// One bitmap subtitle event: when it shows, its pictures, and the size of the frame they are placed in.
public struct BitmapEvent: Sendable, Equatable {
    /// Shown from, in milliseconds.
    public var start: Int
    /// Hidden at, in milliseconds.
    public var end: Int
    /// The pictures (PGS may show two objects at once; VobSub and DVB one or more regions).
    public var bitmaps: [SubtitleBitmap]
    /// The frame the pictures are placed in (the codec's width and height).
    public var frameWidth: Int
    public var frameHeight: Int
}

/// An 8-bit grey image, one byte a pixel, no padding: what Tesseract is handed.
struct GreyImage: Sendable, Equatable {
    var width: Int
    var height: Int
    var pixels: [UInt8]
}

/// How the text of a picture runs.
enum TextLayout: Sendable, Equatable {
    case horizontal, vertical
}
