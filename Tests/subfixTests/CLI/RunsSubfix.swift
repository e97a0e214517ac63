@testable import subfix

/// A suite that runs `subfix` in process, as `run(["fix", ...])`: the exit status, standard output and standard
/// error of one command.
protocol RunsSubfix {}

extension RunsSubfix {
    func run(_ arguments: [String]) -> (subfix.ExitStatus, String, String) {
        let (io, output) = CommandIO.capturing()
        let status = SubfixCLI.run(arguments, io: io)
        return (status, output.stdout, output.stderr)
    }
}
