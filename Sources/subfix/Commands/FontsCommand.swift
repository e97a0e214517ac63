import Foundation
import SubCore

/// `subfix fonts`: the font catalog libass would see, with names, style and coverage.
enum FontsCommand {
    static let spec = CommandSpec(
        name: "fonts",
        summary: "List the fonts libass can use: names, weight, slant and character coverage.",
        options: FontSetupOptions.options + [
            .value(.covers, "TEXT", "Only fonts that cover every character of TEXT (exit 1 when none does)."),
            .flag(.json, "One JSON object per face on stdout."),
            LibraryLocation.option,
        ],
        discussion: """
            By default the catalog holds fontconfig's system fonts and the bundled Noto Sans CJK SC; with
            --no-system-fonts only the --fonts-dir folders. Fonts that cannot be read are skipped with a warning.
            Every face read from a file is stored in the library database (replacing what was recorded for its
            file; files that vanished are forgotten), a SQLite file or a postgresql:// URL; a database that cannot
            be opened is a warning.
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> ExitStatus {
        let catalog = try FontSetupOptions.catalog(FontSetupOptions.setup(arguments), io: io)
        if let url = try PostgresBackend.url(arguments, io: io) {
            FontCatalogStore.store(catalog.faces, url: url, io: io)
        } else {
            FontCatalogStore.store(catalog.faces, databasePath: try LibraryLocation.path(arguments, io: io), io: io)
        }
        var faces = catalog.faces
        if let text = arguments.value(.covers) {
            faces = faces.filter { $0.coverage.missing(in: text).isEmpty }
        }
        for face in faces {
            if arguments.has(.json) {
                io.printJSON(json(face))
            } else {
                io.print(line(face))
            }
        }
        if let text = arguments.value(.covers), faces.isEmpty {
            io.error("no font covers '\(text)'")
            return .someFailed
        }
        return .success
    }

    /// `Noto Sans CJK SC | NotoSansCJKsc-Regular | 400 upright | bundled | Fonts/x.otf | 10487 chars: Han 8105, ...`
    static func line(_ face: FontFace) -> String {
        let location = face.source.name + (face.index > 0 ? "#\(face.index)" : "")
        let scripts = face.coverage.scriptCounts.map { "\($0.script.rawValue) \($0.count)" }.joined(separator: ", ")
        return [
            face.families.joined(separator: ", "), face.postScriptName ?? "-",
            "\(face.weight) \(face.isItalic ? "italic" : "upright")", face.origin.rawValue, location,
            "\(face.coverage.count) chars: \(scripts)",
        ].joined(separator: " | ")
    }

    static func json(_ face: FontFace) -> JSON {
        .typed(
            "font",
            [
                ("file", .string(face.source.name)), ("index", .int(face.index)),
                ("origin", .string(face.origin.rawValue)),
                ("families", .array(face.families.map(JSON.string))),
                ("fullNames", .array(face.fullNames.map(JSON.string))),
                ("postScriptName", .optional(face.postScriptName)), ("weight", .int(face.weight)),
                ("italic", .bool(face.isItalic)), ("characters", .int(face.coverage.count)),
                ("scripts", .object(face.coverage.scriptCounts.map { ($0.script.rawValue, .int($0.count)) })),
            ])
    }
}
