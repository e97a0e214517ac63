import SubCore

/// How `subfix fix` writes its results.
enum FixDestination: Sendable, Equatable {
    /// Into a folder, mirroring the inputs' relative paths.
    case folder(String)
    /// Over each input, after keeping a backup with this suffix (for a media file: sidecars next to it).
    case inPlace(backupSuffix: String)
    /// Nowhere: only report what would change.
    case dryRun
}

/// The settings of one `subfix fix` run (and of `subfix extract --fix`, which uses only the rewriting part).
struct FixOptions: Sendable {
    var destination: FixDestination
    var rewriter: FontRewriter
    /// Write in the input's own encoding instead of UTF-8.
    var keepEncoding: Bool
    var hint: EncodingHint?
    var diff: Bool
    /// For `--policy missing`: the catalog each file's fonts are checked against (a `MissingFontPolicy` per file,
    /// so the report can say why each kept font was kept).
    var missingFonts: FontCatalog? = nil
}
