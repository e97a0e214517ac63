/// Which face a font reference should be rewritten to, and why.
public struct FaceChoice: Sendable, Hashable {
    /// The family name written into the subtitle.
    public var family: String
    /// The convention the text is written in, when it has CJK text or a hint.
    public var language: CJKLanguage?
    /// The catalog face that family resolves to here; nil when no face of that name is available.
    public var face: FontFace?
    /// Why: `kana in the text`, and what happened when the preferred face was missing.
    public var reason: String
}

/// Picks, for the text drawn with a font reference, the face that draws it in its own convention: Noto Sans
/// CJK JP for Japanese, KR for Korean, TC or SC for Chinese (see `CJKText.guess`). A face must be in the
/// catalog and cover the text; otherwise another one that does is chosen and the reason says so.
///
///     let chooser = FaceChooser(catalog: try FontCatalog(setup: FontSetup(), systemFamilies: FaceChooser.families))
///     chooser.choose(for: "終電に乗り遅れた").family   // "Noto Sans CJK JP"
public struct FaceChooser: Sendable {
    /// The faces to choose among.
    public let catalog: FontCatalog

    /// Every family a choice may name first: each language's preferred families.
    public static let families: [String] = CJKLanguage.allCases.flatMap(\.preferredFamilies)

    /// A chooser over `catalog`.
    public init(catalog: FontCatalog) {
        self.catalog = catalog
    }

    /// The face for `text` (the text drawn with one style or run), with `hint` (from the track's tags or the
    /// file's name, described by `hintSource`; `weakHint` when it is only the rest of the script's language)
    /// breaking the ties the text leaves open.
    public func choose(
        for text: some StringProtocol, hint: LanguageHint? = nil, hintSource: String = "tag", weakHint: Bool = false
    ) -> FaceChoice {
        let guess = CJKText.guess(text, hint: hint, hintSource: hintSource, weakHint: weakHint)
        let language = guess.language ?? .simplifiedChinese
        let reason = guess.language == nil ? "no CJK text, Simplified Chinese by default" : guess.reason
        var needed: [Unicode.Scalar] = []
        var seen = Set<UInt32>()
        for scalar in text.unicodeScalars where FontCoverage.needsGlyph(scalar) && seen.insert(scalar.value).inserted {
            needed.append(scalar)
        }
        var partial: (family: String, face: FontFace, lacking: Int)?
        for family in language.preferredFamilies {
            guard let (face, lacking) = bestFace(family, covering: needed) else { continue }
            if lacking == 0 { return FaceChoice(family: family, language: language, face: face, reason: reason) }
            if partial == nil || lacking < partial?.lacking ?? 0 { partial = (family, face, lacking) }
        }
        let preferred = language.notoFamily
        let why =
            partial.map { "\($0.family) lacks \($0.lacking) of its characters" } ?? "\(preferred) is not available"
        // Another convention's face still draws the characters (in its own forms), better than boxes.
        for other in CJKLanguage.allCases where other != language {
            for family in other.preferredFamilies {
                guard let (face, lacking) = bestFace(family, covering: needed), lacking == 0 else { continue }
                return FaceChoice(
                    family: family, language: language, face: face, reason: "\(reason); \(why), \(family) covers it")
            }
        }
        if let face = catalog.faces.first(where: { face in needed.allSatisfy { face.coverage.contains($0) } }) {
            return FaceChoice(
                family: face.family, language: language, face: face,
                reason: "\(reason); \(why), \(face.family) covers it")
        }
        if let partial {
            return FaceChoice(
                family: partial.family, language: language, face: partial.face,
                reason: "\(reason); no face covers all of it, \(partial.family) lacks \(partial.lacking)")
        }
        return FaceChoice(family: preferred, language: language, face: nil, reason: "\(reason); \(why) here")
    }

    /// The upright face of `family` (closest to regular weight first) that lacks the fewest of `needed`, and
    /// how many it lacks. Several files may carry one family (the bundled subset and the full system font).
    func bestFace(_ family: String, covering needed: [Unicode.Scalar]) -> (face: FontFace, lacking: Int)? {
        let request = FontRequest(name: family)
        var best: (face: FontFace, lacking: Int, score: Int)?
        for face in catalog.faces where face.matchFamilies.contains(where: { FontCatalog.sameName($0, family) }) {
            let lacking = needed.count { !face.coverage.contains($0) }
            let score = FontCatalog.similarity(face, request)
            if let current = best, (current.lacking, current.score) <= (lacking, score) { continue }
            best = (face, lacking, score)
        }
        return best.map { ($0.face, $0.lacking) }
    }
}
