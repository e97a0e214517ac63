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
    PostgresBackend.dispatching(IndexCommand.spec, to: PostgresIndexCommand.run),
    PostgresBackend.dispatching(SearchCommand.spec, to: PostgresSearchCommand.run),
    JobsCommand.spec,
    ReportCommand.spec,
    QueueCommand.spec,
    WorkerCommand.spec,
]
