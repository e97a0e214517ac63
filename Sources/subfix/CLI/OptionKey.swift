/// The name of a command-line option, declared once here and used as a typed key in the command table and in
/// the code that reads the parsed arguments, so a misspelt option cannot compile (`arguments.has(.inPlace)`).
struct OptionKey: Hashable, Sendable {
    /// The name as typed after `--`.
    let name: String

    init(_ name: String) {
        self.name = name
    }
}

extension OptionKey {
    static let `all` = OptionKey("all")
    static let also = OptionKey("also")
    static let `at` = OptionKey("at")
    static let attachments = OptionKey("attachments")
    static let background = OptionKey("background")
    static let backupSuffix = OptionKey("backup-suffix")
    static let brackets = OptionKey("brackets")
    static let color = OptionKey("color")
    static let context = OptionKey("context")
    static let count = OptionKey("count")
    static let covers = OptionKey("covers")
    static let db = OptionKey("db")
    static let defaultFont = OptionKey("default-font")
    static let diff = OptionKey("diff")
    static let dryRun = OptionKey("dry-run")
    static let embed = OptionKey("embed")
    static let encoding = OptionKey("encoding")
    static let encodingHint = OptionKey("encoding-hint")
    static let every = OptionKey("every")
    static let filesWithMatches = OptionKey("files-with-matches")
    static let fix = OptionKey("fix")
    static let foldChinese = OptionKey("fold-chinese")
    static let font = OptionKey("font")
    static let fontsDir = OptionKey("fonts-dir")
    static let format = OptionKey("format")
    static let help = OptionKey("help")
    static let inPlace = OptionKey("in-place")
    static let jobs = OptionKey("jobs")
    static let json = OptionKey("json")
    static let lang = OptionKey("lang")
    static let library = OptionKey("library")
    static let limit = OptionKey("limit")
    static let maxFrames = OptionKey("max-frames")
    static let maxReadRate = OptionKey("max-read-rate")
    static let naming = OptionKey("naming")
    static let noSystemFonts = OptionKey("no-system-fonts")
    static let null = OptionKey("null")
    static let out = OptionKey("out")
    static let outDir = OptionKey("out-dir")
    static let path = OptionKey("path")
    static let playerDefaultFont = OptionKey("player-default-font")
    static let playerFontsDir = OptionKey("player-fonts-dir")
    static let policy = OptionKey("policy")
    static let prune = OptionKey("prune")
    static let quiet = OptionKey("quiet")
    static let remux = OptionKey("remux")
    static let sheet = OptionKey("sheet")
    static let size = OptionKey("size")
    static let stream = OptionKey("stream")
    static let subtitleIndex = OptionKey("subtitle-index")
    static let track = OptionKey("track")
    static let verbose = OptionKey("verbose")
    static let version = OptionKey("version")
    static let lease = OptionKey("lease")
    static let details = OptionKey("details")
}
