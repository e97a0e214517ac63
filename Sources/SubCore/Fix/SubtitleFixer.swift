import Foundation

/// Why a subtitle could not be fixed: it could not be decoded or re-encoded, parsed, or its fonts embedded. The
/// error of the step that failed is kept as it is, so its file, position and kind stay readable.
public enum SubtitleFixError: Equatable, FileError {
    /// The bytes could not be decoded, or the fixed text not encoded back.
    case decoding(TextDecodingError)
    /// The text is not a well-formed subtitle.
    case parse(SubtitleParseError)
    /// The fonts of the subtitle `file` could not be embedded.
    case embed(EmbedError, file: String)

    public var file: String? {
        switch self {
        case .decoding(let error): return error.file
        case .parse(let error): return error.file
        case .embed(_, let file): return file
        }
    }

    public var position: String? {
        if case .parse(let error) = self { return error.position }
        return nil
    }

    /// The cause; for fonts that could not be embedded, naming the font file when the failure is in one.
    public var cause: String {
        switch self {
        case .decoding(let error): return error.cause
        case .parse(let error): return error.cause
        case .embed(let error, _): return error.description
        }
    }
}

/// One subtitle fixed in memory: what was decided and the bytes to write, not yet written anywhere.
public struct FixedSubtitle: Sendable {
    /// The bytes as read or extracted.
    public var original: [UInt8]
    /// The text as decoded, and the encoding it was found in.
    public var decoded: DecodedText
    /// What the font rewriting did, reference by reference.
    public var rewrite: FontRewrite
    /// The fonts embedded in the script's `[Fonts]` section.
    public var embedded: [EmbeddedFontReport]
    /// Why nothing was embedded although embedding was asked for (SRT and WebVTT cannot carry fonts).
    public var embedNote: String?
    /// The encoding written.
    public var outputEncoding: TextEncoding
    /// Every edit of `decoded.utf8`: the rewritten font names and the embedded fonts, sorted.
    public var edits: [TextEdit]
    /// How the output is held.
    var body: Body

    /// The output as held in memory.
    enum Body: Sendable {
        /// Built whole (a legacy encoding, or nothing changed).
        case bytes([UInt8])
        /// UTF-8 `decoded.utf8` with `edits` applied, which `write(into:)` streams without building it.
        case streamed
    }

    /// Whether the output differs from the original bytes.
    public var changed: Bool {
        guard case .bytes(let bytes) = body else { return true }
        return bytes != original
    }

    /// The fixed text as UTF-8 (for diffs and reports).
    public var text: [UInt8] { TextEdit.apply(edits, to: decoded.utf8) }

    /// The output bytes, whole.
    public var output: [UInt8] {
        guard case .bytes(let bytes) = body else { return mark + text }
        return bytes
    }

    private var mark: [UInt8] { decoded.hasByteOrderMark ? TextEncoding.utf8.byteOrderMark : [] }

    /// Hands the output to `sink` in pieces, without building it whole when it is UTF-8 with edits (a 20 MB
    /// script is written from the decoded text and the edits).
    public func write(into sink: (ArraySlice<UInt8>) -> Void) {
        if case .bytes(let bytes) = body { return sink(bytes[...]) }
        sink(mark[...])
        var position = 0
        for edit in edits {
            sink(decoded.utf8[position..<edit.range.lowerBound])
            sink(edit.replacement[...])
            position = edit.range.upperBound
        }
        sink(decoded.utf8[position...])
    }
}

/// Fixes one subtitle in memory: decodes it (any encoding, `TextDecoder`), rewrites its font references
/// (`FontRewriter`), optionally embeds subsets of the faces it now names (`FontEmbedder`, ASS/SSA only), and
/// encodes it (UTF-8, or its own encoding). Writes nothing; `subfix fix` and `subfix extract --fix` decide
/// where the bytes go.
///
///     let fixer = SubtitleFixer(rewriter: FontRewriter(target: .auto(chooser), policy: .text(also: [])))
///     let fixed = try fixer.fix(bytes, format: .ass, file: "ep01.ja.ass")
///     try Data(fixed.output).write(to: url)
public struct SubtitleFixer: Sendable {
    /// How font references are rewritten.
    public var rewriter: FontRewriter
    /// Embeds the faces references name, when set.
    public var embedder: FontEmbedder?
    /// Write in the input's own encoding instead of UTF-8.
    public var keepEncoding: Bool
    /// A language that breaks ties when detecting a legacy encoding, or the exact encoding of the input.
    public var encodingHint: EncodingHint?
    /// For `--policy missing`: the catalog references are checked against. Each file's own fonts (its
    /// `[Fonts]` section, its media file's attachments) join it for that file, as libass sees them.
    public var missingFontCatalog: FontCatalog?

    /// A fixer that rewrites with `rewriter`, embeds with `embedder` when given, and writes UTF-8 unless
    /// `keepEncoding`.
    public init(
        rewriter: FontRewriter, embedder: FontEmbedder? = nil, keepEncoding: Bool = false,
        encodingHint: EncodingHint? = nil
    ) {
        self.rewriter = rewriter
        self.embedder = embedder
        self.keepEncoding = keepEncoding
        self.encodingHint = encodingHint
    }

    /// Fixes `original`, a subtitle in `format` named `file` in messages. `languageTags` (a track's language
    /// and title) and the file name's tokens (`ep01.JPSC.ass`, `movie.ja.srt`) are the tag level of each run's
    /// language when faces are chosen by language.
    /// `attachments` are the fonts that travel with the subtitle (its media file's font attachments).
    public func fix(
        _ original: [UInt8], format: SubtitleFormat, file: String,
        languageTags: LanguageTags? = nil, attachments: [FontAttachment] = []
    ) throws(SubtitleFixError) -> FixedSubtitle {
        let decoded: DecodedText
        do {
            decoded = try TextDecoder.decode(original, file: file, hint: encodingHint)
        } catch {
            throw .decoding(error)
        }
        let document: SubtitleDocument
        do {
            document = try SubtitleDocument(decoded.utf8, format: format, file: file)
        } catch {
            throw .parse(error)
        }
        var rewriter = self.rewriter
        if let catalog = missingFontCatalog {
            var ownFonts = attachments
            if case .ass(let script) = document {
                ownFonts += script.embeddedFonts().fonts.map { FontAttachment(name: $0.name, data: $0.data) }
            }
            if !ownFonts.isEmpty, let fileCatalog = try? catalog.adding(attachments: ownFonts) {
                rewriter = FontRewriter(target: rewriter.target, policy: MissingFontPolicy(catalog: fileCatalog).policy)
            }
        }
        let fileTags = LanguageTags(fileName: file)
        rewriter.languageTags =
            [languageTags, fileTags].compactMap { $0 }.reduce(nil) { $0?.adding($1) ?? $1 } ?? rewriter.languageTags
        let rewrite = rewriter.rewrite(document)
        var edits = rewrite.edits
        var embedded: [EmbeddedFontReport] = []
        var embedNote: String?
        if let embedder {
            switch document {
            case .ass:
                let text = TextEdit.apply(rewrite.edits, to: decoded.utf8)
                let document: ASSDocument
                do {
                    document = try ASSDocument(utf8: text, file: file)
                } catch {
                    throw .parse(error)
                }
                do {
                    let (embedding, fonts) = try embedder.embed(in: document, also: rewrite.targetFamilies)
                    embedded = fonts
                    // Replacing subfix's earlier fonts by the same bytes is no change.
                    let changes = embedding.filter { !text[$0.range].elementsEqual($0.replacement) }
                    edits = TextEdit.merging(rewrite.edits, changes)
                } catch {
                    throw .embed(error, file: file)
                }
            case .srt, .vtt:
                embedNote =
                    "\(format == .srt ? "SRT" : "WebVTT") cannot carry fonts: nothing embedded (convert to ASS, or"
                    + " keep it in a Matroska file with the fonts attached)"
            }
        }
        let target = keepEncoding ? decoded.encoding : .utf8
        var fixed = FixedSubtitle(
            original: original, decoded: decoded, rewrite: rewrite, embedded: embedded, embedNote: embedNote,
            outputEncoding: target, edits: edits, body: .streamed)
        do throws(TextDecodingError) {
            if edits.isEmpty && target == decoded.encoding {
                fixed.body = .bytes(original)
            } else if keepEncoding {
                // Keeping the encoding keeps the bytes: only the replaced text is encoded.
                fixed.body = .bytes(
                    try TextDecoder.applyKeepingBytes(edits, to: original, decoded: decoded, file: file))
            } else if edits.isEmpty {
                fixed.body = .bytes(
                    try TextDecoder.encode(
                        decoded.utf8, as: target, byteOrderMark: decoded.hasByteOrderMark, file: file))
            }
        } catch {
            throw .decoding(error)
        }
        return fixed
    }
}
