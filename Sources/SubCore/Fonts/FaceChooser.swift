/// Which face a font reference should be rewritten to, and why.
public struct FaceChoice: Sendable, Hashable {
    /// The family name written into the subtitle.
    public var family: String
    /// The convention the text is written in, when it has CJK text or a hint.
    public var language: CJKLanguage?
    /// The class asked for (the family is of another class when no face of this one draws the text).
    public var faceClass: FaceClass = .sans
    /// The catalog face that family resolves to here; nil when no face of that name is available.
    public var face: FontFace?
    /// Why: `kana in the run`, the class, and what happened when the preferred face was missing.
    public var reason: String
    /// When no face of the preferred family is here and another one draws the text instead: one line for the
    /// user, naming both and where to get the missing one.
    public var degradation: String?
}

/// Picks, for the text drawn with a font reference, the face that draws it in its own convention and class:
/// Noto Sans CJK (or Noto Serif CJK for Song/Ming/Mincho names) JP for Japanese, KR for Korean, TC or SC for
/// Chinese; the language comes from the text and its context (`LanguageContext`). A face must be in the catalog
/// and cover the text; otherwise the nearest one that does is chosen (the same language in the other class,
/// then the other languages) and the reason says so. Ties are broken by the fixed order of the families and of
/// the catalog, never by hashing: the same input gives the same choice in every process.
///
///     let chooser = FaceChooser(catalog: try FontCatalog(setup: FontSetup(), systemFamilies: FaceChooser.families))
///     chooser.choose(for: "終電に乗り遅れた").family   // "Noto Sans CJK JP"
public struct FaceChooser: Sendable {
    /// The faces to choose among.
    public let catalog: FontCatalog

    /// Every family a choice may name first: each language's families of each class.
    public static let families: [String] = CJKLanguage.allCases.flatMap { $0.families(.sans) + $0.families(.serif) }

    /// For each family a choice may name, the indices of the catalog's faces that carry it: found once, since
    /// a script may ask for a face hundreds of thousands of times.
    private let facesOfFamily: [String: [Int]]

    /// A chooser over `catalog`.
    public init(catalog: FontCatalog) {
        self.catalog = catalog
        var facesOfFamily: [String: [Int]] = [:]
        for family in Self.families { facesOfFamily[family] = Self.faces(of: family, in: catalog) }
        self.facesOfFamily = facesOfFamily
    }

    /// Whether some face of the catalog carries one of `faceClass`'s families.
    public func hasFaces(of faceClass: FaceClass) -> Bool {
        CJKLanguage.allCases.contains { language in
            language.families(faceClass).contains { !(facesOfFamily[$0] ?? []).isEmpty }
        }
    }

    /// The face for `text` alone (its own characters decide the language).
    public func choose(for text: some StringProtocol, faceClass: FaceClass = .sans) -> FaceChoice {
        choose(
            for: text, context: LanguageContext(levels: [.init("the text", CJKEvidence(text))]),
            faceClass: faceClass)
    }

    /// The face of `faceClass` for `text` (the text drawn with one style or run), in the language `context`
    /// resolves to.
    public func choose(
        for text: some StringProtocol, context: LanguageContext, faceClass: FaceClass = .sans,
        classReason: String? = nil
    ) -> FaceChoice {
        choose(for: text, guess: context.resolve(), faceClass: faceClass, classReason: classReason)
    }

    /// The face of `faceClass` for `text` in the language `guess` says.
    public func choose(
        for text: some StringProtocol, guess: LanguageGuess, faceClass: FaceClass = .sans, classReason: String? = nil
    ) -> FaceChoice {
        let language = guess.language ?? .simplifiedChinese
        let reason = classReason.map { "\(guess.reason); \($0)" } ?? guess.reason
        let needed = Self.distinctNeeded(text)
        func choice(_ family: String, _ face: FontFace?, _ why: String) -> FaceChoice {
            FaceChoice(family: family, language: language, faceClass: faceClass, face: face, reason: why)
        }
        var partial: (family: String, face: FontFace, lacking: Int)?
        for family in language.families(faceClass) {
            guard let (face, lacking) = bestFace(family, covering: needed) else { continue }
            if lacking == 0 { return choice(family, face, reason) }
            if partial == nil || lacking < partial?.lacking ?? 0 { partial = (family, face, lacking) }
        }
        let preferred = language.families(faceClass)[0]
        let why =
            partial.map { "\($0.family) lacks \($0.lacking) of its characters" } ?? "\(preferred) is not available"
        // The nearest face that draws every character: the other class in the same language (the glyph forms
        // are right), then the other languages (their own forms, better than boxes), same class first.
        let other: FaceClass = faceClass == .serif ? .sans : .serif
        let fallbacks =
            language.families(other)
            + CJKLanguage.allCases.filter { $0 != language }.flatMap { $0.families(faceClass) + $0.families(other) }
        for family in fallbacks {
            guard let (face, lacking) = bestFace(family, covering: needed), lacking == 0 else { continue }
            var fallback = choice(family, face, "\(reason); \(why), \(family) covers it")
            if partial == nil {
                fallback.degradation =
                    "no \(preferred) face is available here: its text is drawn with \(family) (Debian's"
                    + " fonts-noto-cjk has it, or give --fonts-dir)"
            }
            return fallback
        }
        if let face = catalog.faces.first(where: { face in needed.allSatisfy { face.coverage.contains($0) } }) {
            return choice(face.family, face, "\(reason); \(why), \(face.family) covers it")
        }
        if let partial {
            return choice(
                partial.family, partial.face,
                "\(reason); no face covers all of it, \(partial.family) lacks \(partial.lacking)")
        }
        var missing = choice(preferred, nil, "\(reason); \(why) here")
        // With the system's fonts in play and some of the faces `auto` names installed, this language's face is
        // missing: say so once. (With none installed, the fix command says so for the whole run; without the
        // system's fonts, a sandboxed player is being imitated on purpose, and each reason says it.)
        if catalog.setup.systemFonts, hasFaces(of: .sans) || hasFaces(of: .serif) {
            missing.degradation =
                "no installed face draws this text: \(preferred) is not available here (Debian's fonts-noto-cjk has"
                + " it, or give --fonts-dir); the name is written as it is"
        }
        return missing
    }

    /// The distinct characters of `text` that need a glyph, ascending (sorted in place, which finds the repeats
    /// without hashing).
    static func distinctNeeded(_ text: some StringProtocol) -> [Unicode.Scalar] {
        var needed = text.unicodeScalars.filter(FontCoverage.needsGlyph)
        needed.sort { $0.value < $1.value }
        var distinct = 0
        for index in needed.indices where distinct == 0 || needed[distinct - 1] != needed[index] {
            needed[distinct] = needed[index]
            distinct += 1
        }
        needed.removeLast(needed.count - distinct)
        return needed
    }

    /// The indices of `catalog`'s faces that carry `family` (compared as libass compares names).
    private static func faces(of family: String, in catalog: FontCatalog) -> [Int] {
        catalog.faces.indices.filter { catalog.faces[$0].matchFamilies.contains { FontCatalog.sameName($0, family) } }
    }

    /// The upright face of `family` closest to `weight` that lacks the fewest of `needed`, and how many it
    /// lacks; ties keep the earlier face of the catalog. Several files may carry one family (the bundled
    /// subset and the full system font; the Regular and the Bold collection).
    func bestFace(_ family: String, covering needed: [Unicode.Scalar], weight: Int = 400) -> (
        face: FontFace, lacking: Int
    )? {
        let request = FontRequest(name: family, weight: weight, italic: false)
        let candidates = facesOfFamily[family] ?? Self.faces(of: family, in: catalog)
        var best: (index: Int, key: (Int, Int, Int))?
        for index in candidates {
            let face = catalog.faces[index]
            // A face of the other side of 600 (bold for regular text) only when none of this side is there.
            let otherSide = (face.weight >= 600) != (weight >= 600) ? 1 : 0
            let lacking = needed.count { !face.coverage.contains($0) }
            let key = (otherSide, lacking, FontCatalog.similarity(face, request))
            if let current = best, current.key <= key { continue }
            best = (index, key)
        }
        return best.map { (catalog.faces[$0.index], $0.key.1) }
    }
}
