/// What a stream of a media file carries.
public enum StreamKind: String, Sendable, Equatable, CaseIterable {
    case video, audio, subtitle, attachment, data, unknown
}

/// Whether a subtitle codec carries text (ASS, SubRip, mov_text, WebVTT) or pictures (PGS, VobSub, DVB).
/// The corresponding C flags are `AV_CODEC_PROP_TEXT_SUB` and `AV_CODEC_PROP_BITMAP_SUB`.
public enum SubtitleEncoding: String, Sendable, Equatable {
    case text, bitmap, unknown
}

/// One stream of a media file, copied out of libavformat.
///
/// For subtitle streams, `subtitleIndex` and `playerIndex` give the other two ways of counting it
/// (see `TrackIndex` for the conventions):
///
///     stream 2, subtitle index 0 (ffmpeg -map 0:s:0), player index 1 (VLC's first subtitle, mpv sid=1)
public struct MediaStream: Sendable, Equatable {
    /// The absolute stream index (`AVStream.index`, ffmpeg's `-map 0:N`).
    public var index: Int
    /// Video, audio, subtitle, attachment, data or unknown.
    public var kind: StreamKind
    /// libavcodec's codec name, such as `ass`, `subrip`, `hdmv_pgs_subtitle`, `h264`.
    public var codec: String
    /// For subtitle streams, whether the codec is text or bitmap; nil for other kinds.
    public var subtitleEncoding: SubtitleEncoding?
    /// The `language` tag (ISO 639-2 such as `chi`, `eng`, `jpn`), nil when missing or `und`.
    public var language: String?
    /// The `title` tag, nil when missing.
    public var title: String?
    /// `AV_DISPOSITION_DEFAULT`.
    public var isDefault: Bool
    /// `AV_DISPOSITION_FORCED`.
    public var isForced: Bool
    /// `AV_DISPOSITION_HEARING_IMPAIRED` (Matroska's FlagHearingImpaired: SDH, closed captions).
    public var isHearingImpaired: Bool
    /// 0-based position among the subtitle streams (`-map 0:s:N`); nil for other kinds.
    public var subtitleIndex: Int?
    /// The player's menu number (VLC: 0 is "Disable", 1 the first subtitle stream); nil for other kinds.
    public var playerIndex: Int?

    /// A stream description (normally made by `MediaFile`).
    public init(
        index: Int, kind: StreamKind, codec: String, subtitleEncoding: SubtitleEncoding?, language: String?,
        title: String?, isDefault: Bool, isForced: Bool, subtitleIndex: Int?, playerIndex: Int?,
        isHearingImpaired: Bool = false
    ) {
        self.index = index
        self.kind = kind
        self.codec = codec
        self.subtitleEncoding = subtitleEncoding
        self.language = language
        self.title = title
        self.isDefault = isDefault
        self.isForced = isForced
        self.isHearingImpaired = isHearingImpaired
        self.subtitleIndex = subtitleIndex
        self.playerIndex = playerIndex
    }

    /// Whether this is a subtitle stream whose codec is text.
    public var isText: Bool { subtitleEncoding == .text }

    /// A short human name for a subtitle codec, as used in messages: `PGS`, `VobSub`, `ASS`, `SubRip`.
    public var codecLabel: String {
        switch codec {
        case "hdmv_pgs_subtitle": return "PGS"
        case "dvd_subtitle": return "VobSub"
        case "dvb_subtitle": return "DVB"
        case "xsub": return "XSUB"
        case "ass", "ssa": return "ASS"
        case "subrip": return "SubRip"
        case "mov_text": return "mov_text"
        case "webvtt": return "WebVTT"
        default: return codec
        }
    }
}

extension MediaStream {
    /// What the track's title and language tag say about its CJK languages (`简日双语`, `jpn`, `zh-Hant`): the
    /// title's when it names any (a track tagged `chi` titled `简日双语` holds Japanese too), else the tag's.
    public var languageTags: LanguageTags? {
        if let title, let tags = LanguageTags(tag: title, source: "track title") { return tags }
        if let language, let tags = LanguageTags(tag: language, source: "track language") { return tags }
        return nil
    }
}
