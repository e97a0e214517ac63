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

/// The settings of one `subfix fix` run (and of `subfix extract --fix`, which uses only the fixing part).
struct FixOptions: Sendable {
    var destination: FixDestination
    /// Decodes, rewrites, embeds and encodes each subtitle.
    var fixer: SubtitleFixer
    var diff: Bool
    /// Whether `--policy missing` decided the rewrites (its kept fonts are then reported with their reasons).
    var reportsKeptFonts = false
    /// With `--remux`: cuts the font subsets attached to remuxed Matroska files (nil without `--remux`).
    var remuxEmbedder: FontEmbedder?
    /// With `--max-read-rate`: the budget every media file of the run is read under.
    var readBudget: ReadBudget?
    /// `--naming`: how the sidecars of a media file are named.
    var naming = SidecarNaming.subfix
    /// With `--verbose`: the policy and font target, reported with every file (nil without `--verbose`).
    var explanation: FixExplanation?
    /// `--jobs`: how many files are fixed at once.
    var jobs = 1
    /// `--json`: one object per file, then the summary.
    var json = false
    /// `--remux`: media files are written again whole, their tracks fixed and the fonts attached.
    var remux = false
}

/// What `fix --verbose` adds to each file's report besides the encoding's basis: the policy that decided which
/// references are rewritten, and what they are rewritten to.
struct FixExplanation: Sendable, Equatable {
    /// `--policy`: text, all, cjk or missing.
    var policy: String
    /// `--font`: auto (a face per language) or the family written everywhere.
    var font: String
}
