/// Every command subfix understands, one row each. A command appears here once it works.
///
/// Each command lives in its own file as `enum XCommand { static let spec = CommandSpec(...) }`.
let commandTable: [CommandSpec] = [
    FixCommand.spec,
    ProbeCommand.spec,
    ExtractCommand.spec,
    RenderCommand.spec,
    FontsCommand.spec,
    CheckCommand.spec,
    IndexCommand.spec,
    SearchCommand.spec,
    JobsCommand.spec,
    ReportCommand.spec,
]
