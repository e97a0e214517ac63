/// Which font references `FontRewriter` replaces.
///
///     .all                         // every reference (the default)
///     .cjk(also: ["Foo Sans"])     // names on `KnownCJKFonts`, plus the ones given
///     .custom { name, text in ... } // decided per reference, given the text shown with that font
public enum RewritePolicy: Sendable {
    /// Every font reference.
    case all
    /// Only names on `KnownCJKFonts`, and the names in `also` (compared the same way).
    case cjk(also: [String])
    /// Decided by the closure, called with the font name (without `@`) and the plain text shown with it: for a
    /// style, the text of the dialogue events using it outside their `\fn` runs; for `\fn`, its run (up to the
    /// next `\fn` or `\r`); for `<font face>`, the text up to its `</font>`.
    case custom(@Sendable (_ fontName: String, _ textShownWithIt: String) -> Bool)

    /// Whether the closure needs the text shown with each font.
    var needsText: Bool {
        if case .custom = self { return true }
        return false
    }
}
