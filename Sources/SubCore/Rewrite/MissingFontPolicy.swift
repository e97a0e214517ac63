/// `subfix fix --policy missing`: rewrite a font reference only when the name does not resolve in a
/// `FontCatalog` (the way libass resolves it), or resolves to a face (of that name) missing glyphs for characters
/// shown with it. Decided per style (with the text of the events using it) and per `\fn` or `<font face>` run;
/// each decision carries its reason, which `FontRewrite.references` reports.
///
///     let missing = MissingFontPolicy(catalog: try FontCatalog(setup: FontSetup()))
///     let result = FontRewriter(targetFont: "Noto Sans CJK SC", policy: missing.policy).rewrite(document)
///     for kept in result.references where kept.replacement == nil { print("kept: \(kept.font) (\(kept.reason))") }
public struct MissingFontPolicy: Sendable {
    /// The fonts references are checked against.
    public let catalog: FontCatalog

    /// A policy checking against `catalog`.
    public init(catalog: FontCatalog) {
        self.catalog = catalog
    }

    /// The policy for `FontRewriter`, backed by `decide(_:shownWith:)`.
    public var policy: RewritePolicy {
        .custom { [self] name, text in decide(name, shownWith: text) }
    }

    /// Whether a reference to `fontName` (regular weight, upright) must be rewritten for `text` to render: yes
    /// when no face of the catalog has that name, or none of its faces covers some character of `text`.
    public func decide(_ fontName: String, shownWith text: String) -> RewriteDecision {
        let request = FontRequest(name: fontName)
        guard let face = catalog.resolve(request).face else {
            return RewriteDecision(rewrite: true, reason: "does not resolve")
        }
        var shown = Set<UInt32>()
        var lacking = 0
        for scalar in text.unicodeScalars where FontCoverage.needsGlyph(scalar) && shown.insert(scalar.value).inserted {
            if face.coverage.contains(scalar) { continue }
            if catalog.resolve(request, covering: scalar).face == nil { lacking += 1 }
        }
        if lacking > 0 {
            return RewriteDecision(
                rewrite: true, reason: "\(face.family) lacks \(lacking) character\(lacking == 1 ? "" : "s") shown")
        }
        let count = shown.count
        let coverage =
            count == 0
            ? "no text is shown with it"
            : count == 1 ? "covers the 1 character shown" : "covers all \(count) characters shown"
        return RewriteDecision(rewrite: false, reason: "resolves to \(face.family), \(coverage)")
    }

    /// Whether a reference to `fontName` must be rewritten for `text` to render (`decide(_:shownWith:)`'s answer).
    public func shouldRewrite(_ fontName: String, shownWith text: String) -> Bool {
        decide(fontName, shownWith: text).rewrite
    }
}
