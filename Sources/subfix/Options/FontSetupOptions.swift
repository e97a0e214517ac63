import SubCore

/// The font options `fonts`, `render` and `check` share: `--fonts-dir DIR`... and `--no-system-fonts`.
enum FontSetupOptions {
    /// The font option rows (`--fonts-dir`, system fonts, default font) shared by the commands that load fonts.
    static let options: [OptionSpec] = [
        .value(
            .fontsDir, "DIR", repeatable: true,
            "Also use the fonts in DIR (searched recursively: .ttf .otf .ttc .otc)."),
        .flag(
            .noSystemFonts,
            "Use neither fontconfig's fonts nor the bundled font: only --fonts-dir and attachments (a sandboxed player)."
        ),
        .value(
            .defaultFont, "FILE",
            "The font libass falls back to when a name or glyph is not found (as a player ships one)."),
    ]

    /// The setup the arguments ask for.
    static func setup(_ arguments: ParsedArguments) -> FontSetup {
        FontSetup(
            systemFonts: !arguments.has(.noSystemFonts), directories: arguments.all(.fontsDir),
            defaultFont: arguments.value(.defaultFont))
    }

    /// The catalog of the fonts `setup` names, its skipped fonts printed as warnings; a catalog that cannot be
    /// built at all (fontconfig failing) fails the command.
    static func catalog(_ setup: FontSetup, io: CommandIO) throws -> FontCatalog {
        let catalog: FontCatalog
        do {
            catalog = try FontCatalog(setup: setup)
        } catch {
            throw CommandFailure(error)
        }
        report(catalog.warnings, io: io)
        return catalog
    }

    /// Prints each skipped font as a warning.
    static func report(_ warnings: [FontWarning], io: CommandIO) {
        for warning in warnings { io.warning(warning.cause, file: warning.file) }
    }
}
