internal import CSQLite
import Foundation
import SubDB

// Core SubDB benchmarks against the raw sqlite3 C API, on the same schema and data, in the same run.
// Shared helpers for the other benchmark files: `BenchData`, `benchDirectory`, `measureMedian`, `printComparison`.

/// One row of the benchmark table.
struct BenchRow {
    let id: Int64
    let name: String
    let score: Int64
    let startMs: Int64
    let text: String
}

/// The benchmark data set: `count` rows of id, name, score, start ms and ~40 characters of text.
enum BenchData {
    static let count = Int(ProcessInfo.processInfo.environment["SUBDB_BENCH_ROWS"] ?? "") ?? 100_000
    static let repetitions = 5

    static let rows: [BenchRow] = (0..<count).map(makeRow)

    private static func makeRow(_ i: Int) -> BenchRow {
        let line = "Line \(i): we will meet at the old bridge tonight"
        let text = String(line.prefix(40))
        let score = Int64((i * 7919) % 100_000)
        return BenchRow(id: Int64(i + 1), name: "player\(i % 997)", score: score, startMs: Int64(i) * 1_500, text: text)
    }

    static let createTableSQL =
        "CREATE TABLE dialogue (id INTEGER PRIMARY KEY, name TEXT, score INTEGER, start_ms INTEGER, text TEXT)"
    static let insertSQL = "INSERT INTO dialogue (id, name, score, start_ms, text) VALUES (?, ?, ?, ?, ?)"
    static let selectSQL = "SELECT id, name, score, start_ms, text FROM dialogue"
}

/// `bench-out/subdb`, created if needed.
let benchDirectory: String = {
    let path = FileManager.default.currentDirectoryPath + "/bench-out/subdb"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

/// A fresh database path (the file and its journals are deleted first).
func freshDatabasePath(_ name: String) -> String {
    let path = benchDirectory + "/" + name
    for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    return path
}

/// CPU time of the calling thread, in nanoseconds: unlike wall time, it does not count the time other processes
/// take the CPU away, which makes ratios stable on a busy machine.
func cpuNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Seconds taken by `body`, the median of `repetitions` runs; `setUp` runs untimed before each.
func measureMedian(
    repetitions: Int = BenchData.repetitions, setUp: () throws -> Void = {}, _ body: () throws -> Void
) throws -> Double {
    var times: [Double] = []
    for _ in 0..<repetitions {
        try setUp()
        let start = cpuNanoseconds()
        try body()
        times.append(Double(cpuNanoseconds() - start) / 1e9)
    }
    return times.sorted()[times.count / 2]
}

/// Seconds taken by `raw` and `subdb`, measured alternately (so that both see the same machine load): the
/// median thread CPU time of `repetitions` runs each, and the ratio of median wall-clock times (which also counts
/// I/O waits such as fsync); `setUp` closures run untimed before each run.
func measureInterleaved(
    repetitions: Int = 9, setUpRaw: () throws -> Void = {}, raw: () throws -> Void,
    setUpSubDB: () throws -> Void = {}, subdb: () throws -> Void
) throws -> (raw: Double, subdb: Double, wallRatio: Double) {
    var rawTimes: [Double] = []
    var subdbTimes: [Double] = []
    var rawWall: [Double] = []
    var subdbWall: [Double] = []
    for _ in 0..<repetitions {
        try setUpRaw()
        var wall = DispatchTime.now().uptimeNanoseconds
        var start = cpuNanoseconds()
        try raw()
        rawTimes.append(Double(cpuNanoseconds() - start) / 1e9)
        rawWall.append(Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e9)
        try setUpSubDB()
        wall = DispatchTime.now().uptimeNanoseconds
        start = cpuNanoseconds()
        try subdb()
        subdbTimes.append(Double(cpuNanoseconds() - start) / 1e9)
        subdbWall.append(Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e9)
    }
    let median = { (times: [Double]) in times.sorted()[times.count / 2] }
    return (median(rawTimes), median(subdbTimes), median(subdbWall) / median(rawWall))
}

/// Prints one comparison line: both timings, the ratio to raw C and the target.
func printComparison(_ name: String, raw: Double, subdb: Double, target: Double, wallRatio: Double? = nil) {
    let ratio = subdb / raw
    let verdict = ratio <= target ? "ok" : "MISSED"
    var line =
        name.padding(toLength: 34, withPad: " ", startingAt: 0)
        + String(
            format: "raw C %9.2f ms   SubDB %9.2f ms   ratio %5.2fx   target <= %.1fx   %@",
            raw * 1000, subdb * 1000, ratio, target, verdict)
    if let wallRatio { line += String(format: "   (wall clock: %.2fx)", wallRatio) }
    print(line)
}

/// Prints one absolute timing line in microseconds per call.
func printMicroseconds(
    _ name: String, seconds: Double, iterations: Int, reference: Double? = nil, target: Double? = nil
) {
    let perCall = seconds / Double(iterations) * 1e6
    var line = name.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%7.2f µs per call", perCall)
    if let reference {
        line += String(format: "   (raw C %.2f µs)", reference / Double(iterations) * 1e6)
    }
    if let target { line += String(format: "   target < %.0f µs   %@", target, perCall < target ? "ok" : "MISSED") }
    print(line)
}

// MARK: - Raw C

/// Reports a failure of the raw C baseline on stderr and exits with status 1.
func benchFailure(_ message: String) -> Never {
    FileHandle.standardError.write(Data("subdb-bench: error: \(message)\n".utf8))
    exit(1)
}

/// A raw sqlite3 connection for the baseline. Closed in `deinit`.
final class RawConnection {
    let handle: OpaquePointer

    init(path: String) {
        var handle: OpaquePointer?
        guard
            sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
                == SQLITE_OK, let handle
        else { benchFailure("raw C: cannot open \(path)") }
        self.handle = handle
    }

    deinit { sqlite3_close_v2(handle) }

    func exec(_ sql: String) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            benchFailure("raw C: \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    func prepare(_ sql: String) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            benchFailure("raw C: \(String(cString: sqlite3_errmsg(handle)))")
        }
        return statement
    }
}

private func rawInsertAll(_ connection: RawConnection) {
    connection.exec("BEGIN")
    let statement = connection.prepare(BenchData.insertSQL)
    for row in BenchData.rows {
        sqlite3_bind_int64(statement, 1, row.id)
        row.name.withCString { _ = sqlite3_bind_text(statement, 2, $0, -1, csqlite_transient()) }
        sqlite3_bind_int64(statement, 3, row.score)
        sqlite3_bind_int64(statement, 4, row.startMs)
        row.text.withCString { _ = sqlite3_bind_text(statement, 5, $0, -1, csqlite_transient()) }
        guard sqlite3_step(statement) == SQLITE_DONE else { benchFailure("raw C insert failed") }
        sqlite3_reset(statement)
    }
    sqlite3_finalize(statement)
    connection.exec("COMMIT")
}

private func rawString(_ statement: OpaquePointer, _ index: Int32) -> String {
    String(cString: sqlite3_column_text(statement, index))
}

/// Reads every row into Swift structs.
private func rawFetchAll(_ connection: RawConnection) -> [BenchRow] {
    let statement = connection.prepare(BenchData.selectSQL)
    defer { sqlite3_finalize(statement) }
    var rows: [BenchRow] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        rows.append(
            BenchRow(
                id: sqlite3_column_int64(statement, 0), name: rawString(statement, 1),
                score: sqlite3_column_int64(statement, 2), startMs: sqlite3_column_int64(statement, 3),
                text: rawString(statement, 4)))
    }
    return rows
}

/// Reads every column of every row, keeping nothing (the work of a cursor loop).
private func rawIterate(_ connection: RawConnection) -> Int {
    let statement = connection.prepare(BenchData.selectSQL)
    defer { sqlite3_finalize(statement) }
    var checksum = 0
    while sqlite3_step(statement) == SQLITE_ROW {
        let id = sqlite3_column_int64(statement, 0)
        let name = rawString(statement, 1)
        let score = sqlite3_column_int64(statement, 2)
        let start = sqlite3_column_int64(statement, 3)
        let text = rawString(statement, 4)
        checksum &+= Int(id &+ score &+ start) &+ name.utf8.count &+ text.utf8.count
    }
    return checksum
}

/// SubDB's side of the cursor benchmark: every column of every row through `Row.fetchCursor`, keeping nothing.
private func iterateRows(_ db: Database) throws -> Int {
    let rows = try Row.fetchCursor(db, sql: BenchData.selectSQL)
    var checksum = 0
    while let row = try rows.next() {
        let id: Int64 = row[0]
        let name: String = row[1]
        let score: Int64 = row[2]
        let start: Int64 = row[3]
        let text: String = row[4]
        checksum &+= Int(id &+ score &+ start) &+ name.utf8.count &+ text.utf8.count
    }
    return checksum
}

private func rawFetchInts(_ connection: RawConnection) -> [Int] {
    let statement = connection.prepare("SELECT score FROM dialogue")
    defer { sqlite3_finalize(statement) }
    var values: [Int] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        values.append(Int(sqlite3_column_int64(statement, 0)))
    }
    return values
}

// MARK: - Benchmarks

/// Runs the core benchmarks and prints ratios to raw C.
func runCoreBenchmarks() throws {
    print(
        "subdb-bench: SQLite \(SQLiteLibrary.version), \(BenchData.count) rows, thread CPU time, median of several runs"
    )
    _ = BenchData.rows

    // Insert in one transaction through a reused statement.
    let rawPath = freshDatabasePath("raw.sqlite")
    let subdbPath = freshDatabasePath("subdb.sqlite")
    var raw: RawConnection?
    var dbQueue: DatabaseQueue?
    let insert = try measureInterleaved(
        repetitions: 5,
        setUpRaw: {
            raw = nil
            raw = RawConnection(path: freshDatabasePath("raw.sqlite"))
            raw?.exec(BenchData.createTableSQL)
        },
        raw: { if let raw { rawInsertAll(raw) } },
        setUpSubDB: {
            dbQueue = nil
            dbQueue = try DatabaseQueue(path: freshDatabasePath("subdb.sqlite"))
            try dbQueue?.write { db in try db.execute(sql: BenchData.createTableSQL) }
        },
        subdb: {
            try dbQueue?.write { db in
                let statement = try db.makeStatement(sql: BenchData.insertSQL)
                for row in BenchData.rows {
                    try statement.execute(arguments: [row.id, row.name, row.score, row.startMs, row.text])
                }
            }
        })
    printComparison(
        "insert, reused statement", raw: insert.raw, subdb: insert.subdb, target: 1.5, wallRatio: insert.wallRatio)
    raw = nil
    dbQueue = nil

    let rawConnection = RawConnection(path: rawPath)
    let queue = try DatabaseQueue(path: subdbPath)
    var sink = 0

    // Fetch all rows.
    let all = try measureInterleaved(
        raw: { sink &+= rawFetchAll(rawConnection).count },
        subdb: { sink &+= try queue.read { db in try Row.fetchAll(db, sql: BenchData.selectSQL) }.count })
    printComparison("Row.fetchAll", raw: all.raw, subdb: all.subdb, target: 1.5, wallRatio: all.wallRatio)

    // Iterate a cursor, reading every column.
    let cursor = try measureInterleaved(
        raw: { sink &+= rawIterate(rawConnection) },
        subdb: {
            sink &+= try queue.read(iterateRows)
        })
    printComparison(
        "Row cursor, every column", raw: cursor.raw, subdb: cursor.subdb, target: 1.2, wallRatio: cursor.wallRatio)

    // Fetch values.
    let ints = try measureInterleaved(
        raw: { sink &+= rawFetchInts(rawConnection).count },
        subdb: { sink &+= try queue.read { db in try Int.fetchAll(db, sql: "SELECT score FROM dialogue") }.count })
    printComparison("Int.fetchAll", raw: ints.raw, subdb: ints.subdb, target: 1.5, wallRatio: ints.wallRatio)

    // Empty accesses.
    let iterations = 20_000
    let emptyRead = try measureMedian {
        for _ in 0..<iterations { try queue.read { _ in } }
    }
    printMicroseconds("DatabaseQueue empty read {}", seconds: emptyRead, iterations: iterations, target: 5)
    let rawTransaction = try measureMedian {
        for _ in 0..<iterations { rawConnection.exec("BEGIN IMMEDIATE; COMMIT") }
    }
    let emptyWrite = try measureMedian {
        for _ in 0..<iterations { try queue.write { _ in } }
    }
    printMicroseconds(
        "DatabaseQueue empty write {}", seconds: emptyWrite, iterations: iterations, reference: rawTransaction)
    let pool = try DatabasePool(path: subdbPath)
    let poolRead = try measureMedian {
        for _ in 0..<iterations { try pool.read { _ in } }
    }
    printMicroseconds("DatabasePool empty read {}", seconds: poolRead, iterations: iterations, target: 5)
    if sink == 42 { print("") }  // keeps the results alive
}

/// Repeats one SubDB operation for a profiler (`perf record .build/release/subdb-bench profile:cursor`).
func runCoreProfile(_ name: String) throws {
    let path = benchDirectory + "/subdb.sqlite"
    guard FileManager.default.fileExists(atPath: path) else {
        print("subdb-bench: run `subdb-bench core` first to create \(path)")
        return
    }
    let queue = try DatabaseQueue(path: path)
    let rawConnection = RawConnection(path: path)
    var sink = 0
    for _ in 0..<30 {
        switch name {
        case "fetchAll":
            sink &+= try queue.read { db in try Row.fetchAll(db, sql: BenchData.selectSQL) }.count
        case "cursor":
            sink &+= try queue.read(iterateRows)
        case "rawCursor":
            sink &+= rawIterate(rawConnection)
        case "rawInsert":
            let connection = RawConnection(path: freshDatabasePath("profile.sqlite"))
            connection.exec(BenchData.createTableSQL)
            rawInsertAll(connection)
        case "insert":
            let insertQueue = try DatabaseQueue(path: freshDatabasePath("profile.sqlite"))
            try insertQueue.write { db in
                try db.execute(sql: BenchData.createTableSQL)
                let statement = try db.makeStatement(sql: BenchData.insertSQL)
                for row in BenchData.rows {
                    try statement.execute(arguments: [row.id, row.name, row.score, row.startMs, row.text])
                }
            }
        case "arguments":
            let start = cpuNanoseconds()
            for row in BenchData.rows {
                let arguments: StatementArguments = [row.id, row.name, row.score, row.startMs, row.text]
                blackHole(arguments)
            }
            print("arguments:", Double(cpuNanoseconds() - start) / 1e6, "ms")
        default:
            print(
                "subdb-bench: unknown profile \(name) (fetchAll, cursor, rawCursor, insert, rawInsert, arguments, fts, rawFTS, recordFetchAll, including, rawIncluding)"
            )
            return
        }
    }
    if sink == 42 { print("") }
}

/// Keeps a value alive for the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
