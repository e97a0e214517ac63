internal import CSQLite
import Foundation

extension Database {
    /// Which events ``Database/trace(options:_:)`` reports.
    public struct TracingOptions: OptionSet, Sendable {
        /// The raw `SQLITE_TRACE_*` mask.
        public let rawValue: Int32
        /// Creates options from a raw mask.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Each statement, when it starts (`SQLITE_TRACE_STMT`).
        public static let statement = TracingOptions(rawValue: SQLITE_TRACE_STMT)
        /// Each statement with its duration, when it ends (`SQLITE_TRACE_PROFILE`).
        public static let profile = TracingOptions(rawValue: SQLITE_TRACE_PROFILE)
    }

    /// A traced event. As in GRDB, its description shows `?` placeholders unless
    /// ``Configuration/publicStatementArguments`` is set (arguments may be private: passwords, personal data);
    /// ``expandedDescription`` always inlines them.
    public enum TraceEvent: CustomStringConvertible {
        /// A statement starts.
        case statement(TracedStatement)
        /// A statement ended after `duration` seconds.
        case profile(statement: TracedStatement, duration: TimeInterval)

        /// The statement's description (`INSERT INTO player VALUES (?, ?)`, or with the values inlined when
        /// arguments are public), prefixed with the duration for profiles.
        public var description: String {
            switch self {
            case .statement(let statement): return statement.description
            case .profile(let statement, let duration):
                return String(format: "%.3fs ", duration) + statement.description
            }
        }

        /// The expanded SQL, without the duration.
        public var expandedDescription: String {
            switch self {
            case .statement(let statement), .profile(let statement, _): return statement.expandedSQL
            }
        }
    }

    /// The statement of a ``TraceEvent``.
    public struct TracedStatement: CustomStringConvertible, Sendable {
        /// The SQL as compiled, with `?` placeholders.
        public let sql: String
        /// The SQL with the bound values inlined. The corresponding C function is `sqlite3_expanded_sql`.
        public let expandedSQL: String
        /// Whether the connection's arguments are public (``Configuration/publicStatementArguments``).
        let publicArguments: Bool

        /// The SQL with `?` placeholders, or the expanded SQL when arguments are public.
        public var description: String { publicArguments ? expandedSQL : sql }
    }

    /// Reports executed statements to `trace` (nil stops tracing). The default reports each statement.
    ///
    ///     db.trace { print($0) }   // INSERT INTO player (name) VALUES ('Arthur')
    ///     db.trace(options: .profile) { event in ... }
    public func trace(options: TracingOptions = .statement, _ trace: ((TraceEvent) -> Void)? = nil) {
        tracer = trace.map { Tracer(options: options, observer: $0) }
        installTrace()
    }

    /// Installs or removes the `sqlite3_trace_v2` hook for the tracer and the configuration's `trace`.
    func installTrace() {
        var mask = tracer?.options.rawValue ?? 0
        if configuration.trace != nil { mask |= SQLITE_TRACE_STMT }
        guard mask != 0 else {
            sqlite3_trace_v2(sqliteConnection, 0, nil, nil)
            return
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_trace_v2(
            sqliteConnection, UInt32(mask),
            { mask, context, p, x in
                guard let context, let p else { return 0 }
                let db = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
                let statementHandle = OpaquePointer(p)
                if mask == UInt32(SQLITE_TRACE_STMT), let x {
                    // Statements run by triggers come as "-- TRIGGER name" comments: skip them.
                    let unexpanded = x.assumingMemoryBound(to: CChar.self)
                    if unexpanded[0] == 0x2D && unexpanded[1] == 0x2D { return 0 }
                }
                db.report(mask: mask, statement: statementHandle, durationNanoseconds: x)
                return 0
            }, context)
    }

    /// Builds the event and hands it to the tracer and the configuration's trace.
    private func report(mask: UInt32, statement: OpaquePointer, durationNanoseconds: UnsafeMutableRawPointer?) {
        let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
        var expanded = sql
        if let cExpanded = sqlite3_expanded_sql(statement) {
            expanded = String(cString: cExpanded)
            sqlite3_free(cExpanded)
        }
        let traced = TracedStatement(
            sql: sql, expandedSQL: expanded, publicArguments: configuration.publicStatementArguments)
        if mask == UInt32(SQLITE_TRACE_STMT) {
            configuration.trace?(expanded)
            if let tracer, tracer.options.contains(.statement) { tracer.observer(.statement(traced)) }
        } else if mask == UInt32(SQLITE_TRACE_PROFILE), let tracer, tracer.options.contains(.profile) {
            let nanoseconds = durationNanoseconds?.assumingMemoryBound(to: Int64.self).pointee ?? 0
            tracer.observer(.profile(statement: traced, duration: TimeInterval(nanoseconds) / 1e9))
        }
    }
}

/// The tracing closure of a connection.
struct Tracer {
    let options: Database.TracingOptions
    let observer: (Database.TraceEvent) -> Void
}
