/// A file attached to a media file (usually a font in MKV), copied out of libavformat: its stream carries
/// the bytes in `codecpar->extradata` and the name in the `filename` / `mimetype` tags.
public struct MediaAttachment: Sendable, Equatable {
    /// The absolute stream index of the attachment stream.
    public var index: Int
    /// The `filename` tag exactly as stored (untrusted: see `SafeFileName`), nil when missing.
    public var fileName: String?
    /// The `mimetype` tag, nil when missing.
    public var mimeType: String?
    /// Size in bytes.
    public var size: Int

    /// An attachment description (normally made by `MediaFile`).
    public init(index: Int, fileName: String?, mimeType: String?, size: Int) {
        self.index = index
        self.fileName = fileName
        self.mimeType = mimeType
        self.size = size
    }
}
