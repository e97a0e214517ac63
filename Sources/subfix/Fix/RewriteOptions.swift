import Foundation
import SubCore

/// The rewriter's options, shared by `subfix fix` and `subfix extract --fix`: the same rows in both option
/// tables, checked the same way into one `FontRewriter`.
enum RewriteOptions {
    /// `--font`, `--policy` and `--also`, then the font options `--policy missing` checks against (the very rows
    /// of `check` and `render`: `--fonts-dir`, `--no-system-fonts`, `--default-font`), as rows of an option table.
    static let rows: [OptionSpec] =
        [
            .value("font", "NAME", "The font to write (default: \(BundledFont.familyName))."),
            .value(
                "policy", "all|cjk|missing",
                "Rewrite every font (all, the default), only known CJK fonts (cjk), or only fonts that do not resolve"
                    + " or lack glyphs for the text shown with them (missing)."),
            .value("also", "NAME", repeatable: true, "With --policy cjk, also rewrite this font."),
        ] + FontSetupOptions.options

    /// `rows` for a command where they only apply together with `flag` (`extract --fix`), saying so in their help.
    static func rows(onlyWith flag: String) -> [OptionSpec] {
        rows.map { row in
            var row = row
            row.help = "With --\(flag): " + row.help.prefix(1).lowercased() + row.help.dropFirst()
            return row
        }
    }

    /// The names of `rows`, in table order.
    static var names: [String] { rows.map(\.name) }

    /// The rewriter the options ask for (the bundled font and `.all` when none is given).
    /// `catalog` is `missingFontCatalog`'s, required for `--policy missing`.
    static func rewriter(_ arguments: ParsedArguments, catalog: FontCatalog? = nil) throws(UsageError) -> FontRewriter {
        let font = arguments.value("font") ?? BundledFont.familyName
        let trimmed = font.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed != font || font.contains(where: { "{}\\,<>\"'\n\r".contains($0) }) {
            throw .invalidValue(
                option: "font", value: font,
                expected: "a font family name without outer blanks and without , { } \\ < > \" '")
        }
        let policy: RewritePolicy
        switch try arguments.choice("policy", ["all", "cjk", "missing"]) ?? "all" {
        case "cjk": policy = .cjk(also: arguments.all("also"))
        case "missing":
            guard let catalog else { preconditionFailure("--policy missing needs the catalog of missingFontCatalog") }
            policy = MissingFontPolicy(catalog: catalog).policy
        default: policy = .all
        }
        return FontRewriter(targetFont: font, policy: policy)
    }

    /// For `--policy missing`, the font catalog the font options describe (its skipped fonts reported as warnings
    /// on `io`); nil for the other policies. The font options without `--policy missing` are a usage error.
    static func missingFontCatalog(_ arguments: ParsedArguments, io: CommandIO) throws -> FontCatalog? {
        guard try arguments.choice("policy", ["all", "cjk", "missing"]) == "missing" else {
            if let option = FontSetupOptions.options.map(\.name).first(where: arguments.has) {
                throw UsageError.needsOption(option, requires: "policy missing")
            }
            return nil
        }
        return try FontSetupOptions.catalog(FontSetupOptions.setup(arguments), io: io)
    }
}
