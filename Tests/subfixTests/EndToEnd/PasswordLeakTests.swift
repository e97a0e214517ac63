import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The database password never reaches another user's eyes (issue 35, item 2): not in an error line, whatever
/// the URL's parse, not in libpq's echo of a host name, and not in `ps` while the command runs.
@Suite struct PasswordLeakTests {
    /// `/` and `?` in the password printed the whole URL in the usage error; `@` let libpq echo the rest.
    @Test(arguments: [
        "postgresql://me:s3cr/etpw?x@127.0.0.1:1/db", "postgresql://me:pa@ss9word@127.0.0.1:1/db",
        "postgresql://me:plainpw9@127.0.0.1:1/db", "postgresql://me:pa%40ss9word@127.0.0.1:1/db",
    ])
    func noErrorLineShowsThePassword(url: String) throws {
        let folder = try SubfixBinary.folder("pwleak")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try SubfixBinary.run(["search", "x", "--db", url], in: folder, limit: 60)
        #expect(run.status == 1 || run.status == 2)
        let password = try #require(url.split(separator: ":").dropFirst(2).first?.split(separator: "@").first)
        for secret in ["s3cr", "etpw", "ss9word", "plainpw9", String(password)]
        where secret.count >= 4 && url.contains(secret) {
            #expect(!run.stderr.contains(secret), "\(run.stderr)")
            #expect(!run.stdout.contains(secret))
        }
        #expect(run.errorLines.contains { $0.hasPrefix("subfix: error: ") })
        #expect(
            run.errorLines.first
                == "subfix: warning: a password in a postgresql:// URL on the command line can be read by other local"
                + " users while subfix starts; give it with PGPASSWORD, ~/.pgpass or SUBFIX_DB instead")
    }

    /// While a command waits on a server, `/proc/PID/cmdline` (what `ps` shows other users) holds `*` where
    /// the password was. The server is a local socket that accepts and never answers.
    @Test func psDoesNotShowThePassword() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = UInt16(bigEndian: address.sin_port)
        let folder = try SubfixBinary.folder("pwps")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let running = try SubfixBinary.start(
            ["search", "x", "--db", "postgresql://me:hunter2secret@127.0.0.1:\(port)/db"], in: folder)
        var cmdline = ""
        for _ in 0..<100 where running.process.isRunning {
            usleep(50_000)
            let data =
                (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(running.process.processIdentifier)/cmdline")))
                ?? Data()
            cmdline = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            if cmdline.contains("postgresql://") && cmdline.contains("*************") { break }
        }
        kill(running.process.processIdentifier, SIGKILL)
        _ = running.finish(limit: 10)
        #expect(cmdline.contains("postgresql://me:*************@127.0.0.1:\(port)/db"), "\(cmdline)")
        #expect(!cmdline.contains("hunter2secret"))
    }
}
