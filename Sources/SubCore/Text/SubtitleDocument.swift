/// The subtitle formats subfix reads, chosen by file extension.
public enum SubtitleFormat: String, Sendable, CaseIterable {
    case ass, ssa, srt, vtt

    /// The format for a path's extension (any case; `.webvtt` is WebVTT too), or nil for other files.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let name = path[path.index(after: dot)...].lowercased()
        self.init(rawValue: name == "webvtt" ? "vtt" : name)
    }
}

/// A parsed subtitle of any supported format.
///
///     let document = try SubtitleDocument(decoded.utf8, format: .srt, file: "a.srt")
///     let result = FontRewriter().rewrite(document)
public enum SubtitleDocument: Sendable {
    case ass(ASSDocument)
    case srt(SRTDocument)
    case vtt(WebVTTDocument)

    /// Parses UTF-8 text in `format`.
    public init(_ utf8: [UInt8], format: SubtitleFormat, file: String) throws(SubtitleParseError) {
        switch format {
        case .ass, .ssa: self = .ass(try ASSDocument(utf8: utf8, file: file))
        case .srt: self = .srt(try SRTDocument(utf8: utf8, file: file))
        case .vtt: self = .vtt(try WebVTTDocument(utf8: utf8, file: file))
        }
    }

    /// The text (UTF-8), byte for byte as parsed.
    public var utf8: [UInt8] {
        switch self {
        case .ass(let document): return document.utf8
        case .srt(let document): return document.utf8
        case .vtt(let document): return document.utf8
        }
    }

    /// Every shown event or cue for the dialogue index.
    public func dialogueLines() throws(SubtitleParseError) -> [DialogueLine] {
        switch self {
        case .ass(let document): return try document.dialogueLines()
        case .srt(let document): return document.dialogueLines()
        case .vtt(let document): return document.dialogueLines()
        }
    }
}

extension FontRewriter {
    /// Rewrites a document of any format.
    public func rewrite(_ document: SubtitleDocument) -> FontRewrite {
        switch document {
        case .ass(let ass): return rewrite(ass)
        case .srt(let srt): return rewrite(srt)
        case .vtt(let vtt): return rewrite(vtt)
        }
    }
}
