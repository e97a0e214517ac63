import Synchronization

/// `subfix fix --policy missing`: rewrite a font reference only when the name does not resolve in a
/// `FontCatalog` (the way libass resolves it), or resolves to a face (of that name) missing glyphs for characters
/// shown with it. Decided per style (with the text of the events using it) and per `\fn` or `<font face>` run.
/// Remembers, for the fonts it keeps, which face they resolve to and how many characters it was shown, so a
/// report can say why each was kept.
///
///     let missing = MissingFontPolicy(catalog: try FontCatalog(setup: FontSetup()))
///     let result = FontRewriter(targetFont: "Noto Sans CJK SC", policy: missing.policy).rewrite(document)
///     for kept in missing.keptFonts(result.unknownFonts) { print("kept: \(kept.font) (\(kept.reason))") }
///
/// One instance per document when the reasons matter: it accumulates what it kept.
public final class MissingFontPolicy: Sendable {
    /// A font left alone, and why.
    public struct KeptFont: Sendable, Equatable {
        /// The name as written (with a vertical `@` when it had one).
        public var font: String
        /// Why it was kept: `resolves to DejaVu Sans, covers all 12 characters shown`.
        public var reason: String

        /// A kept font and its reason.
        public init(font: String, reason: String) {
            self.font = font
            self.reason = reason
        }
    }

    /// The fonts references are checked against.
    public let catalog: FontCatalog
    /// For each kept family (as `FontRequest.family`): the face it resolves to and the characters shown with it.
    private let kept = Mutex<[String: (face: String, characters: Set<UInt32>)]>([:])

    /// A policy checking against `catalog`.
    public init(catalog: FontCatalog) {
        self.catalog = catalog
    }

    /// The policy for `FontRewriter`, backed by `shouldRewrite(_:shownWith:)`.
    public var policy: RewritePolicy {
        .custom { [self] name, text in shouldRewrite(name, shownWith: text) }
    }

    /// Whether a reference to `fontName` (regular weight, upright) must be rewritten for `text` to render: true
    /// when no face of the catalog has that name, or none of its faces covers some character of `text`.
    public func shouldRewrite(_ fontName: String, shownWith text: String) -> Bool {
        let request = FontRequest(name: fontName)
        guard let face = catalog.resolve(request).face else { return true }
        var shown = Set<UInt32>()
        for scalar in text.unicodeScalars where FontCoverage.needsGlyph(scalar) && shown.insert(scalar.value).inserted {
            if face.coverage.contains(scalar) { continue }
            if catalog.resolve(request, covering: scalar).face == nil { return true }
        }
        kept.withLock { kept in
            kept[request.family, default: (face.family, [])].characters.formUnion(shown)
        }
        return false
    }

    /// Why each of `names` (the rewrite's `unknownFonts`) was kept, in their order; names this policy never kept
    /// are left out.
    public func keptFonts(_ names: [String]) -> [KeptFont] {
        kept.withLock { kept in
            names.compactMap { name in
                guard let entry = kept[FontRequest(name: name).family] else { return nil }
                let count = entry.characters.count
                let coverage =
                    count == 0
                    ? "no text is shown with it"
                    : count == 1 ? "covers the 1 character shown" : "covers all \(count) characters shown"
                return KeptFont(font: name, reason: "resolves to \(entry.face), \(coverage)")
            }
        }
    }
}
