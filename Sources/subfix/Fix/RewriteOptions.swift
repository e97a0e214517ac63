import Foundation
import SubCore

/// The rewriter's options, shared by `subfix fix` and `subfix extract --fix`: the same rows in both option
/// tables, checked the same way into one `FontRewriter`.
enum RewriteOptions {
    /// `--font`, `--policy` and `--also`, as rows of a command's option table.
    static let rows: [OptionSpec] = [
        .value("font", "NAME", "The font to write (default: \(BundledFont.familyName))."),
        .value("policy", "all|cjk", "Rewrite every font (all, the default) or only known CJK fonts (cjk)."),
        .value("also", "NAME", repeatable: true, "With --policy cjk, also rewrite this font."),
    ]

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
    static func rewriter(_ arguments: ParsedArguments) throws(UsageError) -> FontRewriter {
        let font = arguments.value("font") ?? BundledFont.familyName
        let trimmed = font.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed != font || font.contains(where: { "{}\\,<>\"'\n\r".contains($0) }) {
            throw .invalidValue(
                option: "font", value: font,
                expected: "a font family name without outer blanks and without , { } \\ < > \" '")
        }
        let policy: RewritePolicy
        switch try arguments.choice("policy", ["all", "cjk"]) ?? "all" {
        case "cjk": policy = .cjk(also: arguments.all("also"))
        default: policy = .all
        }
        return FontRewriter(targetFont: font, policy: policy)
    }
}
