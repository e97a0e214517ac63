/// One kind of font reference.
public enum FontReferenceKind: String, Sendable, Hashable, Codable {
    /// The Fontname field of an ASS/SSA `Style:` line.
    case style
    /// An `\fn<name>` override tag.
    case fnTag = "fn"
    /// The `face` attribute of an SRT/WebVTT `<font>` tag.
    case fontTag = "font"
    /// A family of a `font-family` property in a WebVTT `STYLE` block.
    case fontFamily = "font-family"
}

/// What happened to the references of one kind that named one font: rewritten to which face, or kept, and why.
/// References alike (same kind, style, old name, new name and reason) are counted together.
public struct FontReference: Sendable, Hashable {
    /// Style field, `\fn` tag or `<font face>`.
    public var kind: FontReferenceKind
    /// The style's name, for a style's Fontname field.
    public var style: String?
    /// The name as written (with a vertical `@` when it had one; empty for an empty Fontname field).
    public var font: String
    /// The name written instead (with the `@` kept); nil when the reference was kept.
    public var replacement: String?
    /// The language the text was found to be in, when a face was chosen by language.
    public var language: CJKLanguage?
    /// Why it was rewritten to that face, or kept.
    public var reason: String
    /// How many references this entry stands for.
    public var count: Int
}

/// What rewriting one document did: the edits to apply, how many references of each kind they replace, and
/// what was decided for each font reference.
public struct FontRewrite: Sendable, Equatable {
    /// The byte edits, sorted and not overlapping.
    public var edits: [TextEdit] = []
    /// Style Fontname fields replaced.
    public var styles = 0
    /// `\fn` override tags replaced.
    public var fnTags = 0
    /// `<font face>` attributes replaced.
    public var fontTags = 0
    /// Font names left alone by the policy, each once, in the order first seen.
    public var unknownFonts: [String] = []
    /// Every decision, rewritten or kept, in the order first made.
    public var references: [FontReference] = []
    /// Faces that were missing and what drew their text instead (`FaceChoice.degradation`), each once.
    public var degradations: [String] = []

    /// Whether anything is replaced.
    public var isEmpty: Bool { edits.isEmpty }

    /// The distinct families references were rewritten to (without `@`), in the order first written.
    public var targetFamilies: [String] {
        var seen = Set<String>()
        return references.compactMap { reference in
            guard let replacement = reference.replacement else { return nil }
            let family = replacement.hasPrefix("@") ? String(replacement.dropFirst()) : replacement
            return seen.insert(family).inserted ? family : nil
        }
    }
}

/// Rewrites the font names a subtitle asks for to the CJK face that draws their text, changing nothing else.
///
/// Targets: the whole Fontname field of each ASS/SSA style; every `\fn<name>` inside `{...}` override blocks
/// (several per block, inside `\t(...)`, names with spaces; an empty `\fn` or `\fn0` is a reset and stays); the
/// `face` attribute of `<font>` tags in SRT and WebVTT cues. A vertical `@` prefix is kept. Names already equal
/// to the target are left as they are, so a second run changes nothing. With `.auto`, each style and each run
/// gets the face for the language of its own text (a bilingual script gets one face per style).
///
/// The structure (override blocks, `\fn` arguments, `<font>` attributes) is found by scanning UTF-8 bytes, which
/// measured far faster than regexes: replacing `\fn` in a 20 MB script took 1.96 s with NSRegularExpression and
/// 2.99 s with Swift Regex, against about 35 ms for this whole rewrite. Regexes decide which names are known CJK
/// families (`KnownCJKFonts.patterns`), once per distinct name.
///
///     let rewriter = FontRewriter(targetFont: "Noto Sans CJK SC", policy: .all)
///     let result = rewriter.rewrite(try ASSDocument(utf8: text.utf8, file: "a.ass"))
///     let fixed = TextEdit.apply(result.edits, to: text.utf8)
public struct FontRewriter: Sendable {
    /// Where rewritten references point.
    public let target: FontTarget
    /// Which references are replaced.
    public let policy: RewritePolicy
    /// What the track's tags and the file's name say about the languages (`.JPSC.`, `jpn`): the level of a
    /// run's `LanguageContext` after its own text, line and style.
    public var languageTags: LanguageTags?
    private let alsoKeys: Set<String>

    /// A rewriter to one family (default: the bundled font) under `policy`.
    public init(targetFont: String = BundledFont.familyName, policy: RewritePolicy = .all) {
        self.init(target: .family(targetFont), policy: policy)
    }

    /// A rewriter to `target` under `policy`.
    public init(target: FontTarget, policy: RewritePolicy) {
        self.target = target
        self.policy = policy
        switch policy {
        case .cjk(let also), .text(let also): alsoKeys = Set(also.map(KnownCJKFonts.key))
        case .all, .custom: alsoKeys = []
        }
    }

    /// The family every reference is rewritten to, or nil when faces are chosen by language.
    public var targetFont: String? {
        if case .family(let family) = target { return family }
        return nil
    }

    /// Whether rewriting needs the text shown with each font.
    var needsText: Bool {
        if case .auto = target { return true }
        return policy.needsText
    }

    /// Decides one reference found at `range` of `buffer` and records the edit or the unknown name.
    struct Recorder {
        let rewriter: FontRewriter
        /// The whole script's text, the last level of every run's `LanguageContext`.
        var scriptEvidence: CJKEvidence?
        var result = FontRewrite()
        /// Per distinct name: why it is a CJK font (known, or named as one), or nil.
        var decisions: [ArraySlice<UInt8>: String?] = [:]
        /// Faces chosen, by what decided them (`ChoiceKey`), reused while the face draws the text.
        var choices: [ChoiceKey: (family: String, language: CJKLanguage?, reason: String, coverage: FontCoverage?)] =
            [:]
        /// Per distinct name: its class (`FaceClass.of`), decided once.
        var classes: [ArraySlice<UInt8>: (faceClass: FaceClass, reason: String)] = [:]
        var unknownSeen: Set<String> = []
        /// Where each distinct decision stands in `result.references`.
        var referenceIndex: [FontReferenceKey: Int] = [:]
        /// The UTF-8 of each family written so far.
        var replacements: [String: [UInt8]] = [:]
        private let fixedReplacement: [UInt8]?

        /// `textSize` sizes the edit list up front (untouched capacity costs no memory), so that it never has to
        /// be copied while growing.
        init(_ rewriter: FontRewriter, textSize: Int) {
            self.rewriter = rewriter
            fixedReplacement = rewriter.targetFont.map { Array($0.utf8) }
            result.edits.reserveCapacity(textSize / 32 + 16)
        }

        /// `range` is the whole name (a style's whole field, or the trimmed `\fn`/face value). Returns whether an
        /// edit was recorded. `text` is asked for only when the policy or the target needs it. An empty style
        /// field and a bare `@` are references too.
        mutating func consider(
            _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, kind: FontReferenceKind, style: String? = nil,
            quoteIfSpaced: Bool = false, bold: Bool = false, text: () -> String,
            around: () -> [LanguageContext.Level] = { [] }
        ) -> Bool {
            let trimmed = buffer.trimmingBlanks(range)
            guard !trimmed.isEmpty || kind == .style else { return false }
            let vertical = !trimmed.isEmpty && buffer[trimmed.lowerBound] == 0x40
            let nameRange = vertical ? buffer.trimmingBlanks((trimmed.lowerBound + 1)..<trimmed.upperBound) : trimmed
            if let fixed = fixedReplacement {
                // Already the target: nothing to decide (the common case of a second run).
                let current = UnsafeBufferPointer(rebasing: buffer[nameRange])
                if trimmed == range, !nameRange.isEmpty, current.elementsEqual(fixed) { return false }
            }
            var shown: String?
            func shownText() -> String {
                if let shown { return shown }
                let value = text()
                shown = value
                return value
            }
            let decision: RewriteDecision
            switch rewriter.policy {
            case .all:
                decision = RewriteDecision(rewrite: true, reason: "policy all")
            case .custom(let decide):
                decision = decide(buffer.string(nameRange), shownText())
            case .cjk:
                decision =
                    knownReason(buffer, nameRange).map { RewriteDecision(rewrite: true, reason: $0) }
                    ?? RewriteDecision(rewrite: false, reason: "not a known CJK font")
            case .text:
                if nameRange.isEmpty {
                    decision = RewriteDecision(rewrite: true, reason: "no font name")
                } else if let known = knownReason(buffer, nameRange) {
                    decision = RewriteDecision(rewrite: true, reason: known)
                } else if CJKText.needsCJKFont(shownText()) {
                    decision = RewriteDecision(rewrite: true, reason: "draws CJK text or symbols")
                } else {
                    decision = RewriteDecision(rewrite: false, reason: "draws no CJK text")
                }
            }
            let font = buffer.string(trimmed)
            guard decision.rewrite else {
                if !font.isEmpty, unknownSeen.insert(font).inserted { result.unknownFonts.append(font) }
                note(kind: kind, style: style, font: font, replacement: nil, language: nil, reason: decision.reason)
                return false
            }
            let family: String
            var language: CJKLanguage?
            var reason = decision.reason
            switch rewriter.target {
            case .family(let name):
                family = name
            case .auto(let chooser):
                let own = LanguageContext.Level(
                    kind == .style ? "its style's text" : "the run", CJKEvidence(shownText()))
                // The run's surroundings are read only when its own text leaves the language open.
                let levels = own.evidence.decidesAlone ? [own] : [own] + around()
                let guess = LanguageContext(levels: levels, tags: rewriter.languageTags, script: scriptEvidence)
                    .resolve()
                let (faceClass, classReason) = faceClass(buffer, nameRange)
                // The same decision with the same language and class gives the same face, when that face draws
                // this text too: a script asks hundreds of thousands of times for a handful of answers.
                let key = ChoiceKey(
                    decision: decision.reason, guess: guess, faceClass: faceClass, bold: bold)
                if let cached = choices[key], let coverage = cached.coverage,
                    shownText().unicodeScalars.allSatisfy({ !FontCoverage.needsGlyph($0) || coverage.contains($0) })
                {
                    (family, language, reason) = (cached.family, cached.language, cached.reason)
                } else {
                    let choice = chooser.choose(
                        for: shownText(), guess: guess, faceClass: faceClass,
                        classReason: faceClass == .serif ? classReason : nil)
                    family = choice.family
                    language = choice.language
                    reason = "\(decision.reason); \(choice.reason)" + (bold ? "; bold: the family's bold face" : "")
                    if let degradation = choice.degradation, !result.degradations.contains(degradation) {
                        result.degradations.append(degradation)
                    }
                    if choices.count < 256 {
                        choices[key] = (choice.family, choice.language, reason, choice.face?.coverage)
                    }
                }
            }
            // One array per family, shared by every edit to it (a script can have hundreds of thousands).
            let familyBytes = replacements[family] ?? Array(family.utf8)
            if replacements.count < 64 { replacements[family] = familyBytes }
            var wanted = vertical ? [0x40] + familyBytes : familyBytes
            if range.count == wanted.count, buffer[range].elementsEqual(wanted) { return false }
            if quoteIfSpaced, wanted.contains(where: { $0 == 0x20 || $0 == 0x09 }) {
                wanted = [0x22] + wanted + [0x22]
            }
            note(
                kind: kind, style: style, font: font, replacement: vertical ? "@" + family : family,
                language: language, reason: reason)
            result.edits.append(TextEdit(range: range, replacement: wanted))
            return true
        }

        /// Why the name counts as a CJK font (on `KnownCJKFonts`, or on the policy's `also` list), or nil;
        /// decided once per name.
        private mutating func knownReason(_ buffer: UnsafeBufferPointer<UInt8>, _ nameRange: Range<Int>) -> String? {
            let nameBytes = ArraySlice(UnsafeBufferPointer(rebasing: buffer[nameRange]))
            if let known = decisions[nameBytes] { return known }
            let name = buffer.string(nameRange)
            let known: String? =
                KnownCJKFonts.contains(name)
                ? "known CJK font"
                : !rewriter.alsoKeys.isEmpty && rewriter.alsoKeys.contains(KnownCJKFonts.key(name))
                    ? "on the also list" : nil
            decisions[nameBytes] = known
            return known
        }

        /// The class of the name at `nameRange` and why (sans, with no reason, for an empty name); decided once
        /// per name, since a script names a few fonts hundreds of thousands of times.
        private mutating func faceClass(
            _ buffer: UnsafeBufferPointer<UInt8>, _ nameRange: Range<Int>
        ) -> (FaceClass, String?) {
            guard !nameRange.isEmpty else { return (.sans, nil) }
            let nameBytes = ArraySlice(UnsafeBufferPointer(rebasing: buffer[nameRange]))
            if let known = classes[nameBytes] { return known }
            let decided = FaceClass.of(buffer.string(nameRange))
            classes[nameBytes] = decided
            return decided
        }

        /// Counts a decision into `result.references`.
        private mutating func note(
            kind: FontReferenceKind, style: String?, font: String, replacement: String?, language: CJKLanguage?,
            reason: String
        ) {
            let key = FontReferenceKey(kind: kind, style: style, font: font, replacement: replacement, reason: reason)
            if let index = referenceIndex[key] {
                result.references[index].count += 1
                return
            }
            referenceIndex[key] = result.references.count
            result.references.append(
                FontReference(
                    kind: kind, style: style, font: font, replacement: replacement, language: language, reason: reason,
                    count: 1))
        }

        mutating func finish() -> FontRewrite {
            let edits = result.edits
            if !zip(edits, edits.dropFirst()).allSatisfy({ $0.range.lowerBound < $1.range.lowerBound }) {
                result.edits.sort { $0.range.lowerBound < $1.range.lowerBound }
            }
            return result
        }
    }
}

/// What a face choice depends on besides the text's coverage: the policy's reason, the language and why, the
/// class and the weight.
struct ChoiceKey: Hashable {
    var decision: String
    var guess: LanguageGuess
    var faceClass: FaceClass
    var bold: Bool
}

/// What makes two decisions the same entry of `FontRewrite.references`.
struct FontReferenceKey: Hashable {
    var kind: FontReferenceKind
    var style: String?
    var font: String
    var replacement: String?
    var reason: String
}
