import Foundation
import SubCore

@main
struct SubfixMain {
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        // A parent may start subfix with signals blocked (threads of a test runner or a daemon do): unblock them,
        // so that SIGTERM and Ctrl-C stop it as they stop any command.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        // Decoded from argv's bytes losslessly: a file name that is not UTF-8 still names its file (`PathBytes`).
        let arguments = (1..<Int(CommandLine.argc)).map { index in
            CommandLine.unsafeArgv[index].map { PathBytes.decode(cString: $0) } ?? ""
        }
        let io = CommandIO.standard()
        if ArgumentPasswords.hide() {
            io.warning(
                "a password in a postgresql:// URL on the command line can be read by other local users while"
                    + " subfix starts; give it with PGPASSWORD, ~/.pgpass or SUBFIX_DB instead", file: nil)
        }
        let status = SubfixCLI.run(arguments, io: io)
        exit(status.rawValue)
    }
}
