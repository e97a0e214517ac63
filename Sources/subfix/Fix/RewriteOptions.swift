import Foundation
import SubCore

/// The fixing options, shared by `subfix fix` and `subfix extract --fix`: the same rows in both option tables,
/// checked the same way into one `SubtitleFixer`.
enum RewriteOptions {
    /// The policy names `--policy` takes.
    static let policies = ["text", "all", "cjk", "missing"]

    /// `--font`, `--policy`, `--also` and `--embed`, then the font options that say which faces exist (the very
    /// rows of `check` and `render`: `--fonts-dir`, `--no-system-fonts`, `--default-font`), as rows of an
    /// option table.
    static let rows: [OptionSpec] =
        [
            .value(
                .font, "auto|NAME",
                "The face to write: auto (the default) picks Noto Sans CJK SC, TC, JP or KR by the language of the"
                    + " text each style or run draws; NAME writes that family everywhere."),
            .value(
                .policy, "text|all|cjk|missing",
                "Rewrite fonts that draw CJK text or are known CJK fonts (text, the default), every font (all), only"
                    + " known CJK fonts (cjk), or only fonts that do not resolve or lack glyphs for their text"
                    + " (missing)."),
            .value(.also, "NAME", repeatable: true, "With --policy text or cjk, also rewrite this font."),
            .flag(
                .embed,
                "Embed in each ASS/SSA file a subset of every face it now names, holding exactly the characters drawn"
                    + " with it, so it renders on players without CJK fonts."),
        ] + FontSetupOptions.options

    /// `rows` for a command where they only apply together with `flag` (`extract --fix`), saying so in their help.
    static func rows(onlyWith flag: String) -> [OptionSpec] {
        rows.map { row in
            var row = row
            row.help = "With --\(flag): " + row.help.prefix(1).lowercased() + row.help.dropFirst()
            return row
        }
    }

    /// What `--font` (and the config file's `font`) must be.
    static let fontExpectation = "auto, or a font family name without outer blanks and without , { } \\ < > \" '"

    /// Whether `font` can be written into a Style line, a `\\fn` tag and a `<font face>` as it is.
    static func isValidFont(_ font: String) -> Bool {
        let trimmed = font.trimmingCharacters(in: .whitespaces)
        return !trimmed.isEmpty && trimmed == font && !font.contains(where: { "{}\\,<>\"'\n\r".contains($0) })
    }

    /// The keys of `rows`, in table order.
    static var keys: [OptionKey] { rows.map(\.key) }

    /// The fixer the options ask for, with the font catalog it needs (fonts that cannot be read are reported
    /// as warnings on `io`): the whole catalog for `--policy missing`, else only the faces a choice may name.
    /// A `--font NAME` that resolves to nothing here is warned about on every run. `embed` overrides `--embed`
    /// (`fix --remux` needs the embedder for its attachments).
    static func fixer(
        _ arguments: ParsedArguments, io: CommandIO, keepEncoding: Bool = false, encodingHint: EncodingHint? = nil,
        embed: Bool? = nil
    ) throws -> (fixer: SubtitleFixer, reportsKeptFonts: Bool) {
        let embed = embed ?? arguments.has(.embed)
        let font = arguments.value(.font) ?? "auto"
        if !isValidFont(font) {
            throw UsageError.invalidValue(option: OptionKey.font.name, value: font, expected: fontExpectation)
        }
        let policyName = try arguments.choice(.policy, policies) ?? "text"
        let auto = font == "auto"
        let setup = FontSetupOptions.setup(arguments)
        let catalog: FontCatalog
        do {
            catalog = try FontCatalog(
                setup: setup, systemFamilies: policyName == "missing" ? nil : auto ? FaceChooser.families : [font])
        } catch {
            throw CommandFailure(error)
        }
        FontSetupOptions.report(catalog.warnings, io: io)
        let policy: RewritePolicy
        switch policyName {
        case "all": policy = .all
        case "cjk": policy = .cjk(also: arguments.all(.also))
        case "missing": policy = MissingFontPolicy(catalog: catalog).policy
        default: policy = .text(also: arguments.all(.also))
        }
        if !auto, catalog.resolve(FontRequest(name: font)).face == nil {
            io.warning(
                "no font named '\(font)' is available here: the name written will not resolve on this machine"
                    + (embed
                        ? "" : " (players need it installed, or use --embed with a face that is)"),
                file: nil)
        }
        // With the system fonts and the bundled font in play and still no CJK face, the names written cannot
        // resolve (a binary copied without its font); --no-system-fonts leaves them out on purpose, and the report
        // already says per reference that the face is not available.
        if auto, setup.systemFonts,
            !FaceChooser.families.contains(where: { catalog.resolve(FontRequest(name: $0)).face != nil })
        {
            let bundled =
                setup.bundledDirectory == nil
                ? " (the bundled font was not found: see SUBFIX_FONTS_DIR in subfix(1))" : ""
            io.warning(
                "no Noto Sans CJK (SC, TC, JP or KR) or Source Han Sans face is available here\(bundled): the names"
                    + " written will not resolve on this machine unless a --fonts-dir font covers the text",
                file: nil)
        }
        let rewriter = FontRewriter(target: auto ? .auto(FaceChooser(catalog: catalog)) : .family(font), policy: policy)
        let embedder =
            embed
            ? FontEmbedder(catalog: catalog, families: auto ? FaceChooser.families : [font]) : nil
        var fixer = SubtitleFixer(
            rewriter: rewriter, embedder: embedder, keepEncoding: keepEncoding, encodingHint: encodingHint)
        if policyName == "missing" { fixer.missingFontCatalog = catalog }
        return (fixer, policyName == "missing")
    }
}
