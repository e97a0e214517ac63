internal import CSQLite
import Foundation
import SubDB

// Record and FTS5 benchmarks against the raw sqlite3 C API, on the core benchmark's schema and data
// (BenchData in CoreBenchmarks.swift), in the same run.

/// The benchmark row as a Codable record.
private struct Dialogue: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "dialogue"
    var id: Int64
    var name: String
    var score: Int64
    var startMs: Int64
    var text: String

    enum CodingKeys: String, CodingKey {
        case id, name, score
        case startMs = "start_ms"
        case text
    }
}

/// A match of the full-text table.
private struct DialogueMatch: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "dialogue_ft"
    var rowid: Int64
    var text: String
}

private let ftsQueryCount = 200
private let ftsSQL = "SELECT rowid, text FROM dialogue_ft WHERE dialogue_ft MATCH ? ORDER BY rank LIMIT 20"

private func rawInsertRecords(_ connection: RawConnection, _ records: [Dialogue]) {
    connection.exec("BEGIN")
    let statement = connection.prepare(BenchData.insertSQL)
    for record in records {
        sqlite3_bind_int64(statement, 1, record.id)
        record.name.withCString { _ = sqlite3_bind_text(statement, 2, $0, -1, csqlite_transient()) }
        sqlite3_bind_int64(statement, 3, record.score)
        sqlite3_bind_int64(statement, 4, record.startMs)
        record.text.withCString { _ = sqlite3_bind_text(statement, 5, $0, -1, csqlite_transient()) }
        guard sqlite3_step(statement) == SQLITE_DONE else { fatalError("raw C insert failed") }
        sqlite3_reset(statement)
    }
    sqlite3_finalize(statement)
    connection.exec("COMMIT")
}

private func rawFetchRecords(_ connection: RawConnection) -> [Dialogue] {
    let statement = connection.prepare(BenchData.selectSQL)
    defer { sqlite3_finalize(statement) }
    var records: [Dialogue] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        records.append(
            Dialogue(
                id: sqlite3_column_int64(statement, 0),
                name: String(cString: sqlite3_column_text(statement, 1)),
                score: sqlite3_column_int64(statement, 2),
                startMs: sqlite3_column_int64(statement, 3),
                text: String(cString: sqlite3_column_text(statement, 4))))
    }
    return records
}

private func rawFTSQueries(_ connection: RawConnection, _ patterns: [String]) -> Int {
    let statement = connection.prepare(ftsSQL)
    defer { sqlite3_finalize(statement) }
    var count = 0
    for pattern in patterns {
        pattern.withCString { _ = sqlite3_bind_text(statement, 1, $0, -1, csqlite_transient()) }
        while sqlite3_step(statement) == SQLITE_ROW {
            let rowid = sqlite3_column_int64(statement, 0)
            let text = String(cString: sqlite3_column_text(statement, 1))
            count &+= Int(rowid) &+ text.utf8.count
        }
        sqlite3_reset(statement)
    }
    return count
}

/// Seconds taken by raw C and by SubDB, runs interleaved so that both see the same machine load, the minimum of
/// `repetitions` runs each (the least disturbed run on a shared machine).
private func measurePair(
    repetitions: Int = 7, rawSetUp: () throws -> Void = {}, subdbSetUp: () throws -> Void = {},
    raw: () throws -> Void, subdb: () throws -> Void
) throws -> (raw: Double, subdb: Double) {
    var rawBest = Double.infinity
    var subdbBest = Double.infinity
    for repetition in 0..<repetitions {
        // Alternate which side runs first, so that neither always inherits the other's cache state.
        if repetition.isMultiple(of: 2) {
            rawBest = min(rawBest, try measureMedian(repetitions: 1, setUp: rawSetUp, raw))
            subdbBest = min(subdbBest, try measureMedian(repetitions: 1, setUp: subdbSetUp, subdb))
        } else {
            subdbBest = min(subdbBest, try measureMedian(repetitions: 1, setUp: subdbSetUp, subdb))
            rawBest = min(rawBest, try measureMedian(repetitions: 1, setUp: rawSetUp, raw))
        }
    }
    return (rawBest, subdbBest)
}

/// Runs the record and FTS5 benchmarks and prints ratios to raw C.
func runRecordBenchmarks() throws {
    let records = BenchData.rows.map {
        Dialogue(id: $0.id, name: $0.name, score: $0.score, startMs: $0.startMs, text: $0.text)
    }

    // Codable record insert in one transaction, each run into a fresh database file.
    var raw: RawConnection?
    var dbQueue: DatabaseQueue?
    let insert = try measurePair(
        rawSetUp: {
            raw = nil
            raw = RawConnection(path: freshDatabasePath("raw-records.sqlite"))
            raw?.exec(BenchData.createTableSQL)
        },
        subdbSetUp: {
            dbQueue = nil
            dbQueue = try DatabaseQueue(path: freshDatabasePath("subdb-records.sqlite"))
            try dbQueue?.write { db in try db.execute(sql: BenchData.createTableSQL) }
        },
        raw: { if let raw { rawInsertRecords(raw, records) } },
        subdb: { try dbQueue?.write { db in for record in records { try record.insert(db) } } })
    printComparison("Codable record insert", raw: insert.raw, subdb: insert.subdb, target: 4)
    raw = nil
    dbQueue = nil

    // Codable fetchAll.
    let rawConnection = RawConnection(path: benchDirectory + "/raw-records.sqlite")
    let queue = try DatabaseQueue(path: benchDirectory + "/subdb-records.sqlite")
    var sink = 0
    let fetch = try measurePair(
        raw: { sink &+= rawFetchRecords(rawConnection).count },
        subdb: { sink &+= try queue.read { db in try Dialogue.fetchAll(db) }.count })
    printComparison("Codable record fetchAll", raw: fetch.raw, subdb: fetch.subdb, target: 2.5)

    // 200 FTS5 queries, top 20 by bm25, on one shared database file.
    try queue.write { db in
        try db.create(virtualTable: "dialogue_ft", using: FTS5()) { t in t.column("text") }
        try db.execute(sql: "INSERT INTO dialogue_ft(rowid, text) SELECT id, text FROM dialogue")
    }
    // Both sides query through connections opened after the index was built.
    let rawFTSConnection = RawConnection(path: benchDirectory + "/subdb-records.sqlite")
    let ftsQueue = try DatabaseQueue(path: benchDirectory + "/subdb-records.sqlite")
    let patterns = try ftsPatterns()
    let rawPatterns = patterns.map(\.rawPattern)
    let fts = try measurePair(
        raw: { sink &+= rawFTSQueries(rawFTSConnection, rawPatterns) },
        subdb: {
            sink &+= try ftsQueue.read { db in try ftsQueries(db, patterns) }
        })
    printComparison("200 FTS5 queries, top 20 by bm25", raw: fts.raw, subdb: fts.subdb, target: 1.1)
    if sink == 42 { print("") }  // keeps the results alive
}

/// The benchmark's FTS5 queries: a prefix and two words, different for each query.
private func ftsPatterns() throws -> [FTS5Pattern] {
    try (0..<ftsQueryCount).map { index in
        try FTS5Pattern(rawPattern: "\(100 + index * 3)* OR bridge \(index * 487)")
    }
}

/// The SubDB side of the FTS5 benchmark: the top 20 by bm25 for each pattern, summed into a checksum.
private func ftsQueries(_ db: Database, _ patterns: [FTS5Pattern]) throws -> Int {
    var count = 0
    for pattern in patterns {
        let matches = try DialogueMatch.select(Column.rowID, Column("text"))
            .matching(pattern).order(Column.rank).limit(20).fetchAll(db)
        for match in matches { count &+= Int(match.rowid) &+ match.text.utf8.count }
    }
    return count
}

/// Repeats the FTS5 benchmark's SubDB side for a profiler (`perf record .build/release/subdb-bench profile:fts`),
/// on the database that `subdb-bench records` leaves behind; `raw` repeats the raw C side instead,
/// `recordFetchAll` the Codable fetchAll benchmark.
func runFTSProfile(raw: Bool = false, recordFetchAll: Bool = false) throws {
    let path = benchDirectory + "/subdb-records.sqlite"
    guard FileManager.default.fileExists(atPath: path) else {
        print("subdb-bench: run `subdb-bench records` first to create \(path)")
        return
    }
    let queue = try DatabaseQueue(path: path)
    let patterns = try ftsPatterns()
    var sink = 0
    if recordFetchAll {
        for _ in 0..<30 { sink &+= try queue.read { db in try Dialogue.fetchAll(db) }.count }
        return
    }
    if raw {
        let connection = RawConnection(path: path)
        let rawPatterns = patterns.map(\.rawPattern)
        for _ in 0..<50 { sink &+= rawFTSQueries(connection, rawPatterns) }
    }
    for _ in 0..<(raw ? 0 : 50) {
        sink &+= try queue.read { db in try ftsQueries(db, patterns) }
    }
    if sink == 42 { print("") }
}
