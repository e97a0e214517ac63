/// Which font references `FontRewriter` replaces.
///
///     .text                        // references drawing Han, kana or Hangul, or naming a known CJK font (default)
///     .all                         // every reference
///     .cjk(also: ["Foo Sans"])     // names on `KnownCJKFonts`, plus the ones given
///     .custom { name, text in ... } // decided per reference, given the text shown with that font
public enum RewritePolicy: Sendable {
    /// References whose text has Han, kana or Hangul, or whose name is on `KnownCJKFonts` or in `also`; Latin-only
    /// typesetting (an `Arial` credits style) is kept.
    case text(also: [String])
    /// Every font reference.
    case all
    /// Only names on `KnownCJKFonts`, and the names in `also` (compared the same way).
    case cjk(also: [String])
    /// Decided by the closure, called with the font name (without `@`) and the plain text shown with it: for a
    /// style, the text of the dialogue events using it outside their `\fn` runs; for `\fn`, its run (up to the
    /// next `\fn` or `\r`); for `<font face>`, the text up to its `</font>`.
    case custom(@Sendable (_ fontName: String, _ textShownWithIt: String) -> RewriteDecision)

    /// Whether deciding needs the text shown with each font.
    var needsText: Bool {
        switch self {
        case .text, .custom: return true
        case .all, .cjk: return false
        }
    }

    /// The policy's name as `--policy` spells it.
    public var name: String {
        switch self {
        case .text: return "text"
        case .all: return "all"
        case .cjk: return "cjk"
        case .custom: return "custom"
        }
    }
}

/// A policy's answer for one reference: rewrite it or keep it, and why.
public struct RewriteDecision: Sendable, Hashable {
    /// Whether the reference is rewritten.
    public var rewrite: Bool
    /// Why, for the report: `resolves to DejaVu Sans, covers all 12 characters shown`.
    public var reason: String

    /// A decision with its reason.
    public init(rewrite: Bool, reason: String) {
        self.rewrite = rewrite
        self.reason = reason
    }
}

/// Where rewritten references point.
public enum FontTarget: Sendable {
    /// One family for every reference (`--font NAME`).
    case family(String)
    /// The face for the language of each reference's text (`--font auto`), chosen by `FaceChooser`.
    case auto(FaceChooser)
}
