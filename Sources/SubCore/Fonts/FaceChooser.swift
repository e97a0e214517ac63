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

    /// For each family a choice may name, the indices of the catalog's faces that carry it: found once, since
    /// a script may ask for a face hundreds of thousands of times.
    private let facesOfFamily: [String: [Int]]

    /// A chooser over `catalog`.
    public init(catalog: FontCatalog) {
        self.catalog = catalog
        var facesOfFamily: [String: [Int]] = [:]
        for family in Set(Self.families) { facesOfFamily[family] = Self.faces(of: family, in: catalog) }
        self.facesOfFamily = facesOfFamily
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
        // The distinct characters that need a glyph (sorted, which finds the repeats without hashing; in place).
        var needed = text.unicodeScalars.filter(FontCoverage.needsGlyph)
        needed.sort { $0.value < $1.value }
        var distinct = 0
        for index in needed.indices where distinct == 0 || needed[distinct - 1] != needed[index] {
            needed[distinct] = needed[index]
            distinct += 1
        }
        needed.removeLast(needed.count - distinct)
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

    /// The indices of `catalog`'s faces that carry `family` (compared as libass compares names).
    private static func faces(of family: String, in catalog: FontCatalog) -> [Int] {
        catalog.faces.indices.filter { catalog.faces[$0].matchFamilies.contains { FontCatalog.sameName($0, family) } }
    }

    /// The upright face of `family` (closest to regular weight first) that lacks the fewest of `needed`, and
    /// how many it lacks. Several files may carry one family (the bundled subset and the full system font).
    func bestFace(_ family: String, covering needed: [Unicode.Scalar]) -> (face: FontFace, lacking: Int)? {
        let request = FontRequest(name: family)
        let candidates = facesOfFamily[family] ?? Self.faces(of: family, in: catalog)
        var best: (index: Int, lacking: Int, score: Int)?
        for index in candidates {
            let coverage = catalog.faces[index].coverage
            let lacking = needed.count { !coverage.contains($0) }
            let score = FontCatalog.similarity(catalog.faces[index], request)
            if let current = best, (current.lacking, current.score) <= (lacking, score) { continue }
            best = (index, lacking, score)
        }
        return best.map { (catalog.faces[$0.index], $0.lacking) }
    }
}
