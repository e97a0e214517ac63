import Foundation

@main
struct SubfixMain {
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        let status = SubfixCLI.run(Array(CommandLine.arguments.dropFirst()), io: .standard())
        exit(status.rawValue)
    }
}
