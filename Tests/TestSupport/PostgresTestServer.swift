import Foundation
import Synchronization

/// A PostgreSQL server started from Debian's packages for the tests: a fresh data folder in a temporary
/// directory, run as an unprivileged user (PostgreSQL refuses root), listening on a free port on 127.0.0.1 and on
/// a unix socket in the folder, stopped when the test process exits.
///
/// Local (socket) connections are trusted; TCP connections need the password, so tests can give a wrong one.
public final class PostgresTestServer: Sendable {
    /// Why the server could not start (the tests that need it fail with this reason).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The superuser's name and password.
    public static let user = "subfix"
    public static let password = "s3cret-pw"
    /// Debian's PostgreSQL 15 programs.
    public static let binaries = "/usr/lib/postgresql/15/bin"

    /// The data folder's parent (removed when stopped).
    public let directory: String
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The unprivileged user the server runs as (nil when the tests do not run as root).
    let runAs: String?
    private let databases = Mutex(0)

    /// The one server of this test process, started on first use.
    public static func shared() throws -> PostgresTestServer {
        try sharedServer.get()
    }

    private static let sharedServer: Result<PostgresTestServer, Failure> = {
        do {
            let server = try PostgresTestServer()
            atexit { try? PostgresTestServer.sharedServer.get().stop() }
            return .success(server)
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }()

    /// initdb, then pg_ctl start; throws `Failure` with the programs' output when either fails.
    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binaries + "/initdb") else {
            throw Failure(description: "\(Self.binaries)/initdb is missing: install Debian's postgresql (make deps)")
        }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("subfix-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        directory = base
        let runAs = geteuid() == 0 ? try Self.unprivilegedUser() : nil
        self.runAs = runAs
        let passwordFile = base + "/pwfile"
        try Data((Self.password + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))
        if let runAs {
            try Self.runChecked("/bin/chown", ["-R", runAs, base])
        }
        try Self.run(
            "initdb", as: runAs,
            [
                "-D", base + "/data", "-U", Self.user, "--pwfile=" + passwordFile, "--auth-local=trust",
                "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync",
            ])
        var lastError = ""
        for _ in 0..<5 {
            let candidate = try Self.freePort()
            do {
                try Self.run(
                    "pg_ctl", as: runAs,
                    [
                        "-D", base + "/data", "-l", base + "/server.log", "-w", "-t", "60", "-o",
                        "-p \(candidate) -k \(base) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
                        "start",
                    ])
                port = candidate
                return
            } catch {
                lastError = "\(error)\n" + ((try? String(contentsOfFile: base + "/server.log", encoding: .utf8)) ?? "")
            }
        }
        throw Failure(description: "cannot start PostgreSQL: \(lastError)")
    }

    /// Stops the server (fast shutdown) and removes its folder.
    public func stop() throws {
        try? run("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Restarts the server on the same port (connections break), for tests of a server restart mid-run.
    public func restart() throws {
        try run(
            "pg_ctl",
            [
                "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "-m", "fast", "-o",
                "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
                "restart",
            ])
    }

    /// Creates an empty database and returns its URL over TCP with the password.
    public func makeDatabase() throws -> String {
        let name = databases.withLock { count -> String in
            count += 1
            return "test_\(getpid())_\(count)"
        }
        try run("createdb", ["-h", directory, "-p", String(port), "-U", Self.user, name])
        return url(database: name)
    }

    /// The URL of `database` over TCP (127.0.0.1:port) with `password`.
    public func url(database: String, password: String = PostgresTestServer.password) -> String {
        "postgresql://\(Self.user):\(password)@127.0.0.1:\(port)/\(database)"
    }

    /// Runs one of PostgreSQL's programs as the unprivileged user.
    func run(_ program: String, _ arguments: [String]) throws {
        try Self.run(program, as: runAs, arguments)
    }

    /// Runs one of PostgreSQL's programs as `runAs` (nil: as this process).
    static func run(_ program: String, as runAs: String?, _ arguments: [String]) throws {
        let path = Self.binaries + "/" + program
        if let runAs {
            try Self.runChecked("/sbin/runuser", ["-u", runAs, "--", path] + arguments)
        } else {
            try Self.runChecked(path, arguments)
        }
    }

    /// A user PostgreSQL accepts to run as: `subfix-test`, created when missing, else `nobody`.
    static func unprivilegedUser() throws -> String {
        if (try? runChecked("/usr/bin/id", ["-u", "subfix-test"])) != nil { return "subfix-test" }
        if (try? runChecked(
            "/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "subfix-test"]))
            != nil
        {
            return "subfix-test"
        }
        return "nobody"
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago.
    static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw Failure(description: "socket(): errno \(errno)") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketFD, generic, length) == 0 && getsockname(socketFD, generic, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "cannot find a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a program (posix_spawn, output to a temporary file, waitpid); throws `Failure` with its output when it
    /// exits non-zero. No pipe: a server the program starts in the background would keep a pipe open.
    @discardableResult
    static func runChecked(_ program: String, _ arguments: [String]) throws -> String {
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "subfix-pg-\(UUID().uuidString).out"
        )
        .path
        defer { unlink(logPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw Failure(description: "cannot run \(program): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            throw Failure(
                description: "\(program) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
        return text
    }
}
