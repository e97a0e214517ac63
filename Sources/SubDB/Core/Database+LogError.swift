internal import CSQLite
import Synchronization

extension Database {
    /// A function that receives SQLite's error log: the result code and the message, as GRDB's.
    public typealias LogErrorFunction = (_ resultCode: ResultCode, _ message: String) -> Void

    /// Receives the messages of SQLite's error log (`SQLITE_CONFIG_LOG`): failed statements, automatic indexes,
    /// recovered journals... It is called on the thread where SQLite logs, whatever the connection, so keep it
    /// fast and thread-safe.
    ///
    ///     Database.logError = { resultCode, message in
    ///         print("SQLite error \(resultCode): \(message)")
    ///     }
    ///
    /// As in GRDB, SQLite takes its log function only before it opens its first connection: SubDB installs
    /// its own then (see `installErrorLog`), which forwards to the function set here, so it may be set or
    /// changed at any time. It stays nil (nothing forwarded) unless set.
    public static var logError: LogErrorFunction? {
        get { logErrorStorage.withLock { $0 }?.function }
        set {
            installErrorLog()
            logErrorStorage.withLock { $0 = newValue.map(LogErrorBox.init) }
        }
    }

    /// Installs SubDB's forwarding log callback, once per process, before SQLite is initialized; opening a
    /// connection calls it first. False when SQLite was already initialized by someone else (the raw C API
    /// used before SubDB): then SQLite's error log cannot reach ``logError``.
    @discardableResult
    static func installErrorLog() -> Bool { errorLogInstalled }

    /// The result of the one `sqlite3_config(SQLITE_CONFIG_LOG, ...)` call of the process.
    private static let errorLogInstalled: Bool = {
        let code = csqlite_config_log(
            { _, code, message in
                // SQLite's own thread, any connection: read the function under the lock, call it outside.
                guard let function = Database.logErrorStorage.withLock({ $0 })?.function else { return }
                function(ResultCode(rawValue: code), message.map { String(cString: $0) } ?? "")
            }, nil)
        return code == SQLITE_OK
    }()

    /// The function of ``logError``, shared by every thread SQLite logs from.
    private static let logErrorStorage = Mutex<LogErrorBox?>(nil)
}

/// Holds a ``Database/LogErrorFunction`` in the process-wide mutex. The function is not `Sendable` (GRDB's
/// signature): SQLite calls it from any thread, which its documentation asks the user to allow for.
private final class LogErrorBox: @unchecked Sendable {
    let function: Database.LogErrorFunction
    init(_ function: @escaping Database.LogErrorFunction) { self.function = function }
}
